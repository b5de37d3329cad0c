// Timestamped tree heads: the ledger asks its timestamper for a token over each head it signs,
// keeps it with the head in RocksDB, and a proof bundle carries it and checks it by name. The
// tokens come from `openssl ts -reply` run directly with the keys of the loopback authority
// (tests/support/tsa_server.mjs), and are checked again with `openssl ts -verify`.
#include "eventstore/tree_head_timestamp.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <fstream>
#include <string>

#include "base/base64.h"
#include "base/hex.h"
#include "eventstore/proof_bundle.h"
#include "eventstore/rocksdb_event_store.h"
#include "tests/eventstore/store_test_support.h"
#include "tests/support/shell.h"
#include "tests/support/test_tsa.h"

namespace esign::eventstore {
namespace {

using esign::testing::RunShell;
using esign::testing::TestTsa;
using testing::Event;
using testing::TempDir;
using testing::TestRocksOptions;

// A token over `digest` from the authority's own files, without the client under test.
std::string OpensslToken(const TestTsa& tsa, const Sha256Digest& digest) {
  const std::string query = tsa.dir() + "/head.tsq";
  const std::string token = tsa.dir() + "/head.tst";
  const auto made =
      RunShell("openssl ts -query -sha256 -cert -digest " + ToHex(DigestBytes(digest)) + " -out " +
               query + " 2>&1 && openssl ts -reply -config " + tsa.dir() + "/tsa.cnf -queryfile " +
               query + " -token_out -out " + token + " 2>&1");
  EXPECT_EQ(made.exit_code, 0) << made.out;
  return TestTsa::Read(token);
}

class TreeHeadTimestampTest : public ::testing::Test {
 protected:
  std::unique_ptr<RocksEventStore> Open() {
    auto store = RocksEventStore::Open(TestRocksOptions(dir_.path()));
    EXPECT_TRUE(store) << store.error().message;
    return store ? std::move(*store) : nullptr;
  }
  void Stamp(EventStore& store) {
    store.ledger().SetTimestamper([this](const SignedTreeHead& head) {
      ++asked_;
      return down_ ? std::string() : OpensslToken(tsa_, TreeHeadTimestampDigest(head));
    });
  }
  static const BundleCheck* Find(const BundleReport& report, const std::string& name) {
    for (const BundleCheck& check : report.checks) {
      if (check.name == name) return &check;
    }
    return nullptr;
  }

