// The defects of an attacker's review, each tried as written against a live contractd over
// loopback: the exploit first, then the documented answer and the state it must leave unchanged
// (the log, the data directory, /metrics). docs/security.md lists them with the limits.
#include <zlib.h>

#include <filesystem>
#include <thread>

#include "base/base64.h"
#include "base/time_text.h"
#include "domain/clock.h"
#include "domain/contract_commands.h"
#include "tests/app/api_suite.h"
#include "tests/support/eventually.h"

namespace esign::testing {
namespace {

// A viewer from org_b: it may read the contract but not write to it.
std::string NdaViewedByB(const std::string& title, bool send_now) {
  return NdaBody(title, /*with_roles=*/true, send_now,
                 R"(,{"action":"view","recipientType":"organization","name":"Globex legal",
"organizationId":"org_b"})");
}

// The error object without its requestId, which differs from answer to answer.
std::string ErrorWithoutRequestId(const HttpResult& response) {
  if (!response.Json().is_object()) return response.body;
  object error = response.Json().at("error").as_object();
  error.erase("requestId");
  return boost::json::serialize(error);
}

// Bytes of every file under `dir`.
uint64_t DirectorySize(const std::filesystem::path& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec)) total += entry.file_size(ec);
  }
  return total;
}

// A valid 8-bit grey PNG of width x height, every pixel white.
std::string GreyPng(uint32_t width, uint32_t height) {
  auto be32 = [](uint32_t v) {
    return std::string{static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                       static_cast<char>(v >> 8), static_cast<char>(v)};
  };
  auto chunk = [&](const std::string& type, const std::string& data) {
    const std::string typed = type + data;
    const auto crc = static_cast<uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(typed.data()), static_cast<uInt>(typed.size())));
    return be32(static_cast<uint32_t>(data.size())) + typed + be32(crc);
  };
  std::string raw;
  for (uint32_t y = 0; y < height; ++y) raw += '\0' + std::string(width, '\xff');
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::string compressed(size, '\0');
  compress(reinterpret_cast<Bytef*>(compressed.data()), &size,
           reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()));
  compressed.resize(size);
  const std::string header = be32(width) + be32(height) + std::string("\x08\x00\x00\x00\x00", 5);
  return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", header) + chunk("IDAT", compressed) +
         chunk("IEND", "");
}

class SecurityTest : public ApiSuite {
 protected:
  std::string Id(const object& contract) { return std::string(contract.at("id").as_string()); }
};

// D1: If-Match was checked before the organization, and a missing contract answered otherwise
// than another organization's.
TEST_F(SecurityTest, AnotherOrganizationsContractAnswersExactlyLikeAMissingOne) {
  const std::string id = Id(Create("a", NdaBody("Not B's", true)));
  const std::string data = R"({"fieldValues":[{"key":"purpose","value":"x"}]})";
  const uint64_t before = LogSize();
  for (const std::map<std::string, std::string>& extra :
       {std::map<std::string, std::string>{{"If-Match", "\"999\""}},
        std::map<std::string, std::string>{{"If-Match", "\"1\""}},
        std::map<std::string, std::string>{}}) {
    auto others = client_.Put("/api/v1/contracts/" + id + "/data", data, As("b", extra));
    auto missing =
        client_.Put("/api/v1/contracts/ctr_00000000000000000000000000/data", data, As("b", extra));
    ExpectRefused(others, 404, "CONTRACT_NOT_FOUND", before);
    ExpectRefused(missing, 404, "CONTRACT_NOT_FOUND", before);
    EXPECT_EQ(ErrorWithoutRequestId(others), ErrorWithoutRequestId(missing));
    EXPECT_EQ(others.body.find("version"), std::string::npos) << others.body;
  }
  // With a key, the refusal writes no reservation either.
  auto sent = client_.Post("/api/v1/contracts/" + id + "/send", "",
                           As("b", {{"Idempotency-Key", "b-tries-a"}}));
  ExpectRefused(sent, 404, "CONTRACT_NOT_FOUND", before);
}

