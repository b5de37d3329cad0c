// The ledger's published trust (DESIGN 24) end to end: GET /api/v1/ledger/public-key, tree-head
// and consistency answer without authentication; the key is the one the bundles carry and the
// heads verify with, a consistency proof between two signed heads verifies with the project's
// Merkle code, bad sizes answer 400 naming the parameter and change nothing, the routes count
// against the caller address's rate limit, and verify-bundle trusts the key they publish.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <fstream>
#include <string>
#include <vector>

#include "base/hex.h"
#include "eventstore/ledger_key.h"
#include "eventstore/merkle.h"
#include "eventstore/tree_head.h"
#include "tests/app/api_suite.h"
#include "tests/app/contractd_fixture.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

class LedgerRoutesTest : public ContractdFixture {
 protected:
  void SetUp() override {
    ContractdFixture::SetUp();
    credentials_ =
        ParseCreated(CreateClient("org_a", "contracts:read,contracts:create,contracts:send"));
  }

  // A new contract and its evidence bundle, which signs a head over everything written so far.
  boost::json::object NewContractsBundle() {
    HttpClient client(port_);
    auto created = client.Post("/api/v1/contracts", NdaBody("Published", true, true), auth_);
    EXPECT_EQ(created.status, 201) << created.body;
    auto bundle =
        client.Get("/api/v1/contracts/" + std::string(created.Json().at("id").as_string()) +
                       "/evidence/bundle",
                   auth_);
    EXPECT_EQ(bundle.status, 200) << bundle.body;
    return bundle.status == 200 ? bundle.Json().as_object() : boost::json::object{};
  }

  static eventstore::Hash Root(const HttpResult& head) {
    const auto bytes = FromHex(head.Json().at("root").as_string());
    eventstore::Hash root{};
    EXPECT_TRUE(bytes && bytes->size() == root.size());
    if (bytes && bytes->size() == root.size())
      std::copy(bytes->begin(), bytes->end(), root.begin());
    return root;
  }

  static std::vector<eventstore::Hash> Proof(const HttpResult& answer) {
    std::vector<eventstore::Hash> proof;
    for (const auto& hex : answer.Json().at("proof").as_array()) {
      const auto bytes = FromHex(hex.as_string());
      eventstore::Hash hash{};
      EXPECT_TRUE(bytes && bytes->size() == hash.size());
      if (bytes && bytes->size() == hash.size()) {
        std::copy(bytes->begin(), bytes->end(), hash.begin());
      }
      proof.push_back(hash);
    }
    return proof;
  }

  std::string Ledger(const std::vector<std::string>& args) {
    std::string command = LEDGER_BINARY;
    for (const auto& arg : args) command += " " + arg;
    last_ = RunShell(command);
    return last_.out;
  }

  Credentials credentials_;
  std::map<std::string, std::string> auth_;
  ShellResult last_;
};

