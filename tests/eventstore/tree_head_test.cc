#include "eventstore/tree_head.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/hex.h"
#include "tests/support/temp_dir.h"

namespace esign::eventstore {
namespace {

namespace fs = std::filesystem;

using esign::testing::TempDir;

std::unique_ptr<TreeHeadSigner> Ephemeral() {
  Result<std::unique_ptr<TreeHeadSigner>> signer = TreeHeadSigner::CreateEphemeral();
  EXPECT_TRUE(signer);
  return signer ? std::move(*signer) : nullptr;
}

std::string FlipBit(std::string bytes, size_t bit) {
  bytes[bit / 8] = static_cast<char>(bytes[bit / 8] ^ (1 << (bit % 8)));
  return bytes;
}

const Hash kRoot = Sha256("root");
constexpr int64_t kTimestamp = 1'795'000'000'123;

TEST(TreeHeadMessageTest, IsVersionTimestampSizeRootBigEndian) {
  Hash root;
  for (size_t i = 0; i < root.size(); ++i) root[i] = static_cast<uint8_t>(0xa0 + i);
  const std::string message = TreeHeadMessage(0x0102030405060708, root, 0x1112131415161718);
  ASSERT_EQ(message.size(), 49u);
  const std::string expected_prefix(
      "\x01\x11\x12\x13\x14\x15\x16\x17\x18"
      "\x01\x02\x03\x04\x05\x06\x07\x08",
      17);
  EXPECT_EQ(message.substr(0, 17), expected_prefix);
  EXPECT_EQ(message.substr(17), std::string(root.begin(), root.end()));
}

TEST(TreeHeadSignerTest, SignedHeadVerifies) {
  const auto signer = Ephemeral();
  const SignedTreeHead head = signer->Sign(42, kRoot, kTimestamp);
  EXPECT_EQ(head.size, 42u);
  EXPECT_EQ(head.root, kRoot);
  EXPECT_EQ(head.timestamp_ms, kTimestamp);
  EXPECT_EQ(head.signature.size(), 64u);
  EXPECT_TRUE(VerifyTreeHead(head, signer->PublicKeyPem()));
  // Ed25519 is deterministic.
  EXPECT_EQ(signer->Sign(42, kRoot, kTimestamp), head);
}

TEST(TreeHeadSignerTest, EveryFlippedBitFailsVerification) {
  const auto signer = Ephemeral();
  const std::string key = signer->PublicKeyPem();
  const SignedTreeHead head = signer->Sign(42, kRoot, kTimestamp);
  for (size_t bit = 0; bit < 256; ++bit) {
    SignedTreeHead tampered = head;
    tampered.root[bit / 8] ^= static_cast<uint8_t>(1 << (bit % 8));
    EXPECT_FALSE(VerifyTreeHead(tampered, key)) << "root bit " << bit;
  }
  for (size_t bit = 0; bit < 64; ++bit) {
    SignedTreeHead tampered = head;
    tampered.size ^= uint64_t{1} << bit;
    EXPECT_FALSE(VerifyTreeHead(tampered, key)) << "size bit " << bit;
    tampered = head;
    tampered.timestamp_ms ^= int64_t{1} << bit;
    EXPECT_FALSE(VerifyTreeHead(tampered, key)) << "timestamp bit " << bit;
  }
  for (size_t bit = 0; bit < 512; ++bit) {
    SignedTreeHead tampered = head;
    tampered.signature = FlipBit(head.signature, bit);
    EXPECT_FALSE(VerifyTreeHead(tampered, key)) << "signature bit " << bit;
  }
}

TEST(TreeHeadSignerTest, WrongKeyOrMalformedInputFails) {
  const auto signer = Ephemeral();
  const auto other = Ephemeral();
  const SignedTreeHead head = signer->Sign(7, kRoot, kTimestamp);
  EXPECT_NE(signer->PublicKeyPem(), other->PublicKeyPem());
  EXPECT_FALSE(VerifyTreeHead(head, other->PublicKeyPem()));
  EXPECT_FALSE(VerifyTreeHead(head, ""));
  EXPECT_FALSE(
      VerifyTreeHead(head, "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"));
  SignedTreeHead short_signature = head;
  short_signature.signature.pop_back();
  EXPECT_FALSE(VerifyTreeHead(short_signature, signer->PublicKeyPem()));
  SignedTreeHead long_signature = head;
  long_signature.signature += '\0';
  EXPECT_FALSE(VerifyTreeHead(long_signature, signer->PublicKeyPem()));
}

TEST(TreeHeadSignerTest, PublicKeyIsSubjectPublicKeyInfoPem) {
  const std::string pem = Ephemeral()->PublicKeyPem();
  EXPECT_EQ(pem.rfind("-----BEGIN PUBLIC KEY-----\n", 0), 0u) << pem;
}

TEST(TreeHeadSignerTest, KeyFileIsCreatedOnceWithModeSixHundredAndReloaded) {
  const TempDir dir;
  const std::string key_path = dir.path() + "/ledger-key.pem";
  Result<std::unique_ptr<TreeHeadSigner>> first = TreeHeadSigner::OpenOrCreate(dir.path());
  ASSERT_TRUE(first) << first.error().message;
  struct stat info {};
  ASSERT_EQ(::stat(key_path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  std::ifstream file(key_path);
  const std::string pem((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  EXPECT_EQ(pem.rfind("-----BEGIN PRIVATE KEY-----\n", 0), 0u);

  Result<std::unique_ptr<TreeHeadSigner>> second = TreeHeadSigner::OpenOrCreate(dir.path());
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ((*second)->PublicKeyPem(), (*first)->PublicKeyPem());
  const SignedTreeHead head = (*first)->Sign(3, kRoot, kTimestamp);
  EXPECT_TRUE(VerifyTreeHead(head, (*second)->PublicKeyPem()));
  EXPECT_EQ((*second)->Sign(3, kRoot, kTimestamp), head);

  // Only the key file is left behind: no temporary files.
  size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST(TreeHeadSignerTest, CreatesMissingDirectory) {
  const TempDir dir;
  const std::string nested = dir.path() + "/data/ledger";
  Result<std::unique_ptr<TreeHeadSigner>> signer = TreeHeadSigner::OpenOrCreate(nested);
  ASSERT_TRUE(signer) << signer.error().message;
  EXPECT_TRUE(fs::exists(nested + "/ledger-key.pem"));
}

TEST(TreeHeadSignerTest, AMissingKeyIsNotCreatedWhenCreatingIsNotAllowed) {
  const TempDir dir;
  Result<std::unique_ptr<TreeHeadSigner>> signer = TreeHeadSigner::OpenOrCreate(dir.path(), false);
  ASSERT_FALSE(signer);
  EXPECT_EQ(signer.error().code, ErrorCode::kCorruption);
  EXPECT_NE(signer.error().message.find(dir.path() + "/ledger-key.pem is missing"),
            std::string::npos)
      << signer.error().message;
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(TreeHeadSignerTest, DamagedKeyFileIsCorruption) {
  const TempDir dir;
  std::ofstream(dir.path() + "/ledger-key.pem") << "not a key";
  Result<std::unique_ptr<TreeHeadSigner>> signer = TreeHeadSigner::OpenOrCreate(dir.path());
  ASSERT_FALSE(signer);
  EXPECT_EQ(signer.error().code, ErrorCode::kCorruption);
}

TEST(TreeHeadSignerTest, UnusableDirectoryIsStorageError) {
  const TempDir dir;
  const std::string file = dir.path() + "/plain-file";
  std::ofstream(file) << "x";
  Result<std::unique_ptr<TreeHeadSigner>> signer = TreeHeadSigner::OpenOrCreate(file);
  ASSERT_FALSE(signer);
  EXPECT_EQ(signer.error().code, ErrorCode::kStorage);
}

TEST(TreeHeadSerializationTest, RoundTrip) {
  const auto signer = Ephemeral();
  for (const int64_t timestamp : {int64_t{0}, kTimestamp, int64_t{-5}}) {
    const SignedTreeHead head = signer->Sign(1234567, kRoot, timestamp);
    const std::string text = SerializeTreeHead(head);
    const Result<SignedTreeHead> parsed = ParseTreeHead(text);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(*parsed, head);
    EXPECT_TRUE(VerifyTreeHead(*parsed, signer->PublicKeyPem()));
  }
  const SignedTreeHead big = signer->Sign(~uint64_t{0}, kRoot, kTimestamp);
  EXPECT_EQ(ParseTreeHead(SerializeTreeHead(big)).value(), big);
}

TEST(TreeHeadSerializationTest, StoredFormIsDocumentedObject) {
  SignedTreeHead head{5, Sha256(""), 1700000000000, std::string(64, '\xff')};
  EXPECT_EQ(
      SerializeTreeHead(head),
      "{\"size\":5,\"root\":\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\","
      "\"timestamp\":1700000000000,\"signature\":\"" +
          std::string(84, '/') + "/w==\"}");
}

TEST(TreeHeadSerializationTest, RejectsMalformedHeads) {
  const auto signer = Ephemeral();
  const std::string good = SerializeTreeHead(signer->Sign(9, kRoot, kTimestamp));
  ASSERT_TRUE(ParseTreeHead(good));
  const std::string root_hex = ToHex(kRoot);
  const std::string signature = good.substr(good.find("\"signature\":\"") + 13, 88);
  auto head = [&](const std::string& size, const std::string& root, const std::string& timestamp,
                  const std::string& sig) {
    return "{\"size\":" + size + ",\"root\":" + root + ",\"timestamp\":" + timestamp +
           ",\"signature\":" + sig + "}";
  };
  const std::string q_root = "\"" + root_hex + "\"";
  const std::string q_sig = "\"" + signature + "\"";
  ASSERT_TRUE(ParseTreeHead(head("9", q_root, "1", q_sig)));
  const std::vector<std::string> bad = {
      "",
      "[]",
      "{}",
      "not json",
      head("-1", q_root, "1", q_sig),
      head("1.5", q_root, "1", q_sig),
      head("\"9\"", q_root, "1", q_sig),
      head("9", "\"" + root_hex.substr(2) + "\"", "1", q_sig),
      head("9", "\"zz" + root_hex.substr(2) + "\"", "1", q_sig),
      head("9", q_root, "18446744073709551615", q_sig),
      head("9", q_root, "1", "\"" + signature.substr(4) + "\""),
      head("9", q_root, "1", "\"" + signature.substr(0, 86) + "!=\""),
      head("9", q_root, "1", "\"" + signature + "AAAA\""),
      head("9", q_root, "1", "\" " + signature + "\""),
      head("9", q_root, "1", q_sig).substr(1),
      "{\"size\":9,\"root\":" + q_root + ",\"timestamp\":1,\"signature\":" + q_sig +
          ",\"extra\":1}",
      "{\"size\":9,\"root\":" + q_root + ",\"timestamp\":1}",
  };
  for (const std::string& text : bad) {
    const Result<SignedTreeHead> parsed = ParseTreeHead(text);
    ASSERT_FALSE(parsed) << text;
    EXPECT_EQ(parsed.error().code, ErrorCode::kCorruption) << text;
  }
}

}  // namespace
}  // namespace esign::eventstore