// D2: 524,268 invalid items answered 524,268 details in a 38 MB body.
TEST_F(SecurityTest, AnErrorBodyStaysSmallWhateverTheNumberOfProblems) {
  const std::string id = Id(Create("a", NdaBody("Many problems", true)));
  constexpr size_t kItems = 524268;
  std::string body = "{\"fieldValues\":[1";
  for (size_t i = 1; i < kItems; ++i) body += ",1";
  body += "]}";
  ASSERT_LT(body.size(), size_t{1} << 20);
  const uint64_t before = LogSize();
  auto answer = client_.Put("/api/v1/contracts/" + id + "/data", body, As("a"));
  ExpectRefused(answer, 400, "VALIDATION_FAILED", before, "fieldValues[0]");
  EXPECT_LT(answer.body.size(), 16u * 1024) << "the error body grew with the request";
  const auto& details = answer.Json().at("error").at("details").as_array();
  ASSERT_EQ(details.size(), 51u);
  EXPECT_EQ(details.back().at("issue").as_string(),
            "and " + std::to_string(kItems - 50) + " more problems not shown");

  // A single key of 100,000 characters is echoed at most in part.
  const std::string long_key(100000, 'k');
  auto echoed =
      client_.Put("/api/v1/contracts/" + id + "/data",
                  R"({"fieldValues":[{"key":")" + long_key + R"(","value":1}]})", As("a"));
  ExpectRefused(echoed, 400, "VALIDATION_FAILED", before);
  EXPECT_LT(echoed.body.size(), 4096u);
}

// D3: every distinct method name became a permanent /metrics series.
TEST_F(SecurityTest, UnknownMethodsAreRefusedAndAddNoMetricSeries) {
  auto first = client_.SendMethod("BREW", "/api/v1/contracts", As("a"));
  EXPECT_EQ(first.status, 501) << first.body;
  EXPECT_EQ(first.ErrorCode(), "NOT_IMPLEMENTED");
  client_.Get("/metrics");  // its own series exists before measuring
  const size_t metrics_before = client_.Get("/metrics").body.size();
  for (int i = 0; i < 40; ++i) {
    const std::string method = "X" + std::to_string(i) + std::string(8000, 'M');
    auto answer = client_.SendMethod(method, "/api/v1/contracts/" + std::to_string(i));
    EXPECT_EQ(answer.status, 501) << answer.body;
  }
  const std::string metrics = client_.Get("/metrics").body;
  EXPECT_EQ(metrics.find("MMMMMMMM"), std::string::npos);
  // Only counters move (a few digits each).
  EXPECT_LT(metrics.size(), metrics_before + 200);
}

// D6: a refused POST .../evidence/bundle stored its bundle before it was refused.
TEST_F(SecurityTest, RefusedEvidenceBundlesStoreNothing) {
  const std::string sent = Id(Create("a", NdaViewedByB("Viewed by B", /*send_now=*/true)));
  const std::string draft = Id(Create("a", NdaBody("A draft", true)));
  // Settle what the creations wrote before measuring.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const uint64_t before = LogSize();
  const uint64_t size_before = DirectorySize(data_dir_);
  for (int i = 0; i < 30; ++i) {
    ExpectRefused(client_.Post("/api/v1/contracts/" + sent + "/evidence/bundle", "", As("b")), 404,
                  "CONTRACT_NOT_FOUND", before);
    ExpectRefused(client_.Post("/api/v1/contracts/" + draft + "/evidence/bundle", "", As("a")), 409,
                  "CONTRACT_STATE_CONFLICT", before);
  }
  // 60 bundles of about 10 KB each were stored before; RocksDB's own files may move a little.
  EXPECT_LT(DirectorySize(data_dir_), size_before + 60 * 1024);
}

// D8: the same Idempotency-Key twice made revisions 1 and 2. And the bundles per contract are
// bounded.
TEST_F(SecurityTest, EvidenceBundlesHonourIdempotencyKeysAndALimit) {
  const std::string id = Id(Create("a", NdaBody("Evidence", true, true)));
  const std::string path = "/api/v1/contracts/" + id + "/evidence/bundle";
  auto first = client_.Post(path, "", As("a", {{"Idempotency-Key", "bundle-1"}}));
  ASSERT_EQ(first.status, 201) << first.body;
  const uint64_t after_first = LogSize();
  auto again = client_.Post(path, "", As("a", {{"Idempotency-Key", "bundle-1"}}));
  ASSERT_EQ(again.status, 201) << again.body;
  EXPECT_EQ(again.Json().at("revision"), first.Json().at("revision"));
  EXPECT_EQ(again.Json().at("sha256"), first.Json().at("sha256"));
  EXPECT_EQ(LogSize(), after_first);

  auto revisions =
      client_.Get("/api/v1/contracts/" + id + "/documents/artifact-revisions", As("a"));
  ASSERT_EQ(revisions.status, 200) << revisions.body;
  size_t bundles = 0;
  for (const auto& r : revisions.Json().at("items").as_array()) {
    bundles += r.at("kind") == "evidence_bundle" ? 1 : 0;
  }
  EXPECT_EQ(bundles, 1u);

  for (size_t i = 1; i < kMaxEvidenceBundlesPerContract; ++i) {
    ASSERT_EQ(client_.Post(path, "", As("a")).status, 201);
  }
  const uint64_t full = LogSize();
  ExpectRefused(client_.Post(path, "", As("a")), 409, "CONTRACT_STATE_CONFLICT", full, "revision");
}

