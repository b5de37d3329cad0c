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

}  // namespace
}  // namespace esign::http