  TempDir dir_;
  TestTsa tsa_;
  int asked_ = 0;
  bool down_ = false;
};

TEST_F(TreeHeadTimestampTest, ASignedHeadIsTimestampedKeptAcrossARestartAndProvenInTheBundle) {
  std::string token;
  {
    auto store = Open();
    Stamp(*store);
    ASSERT_TRUE(store->Append("proven", ExpectedVersion::NoStream(), {Event("evt_1")}));
    auto head = store->ledger().SignTreeHead();
    ASSERT_TRUE(head) << head.error().message;
    ASSERT_FALSE(head->timestamp_token.empty());
    token = head->timestamp_token;
    // Nothing new: the same head, not a second token.
    ASSERT_TRUE(store->ledger().SignTreeHead());
    EXPECT_EQ(asked_, 1);
  }
  auto store = Open();
  auto heads = store->ledger().TreeHeads();
  ASSERT_TRUE(heads);
  ASSERT_EQ(heads->size(), 1u);
  EXPECT_EQ(heads->back().timestamp_token, token);

  auto bundle = BuildProofBundle(*store, "proven");
  ASSERT_TRUE(bundle) << bundle.error().message;
  ASSERT_TRUE(bundle->contains("treeHeadTimestamp"));
  EXPECT_EQ(Base64Decode(bundle->at("treeHeadTimestamp").as_string()), token);
  auto report = VerifyProofBundle(*bundle, store->ledger().PublicKeyPem());
  ASSERT_TRUE(report);
  EXPECT_TRUE(report->ok()) << report->first_failure()->name;
  const BundleCheck* check = Find(*report, "treeHead.timestamp");
  ASSERT_NE(check, nullptr);
  EXPECT_NE(check->detail.find("Test Time Stamping Authority"), std::string::npos) << check->detail;

  // An independent verifier agrees: the token is over the head's signed message and signature.
  const std::string path = dir_.path() + "/token.der";
  std::ofstream(path, std::ios::binary) << token;
  const auto verified = RunShell("openssl ts -verify -digest " +
                                 ToHex(DigestBytes(TreeHeadTimestampDigest(heads->back()))) +
                                 " -token_in -in " + path + " -CAfile " + tsa_.CaFile() + " 2>&1");
  EXPECT_NE(verified.out.find("Verification: OK"), std::string::npos) << verified.out;
}

TEST_F(TreeHeadTimestampTest, AChangedTokenOrHeadOrAnotherHeadsTokenFailsByName) {
  auto store = Open();
  Stamp(*store);
  ASSERT_TRUE(store->Append("proven", ExpectedVersion::NoStream(), {Event("evt_1")}));
  auto first = store->ledger().SignTreeHead();
  ASSERT_TRUE(first);
  ASSERT_TRUE(store->Append("proven", ExpectedVersion::Any(), {Event("evt_2")}));
  ASSERT_TRUE(store->ledger().SignTreeHead());
  auto bundle = BuildProofBundle(*store, "proven");
  ASSERT_TRUE(bundle);

  auto failure_of = [](const boost::json::object& changed) {
    auto report = VerifyProofBundle(changed);
    EXPECT_TRUE(report);
    return report && !report->ok() ? report->first_failure()->name : std::string("none");
  };
  boost::json::object other_token = *bundle;
  other_token["treeHeadTimestamp"] = Base64Encode(first->timestamp_token);
  EXPECT_EQ(failure_of(other_token), "treeHead.timestamp");
  auto report = VerifyProofBundle(other_token);
  EXPECT_EQ(Find(*report, "treeHead.timestamp")->detail,
            "the message imprint is not the expected digest");

  // A byte of the carried certificates (the middle) or of the token's signature (the end).
  const std::string bytes = *Base64Decode(bundle->at("treeHeadTimestamp").as_string());
  for (const size_t at : {bytes.size() / 2, bytes.size() - 1}) {
    std::string changed = bytes;
    changed[at] ^= 0x01;
    boost::json::object flipped = *bundle;
    flipped["treeHeadTimestamp"] = Base64Encode(changed);
    EXPECT_EQ(failure_of(flipped), "treeHead.timestamp") << at;
  }

  boost::json::object not_base64 = *bundle;
  not_base64["treeHeadTimestamp"] = 42;
  EXPECT_EQ(failure_of(not_base64), "treeHead.timestamp");

  // A changed head fails its signature, and the timestamp has no head to hold against.
  boost::json::object moved = *bundle;
  moved["treeHead"].as_object()["timestamp"] = first->timestamp_ms - 1;
  auto moved_report = VerifyProofBundle(moved);
  ASSERT_TRUE(moved_report);
  EXPECT_FALSE(Find(*moved_report, "treeHead.signature")->ok);
  EXPECT_FALSE(Find(*moved_report, "treeHead.timestamp")->ok);
}

TEST_F(TreeHeadTimestampTest, AHeadTheAuthorityGaveNoTokenIsKeptWithoutOneAndClaimsNone) {
  auto store = Open();
  down_ = true;
  Stamp(*store);
  ASSERT_TRUE(store->Append("proven", ExpectedVersion::NoStream(), {Event("evt_1")}));
  auto head = store->ledger().SignTreeHead();
  ASSERT_TRUE(head) << head.error().message;
  EXPECT_TRUE(head->timestamp_token.empty());
  EXPECT_EQ(asked_, 1);
  auto bundle = BuildProofBundle(*store, "proven");
  ASSERT_TRUE(bundle);
  EXPECT_FALSE(bundle->contains("treeHeadTimestamp"));
  auto report = VerifyProofBundle(*bundle);
  ASSERT_TRUE(report);
  EXPECT_TRUE(report->ok());
  EXPECT_EQ(Find(*report, "treeHead.timestamp"), nullptr);
}

TEST(StoredTreeHeadTest, TheStoredFormKeepsTheTokenAndReadsTheOldForm) {
  SignedTreeHead head{.size = 3, .root = {}, .timestamp_ms = 7, .signature = std::string(64, 's')};
  const std::string plain = SerializeStoredTreeHead(head);
  EXPECT_EQ(plain, SerializeTreeHead(head));
  EXPECT_EQ(ParseStoredTreeHead(plain), head);
  head.timestamp_token = "token bytes";
  const std::string stamped = SerializeStoredTreeHead(head);
  EXPECT_NE(stamped.find("\"timestampToken\":\"dG9rZW4gYnl0ZXM=\""), std::string::npos) << stamped;
  EXPECT_EQ(ParseStoredTreeHead(stamped), head);
  EXPECT_FALSE(ParseTreeHead(stamped));  // the public form has exactly four members
  std::string bad = stamped;
  bad.replace(bad.find("dG9r"), 4, "!!!!");
  ASSERT_FALSE(ParseStoredTreeHead(bad));
  EXPECT_EQ(ParseStoredTreeHead(bad).error().code, ErrorCode::kCorruption);
}

}  // namespace
}  // namespace esign::eventstore