// D7: only the PNG magic bytes were checked; a 100000x1 image from one signer failed every later
// completion at sealing, and the contract stayed in signing forever.
TEST_F(SecurityTest, AnUnusableSignatureImageIsRefusedWhenReceived) {
  const object contract = Create("a", NdaBody("Image", true, true));
  const std::string id = Id(contract);
  const std::string ada = ParticipantId(contract, 0);
  const std::string grace = ParticipantId(contract, 1);
  auto grace_session = client_.Post("/api/v1/contracts/" + id + "/signing-sessions",
                                    R"({"participantId":")" + grace + "\"}", As("a"));
  ASSERT_EQ(grace_session.status, 201) << grace_session.body;
  const std::string complete = "/api/v1/signing-sessions/" +
                               std::string(grace_session.Json().at("sessionId").as_string()) +
                               "/complete";
  auto body_with = [](const std::string& png) {
    return R"({"signerName":"Grace Hopper","signedAt":")" + SignedAtNow() + R"(",
"ipAddress":"198.51.100.4","userAgent":"IntegratorApp/2.1","authenticationMethod":"sso",
"consent":true,"signatureImage":")" +
           Base64Encode(png) + "\"}";
  };
  const uint64_t before = LogSize();
  ExpectRefused(client_.Post(complete, body_with(GreyPng(100000, 1)), As("a")), 400,
                "VALIDATION_FAILED", before, "signatureImage");
  std::string truncated = GreyPng(40, 20);
  truncated.resize(truncated.size() - 20);
  ExpectRefused(client_.Post(complete, body_with(truncated), As("a")), 400, "VALIDATION_FAILED",
                before, "signatureImage");

  auto signed_b = client_.Post(complete, body_with(GreyPng(120, 40)), As("a"));
  ASSERT_EQ(signed_b.status, 200) << signed_b.body;
  auto ada_session = client_.Post("/api/v1/contracts/" + id + "/signing-sessions",
                                  R"({"participantId":")" + ada + "\"}", As("a"));
  ASSERT_EQ(ada_session.status, 201) << ada_session.body;
  const std::string url(ada_session.Json().at("url").as_string());
  const std::string token = url.substr(url.rfind('/') + 1);
  auto signed_a = client_.Post("/api/v1/hosted-signing/" + token + "/complete",
                               R"({"signatureText":"Ada Lovelace","consent":true})");
  ASSERT_EQ(signed_a.status, 200) << signed_a.body;
  EXPECT_EQ(signed_a.Json().at("contractStatus").as_string(), "completed");
}

// A signature that the integrator dated before the contract was sent (the quickstart's fixed
// "2026-11-20") was sealed, and the certificate said "Signed" on a day the contract did not exist.
TEST_F(SecurityTest, ASignatureDatedOutsideItsSessionIsRefused) {
  const object contract = Create("a", NdaBody("Dated", true, true));
  auto session =
      client_.Post("/api/v1/contracts/" + Id(contract) + "/signing-sessions",
                   R"({"participantId":")" + ParticipantId(contract, 1) + "\"}", As("a"));
  ASSERT_EQ(session.status, 201) << session.body;
  const std::string complete = "/api/v1/signing-sessions/" +
                               std::string(session.Json().at("sessionId").as_string()) +
                               "/complete";
  auto dated = [](const std::string& signed_at) {
    return R"({"signerName":"Grace Hopper","signedAt":")" + signed_at +
           R"(","ipAddress":"198.51.100.4","userAgent":"IntegratorApp/2.1",
