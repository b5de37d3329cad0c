#include "http/error_response.h"

#include <gtest/gtest.h>
#include <boost/json.hpp>

namespace esign::http {
namespace {

namespace beast_http = boost::beast::http;

TEST(ErrorResponseTest, BodyHasCodeMessageDetailsAndRequestId) {
  Error error = Error::Of(ErrorCode::kContractRoleBindingInvalid, "signer lacks a role",
                          "participants[1].templateRoleId", "required when sendNow is true");
  auto body = boost::json::parse(ErrorBody(error, "req_1")).as_object();
  const auto& e = body.at("error").as_object();
  EXPECT_EQ(e.at("code"), "CONTRACT_ROLE_BINDING_INVALID");
  EXPECT_EQ(e.at("message"), "signer lacks a role");
  EXPECT_EQ(e.at("requestId"), "req_1");
  const auto& detail = e.at("details").as_array().at(0).as_object();
  EXPECT_EQ(detail.at("field"), "participants[1].templateRoleId");
  EXPECT_EQ(detail.at("issue"), "required when sendNow is true");
}

TEST(ErrorResponseTest, InternalErrorsLeakNothing) {
  Error error = Error::Of(ErrorCode::kStorage, "IO error: /data/db/000012.log: No space left");
  auto body = boost::json::parse(ErrorBody(error, "req_2")).as_object();
  EXPECT_EQ(body.at("error").at("message"), "internal error");
  EXPECT_EQ(StatusOf(ErrorCode::kStorage), beast_http::status::internal_server_error);
}

// A full disk: 503 with Retry-After, and a generic message instead of the store's, which names
// files of the data directory.
TEST(ErrorResponseTest, AFullDiskIsServiceUnavailableWithRetryAfterAndNoPaths) {
  Error error =
      Error::Of(ErrorCode::kStorageUnavailable,
                "appending to the log: IO error: No space left on device: /data/db/9.log");
  Response response = ErrorResponse(error, "req_4", 11, true);
  EXPECT_EQ(response.result(), beast_http::status::service_unavailable);
  EXPECT_EQ(response[beast_http::field::retry_after], "5");
  auto body = boost::json::parse(response.body()).as_object();
  EXPECT_EQ(body.at("error").at("code"), "STORAGE_UNAVAILABLE");
  EXPECT_EQ(response.body().find("/data/db"), std::string::npos) << response.body();
  EXPECT_TRUE(body.at("error").at("details").as_array().empty());
}

// However an error was made, its body stays bounded: at most 50 details and a count, every text
// cut at a character boundary.
TEST(ErrorResponseTest, BodiesAreBoundedWhateverTheError) {
  Error error = Error::Of(ErrorCode::kValidationFailed, std::string(5000, 'm'));
  for (int i = 0; i < 60; ++i) {
    error.details.push_back({"f" + std::to_string(i) + std::string(1000, 'x'), "bad"});
  }
  error.details[0].issue = std::string(255, 'a') + "\u00e9";  // a 2-byte character across 256
  auto body = boost::json::parse(ErrorBody(error, "req_3")).as_object();
  const auto& e = body.at("error").as_object();
  EXPECT_EQ(e.at("message").as_string().size(), 512u + 3);
  const auto& details = e.at("details").as_array();
  ASSERT_EQ(details.size(), 51u);
  EXPECT_EQ(details[0].at("field").as_string().size(), 256u + 3);
  EXPECT_EQ(details[0].at("issue").as_string(), std::string(255, 'a') + "...");
  EXPECT_EQ(details[50].at("issue"), "and 10 more problems not shown");
}

TEST(ErrorResponseTest, StatusTable) {
  EXPECT_EQ(StatusOf(ErrorCode::kValidationFailed), beast_http::status::bad_request);
  EXPECT_EQ(StatusOf(ErrorCode::kInvalidNotificationSettings), beast_http::status::bad_request);
  EXPECT_EQ(StatusOf(ErrorCode::kUnauthenticated), beast_http::status::unauthorized);
  EXPECT_EQ(StatusOf(ErrorCode::kPermissionDenied), beast_http::status::forbidden);
  EXPECT_EQ(StatusOf(ErrorCode::kContractSignedDocumentNotAvailable),
            beast_http::status::not_found);
  EXPECT_EQ(StatusOf(ErrorCode::kContractStateConflict), beast_http::status::conflict);
  EXPECT_EQ(StatusOf(ErrorCode::kPreconditionFailed), beast_http::status::precondition_failed);
  EXPECT_EQ(StatusOf(ErrorCode::kPayloadTooLarge), beast_http::status::payload_too_large);
  EXPECT_EQ(StatusOf(ErrorCode::kUnsupportedMediaType), beast_http::status::unsupported_media_type);
  EXPECT_EQ(StatusOf(ErrorCode::kRateLimited), beast_http::status::too_many_requests);
}

TEST(ErrorResponseTest, AnInvalidTokenChallengeCarriesTheReasonAsRfc6750AllowsIt) {
  EXPECT_EQ(InvalidTokenChallenge("the access token expired at 2027-01-15T09:00:00.000000Z"),
            R"(Bearer realm="contract-api", error="invalid_token", )"
            R"(error_description="the access token expired at 2027-01-15T09:00:00.000000Z")");
  EXPECT_EQ(InvalidTokenChallenge("a \"quoted\" back\\slash\n\xC3\xA9"),
            R"(Bearer realm="contract-api", error="invalid_token", )"
            R"(error_description="a  quoted  back slash   ")");
}

}  // namespace
}  // namespace esign::http