TEST_F(LedgerRoutesTest, KeyHeadAndConsistencyAreServedAndVerify) {
  auto server = StartServer({"--tree-head-interval", "3600"});
  auth_ = {{"Authorization", "Bearer " + TokenFor(credentials_)}};
  HttpClient client(port_);

  // The key: no authentication; PEM, JWK and fingerprint of the key the bundles carry.
  const boost::json::object first_bundle = NewContractsBundle();
  auto key = client.Get("/api/v1/ledger/public-key");
  ASSERT_EQ(key.status, 200) << key.body;
  EXPECT_FALSE(key.Header("ratelimit-limit").empty());
  const std::string pem(key.Json().at("pem").as_string());
  EXPECT_EQ(pem, first_bundle.at("ledger").at("publicKeyPem").as_string());
  EXPECT_EQ(key.Json().at("fingerprintSha256").as_string(), eventstore::PublicKeyFingerprint(pem));
  auto from_jwk = eventstore::TrustedLedgerKeyPem(boost::json::serialize(key.Json().at("jwk")));
  ASSERT_TRUE(from_jwk) << from_jwk.error().message;
  EXPECT_EQ(*from_jwk, pem);

  // The newest head: signed with that key, the one the bundle was proven against.
  auto first = client.Get("/api/v1/ledger/tree-head");
  ASSERT_EQ(first.status, 200) << first.body;
  auto parsed = eventstore::ParseTreeHead(boost::json::serialize(first.Json()));
  ASSERT_TRUE(parsed) << parsed.error().message << first.body;
  EXPECT_TRUE(eventstore::VerifyTreeHead(*parsed, pem));
  EXPECT_EQ(first.Json(), first_bundle.at("ledger").at("treeHead"));

  // A later head extends it: the proof between them verifies, and not for another root.
  NewContractsBundle();
  auto second = client.Get("/api/v1/ledger/tree-head");
  ASSERT_EQ(second.status, 200);
  const uint64_t m = first.Json().at("size").to_number<uint64_t>();
  const uint64_t n = second.Json().at("size").to_number<uint64_t>();
  ASSERT_LT(m, n);
  auto proof = client.Get("/api/v1/ledger/consistency?from=" + std::to_string(m) +
                          "&to=" + std::to_string(n));
  ASSERT_EQ(proof.status, 200) << proof.body;
  EXPECT_EQ(proof.Json().at("from").to_number<uint64_t>(), m);
  EXPECT_EQ(proof.Json().at("to").to_number<uint64_t>(), n);
  EXPECT_FALSE(proof.Json().at("proof").as_array().empty());
  EXPECT_TRUE(eventstore::VerifyConsistency(m, n, Root(first), Root(second), Proof(proof)));
  eventstore::Hash forked = Root(first);
  forked[0] ^= 1;
  EXPECT_FALSE(eventstore::VerifyConsistency(m, n, forked, Root(second), Proof(proof)));
  for (const std::string& empty : {"from=0&to=" + std::to_string(n),
                                   "from=" + std::to_string(n) + "&to=" + std::to_string(n)}) {
    auto answer = client.Get("/api/v1/ledger/consistency?" + empty);
    EXPECT_EQ(answer.status, 200) << empty << answer.body;
    EXPECT_TRUE(answer.Json().at("proof").as_array().empty()) << answer.body;
  }

  // Bad sizes: 400 naming the parameter, and nothing changed.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"from=abc&to=" + std::to_string(n), "from"},
      {"from=-1&to=" + std::to_string(n), "from"},
      {"from=1.5&to=" + std::to_string(n), "from"},
      {"from=99999999999999999999999&to=" + std::to_string(n), "from"},
      {"to=" + std::to_string(n), "from"},
      {"from=1", "to"},
      {"from=" + std::to_string(n) + "&to=" + std::to_string(m), "from"},
      {"from=1&to=" + std::to_string(n + 1), "to"},
  };
  for (const auto& [query, field] : bad) {
    auto answer = client.Get("/api/v1/ledger/consistency?" + query);
    EXPECT_EQ(answer.status, 400) << query << answer.body;
    EXPECT_EQ(answer.ErrorCode(), "VALIDATION_FAILED") << query;
    EXPECT_EQ(answer.Json().at("error").at("details").at(0).at("field").as_string(), field)
        << query << answer.body;
  }
  EXPECT_EQ(client.Get("/api/v1/ledger/tree-head").body, second.body);

  // verify-bundle trusts the published key: from a file of the route's answer, or fetched.
  const auto dir = data_dir_.parent_path();
  const std::string bundle_file = (dir / (data_dir_.filename().string() + "-b.json")).string();
  const std::string key_file = (dir / (data_dir_.filename().string() + "-k.json")).string();
  std::ofstream(bundle_file) << boost::json::serialize(first_bundle.at("ledger"));
  std::ofstream(key_file) << key.body;
  Ledger({"verify-bundle", bundle_file, "--public-key", key_file});
  EXPECT_EQ(last_.exit_code, 0) << last_.out;
  Ledger({"verify-bundle", bundle_file, "--public-key-url",
          "http://127.0.0.1:" + std::to_string(port_)});
  EXPECT_EQ(last_.exit_code, 0) << last_.out;
  EXPECT_NE(last_.out.find("verify-bundle: ok"), std::string::npos) << last_.out;
  Ledger({"verify-bundle", bundle_file});
  EXPECT_EQ(last_.exit_code, 2) << last_.out;
  std::filesystem::remove(bundle_file);
  std::filesystem::remove(key_file);
  StopServer(*server);
}

TEST_F(LedgerRoutesTest, TheOpenRoutesCountAgainstTheCallersAddress) {
  // One request a second, bursts of two: the third at once is refused.
  auto server = StartServer({"--rate-limit", "1"});
  HttpClient client(port_);
  EXPECT_EQ(client.Get("/api/v1/ledger/public-key").status, 200);
  EXPECT_EQ(client.Get("/api/v1/ledger/public-key").status, 200);
  auto refused = client.Get("/api/v1/ledger/consistency?from=0&to=0");
  EXPECT_EQ(refused.status, 429) << refused.body;
  EXPECT_FALSE(refused.Header("retry-after").empty());
  StopServer(*server);
}

}  // namespace
}  // namespace esign::testing