"authenticationMethod":"sso","consent":true})";
  };
  const int64_t now = SystemClock::Instance().NowMicros();
  const uint64_t before = LogSize();
  ExpectRefused(client_.Post(complete, dated("2026-11-20T10:00:00Z"), As("a")), 400,
                "VALIDATION_FAILED", before, "signedAt");
  ExpectRefused(client_.Post(complete, dated(FormatTimestamp(now - kMicrosPerHour)), As("a")), 400,
                "VALIDATION_FAILED", before, "signedAt");
  ExpectRefused(
      client_.Post(complete, dated(FormatTimestamp(now + 10 * 60 * kMicrosPerSecond)), As("a")),
      400, "VALIDATION_FAILED", before, "signedAt");
  auto status = client_.Get("/api/v1/contracts/" + Id(contract) + "/status", As("a"));
  EXPECT_EQ(status.Json().at("participants").as_array().at(1).at("state"), "ready") << status.body;

  auto signed_now = client_.Post(complete, dated(SignedAtNow()), As("a"));
  EXPECT_EQ(signed_now.status, 200) << signed_now.body;
}

// D9: without --public-url, hosted links took their origin from the request's Host header.
// D10: an absolute-form request target carried the token into the access log.
TEST_F(SecurityTest, SigningLinksNeverComeFromTheHostHeaderNorReachTheLog) {
  const object contract = Create("a", NdaBody("Links", true, true));
  auto session =
      client_.Post("/api/v1/contracts/" + Id(contract) + "/signing-sessions",
                   R"({"participantId":")" + ParticipantId(contract, 0) + "\"}",
                   As("a", {{"Host", "evil.example"}, {"X-Forwarded-Host", "evil.example"}}));
  ASSERT_EQ(session.status, 201) << session.body;
  const std::string url(session.Json().at("url").as_string());
  EXPECT_EQ(url.rfind("http://127.0.0.1:" + std::to_string(port_) + "/sign/", 0), 0u) << url;

  const std::string token = url.substr(url.rfind('/') + 1);
  auto absolute = client_.Get("http://127.0.0.1/api/v1/hosted-signing/" + token);
  EXPECT_EQ(absolute.status, 400) << absolute.body;
  const std::string request_id = absolute.Header("x-request-id");
  ASSERT_TRUE(server_->WaitForLine(request_id, std::chrono::seconds(5)));
  EXPECT_EQ(server_->output().find(token), std::string::npos)
      << "the signing token reached the access log";
}

TEST_F(SecurityTest, NotificationsAreTheControllersAndNameNoInternalPath) {
  const object contract = Create("a", NdaViewedByB("Whom we mailed", /*send_now=*/true));
  const std::string path =
      "/api/v1/contracts/" + std::string(contract.at("id").as_string()) + "/notifications";
  // Without a mail server the outbox writes files under the data directory; the outbox's own
  // record of that names the file.
  boost::json::array items;
  ASSERT_TRUE(Eventually([&] {
    const HttpResult listed = client_.Get(path, As("a"));
    if (listed.status != 200) return false;
    items = listed.Json().at("items").as_array();
    return !items.empty() && items[0].at("attempts").to_number<int64_t>() > 0;
  })) << boost::json::serialize(items);
  for (const auto& item : items) {
    if (item.at("lastReply").is_null()) continue;
    const auto& reply = item.at("lastReply").as_object();
    EXPECT_EQ(reply.at("code"), 250);
    EXPECT_EQ(reply.at("text"), "accepted by the mail server");
    EXPECT_EQ(boost::json::serialize(item).find(data_dir_.string()), std::string::npos);
  }

  // org_b reads the contract through its viewer grant, but not whom org_a mailed.
  const uint64_t before = LogSize();
  ASSERT_EQ(client_.Get("/api/v1/contracts/" + std::string(contract.at("id").as_string()), As("b"))
                .status,
            200);
  const HttpResult refused = client_.Get(path, As("b"));
  ExpectRefused(refused, 404, "CONTRACT_NOT_FOUND", before);
  EXPECT_EQ(
      ErrorWithoutRequestId(refused),
      ErrorWithoutRequestId(client_.Get("/api/v1/contracts/ctr_none/notifications", As("b"))));
  ExpectRefused(client_.Get(path, As("c")), 404, "CONTRACT_NOT_FOUND", before);
}

}  // namespace
}  // namespace esign::testing
