#include "eventstore/tree_head.h"

#include "base/base64.h"
#include "base/hex.h"
#include "base/json_read.h"
#include "eventstore/openssl_ptr.h"
#include "eventstore/secret_file.h"

#include <fcntl.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace esign::eventstore {
namespace {

namespace json = boost::json;

constexpr uint8_t kTreeHeadVersion = 0x01;
constexpr size_t kSignatureSize = 64;
constexpr const char* kKeyFileName = "ledger-key.pem";

void AppendBigEndian(std::string& out, uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8) out += static_cast<char>(value >> shift);
}

BioPtr MemoryBio(std::string_view bytes) {
  return BioPtr(BIO_new_mem_buf(bytes.data(), static_cast<int>(bytes.size())));
}

std::string BioContents(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return size > 0 ? std::string(data, static_cast<size_t>(size)) : std::string();
}

bool IsEd25519(const EVP_PKEY* pkey) { return EVP_PKEY_is_a(pkey, "ED25519") == 1; }

Result<PkeyPtr> GenerateKey() {
  PkeyPtr pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"));
  if (pkey == nullptr) return Fail(ErrorCode::kInternal, "cannot generate an Ed25519 key");
  return pkey;
}

Result<PkeyPtr> PrivateKeyFromPem(std::string_view pem, const std::string& origin) {
  const BioPtr bio = MemoryBio(pem);
  PkeyPtr pkey(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
  if (pkey == nullptr || !IsEd25519(pkey.get())) {
    ERR_clear_error();
    return Fail(ErrorCode::kCorruption, origin + " does not hold an Ed25519 private key");
  }
  return pkey;
}

Result<std::string> PrivateKeyPem(EVP_PKEY* pkey) {
  const BioPtr bio(BIO_new(BIO_s_mem()));
  if (bio == nullptr ||
      PEM_write_bio_PrivateKey(bio.get(), pkey, nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    return Fail(ErrorCode::kInternal, "cannot encode the ledger key");
  }
  return BioContents(bio.get());
}

// nullopt when the file does not exist.
// Signing with a valid Ed25519 key fails only when OpenSSL cannot allocate. A head with a missing
// signature would be stored and served as evidence, so stopping is the only safe answer.
[[noreturn]] void SigningFailed() {
  std::fputs("fatal: Ed25519 signing of a tree head failed in OpenSSL\n", stderr);
  std::abort();
}

}  // namespace

std::string TreeHeadMessage(uint64_t size, const Hash& root, int64_t timestamp_ms) {
  std::string message;
  message.reserve(1 + 8 + 8 + root.size());
  message += static_cast<char>(kTreeHeadVersion);
  AppendBigEndian(message, static_cast<uint64_t>(timestamp_ms));
  AppendBigEndian(message, size);
  message.append(reinterpret_cast<const char*>(root.data()), root.size());
  return message;
}

std::string SerializeTreeHead(const SignedTreeHead& head) {
  std::string out = "{\"size\":";
  out += std::to_string(head.size);
  out += ",\"root\":\"";
  out += ToHex(head.root);
  out += "\",\"timestamp\":";
  out += std::to_string(head.timestamp_ms);
  out += ",\"signature\":\"";
  out += Base64Encode(head.signature);
  out += "\"}";
  return out;
}

namespace {

Result<SignedTreeHead> TreeHeadFromObject(const json::object& object) {
  if (object.size() != 4) {
    return Fail(ErrorCode::kCorruption, "tree head: not an object of four members");
  }
  const std::optional<uint64_t> size = UnsignedMember(object, "size");
  const std::optional<std::string_view> root_hex = StringMember(object, "root");
  const std::optional<int64_t> timestamp = IntegerMember(object, "timestamp");
  const std::optional<std::string_view> signature_base64 = StringMember(object, "signature");
  if (!size || !root_hex || !timestamp || !signature_base64) {
    return Fail(ErrorCode::kCorruption, "tree head: missing or mistyped member");
  }
  const std::optional<Hash> root = Sha256FromHex(*root_hex);
  if (!root) return Fail(ErrorCode::kCorruption, "tree head: root is not 64 hex digits");
  std::optional<std::string> signature = Base64Decode(*signature_base64);
  if (!signature || signature->size() != kSignatureSize) {
    return Fail(ErrorCode::kCorruption, "tree head: signature is not 64 bytes of base64");
  }
  return SignedTreeHead{*size, *root, *timestamp, std::move(*signature), ""};
}

Result<json::object> ParseHeadObject(std::string_view text) {
  boost::system::error_code ec;
  json::value parsed = json::parse(json::string_view(text.data(), text.size()), ec);
  if (ec || !parsed.is_object()) {
    return Fail(ErrorCode::kCorruption, "tree head: not an object of four members");
  }
  return std::move(parsed.get_object());
}

}  // namespace

Result<SignedTreeHead> ParseTreeHead(std::string_view text) {
  Result<json::object> object = ParseHeadObject(text);
  if (!object) return Fail(object.error());
  return TreeHeadFromObject(*object);
}

std::string SerializeStoredTreeHead(const SignedTreeHead& head) {
  std::string out = SerializeTreeHead(head);
  if (head.timestamp_token.empty()) return out;
  out.pop_back();
  return out + ",\"timestampToken\":\"" + Base64Encode(head.timestamp_token) + "\"}";
}

Result<SignedTreeHead> ParseStoredTreeHead(std::string_view text) {
  Result<json::object> object = ParseHeadObject(text);
  if (!object) return Fail(object.error());
  std::string token;
  if (const json::value* member = object->if_contains("timestampToken")) {
    std::optional<std::string> decoded =
        member->is_string() ? Base64Decode(member->get_string()) : std::nullopt;
    if (!decoded || decoded->empty()) {
      return Fail(ErrorCode::kCorruption, "tree head: timestampToken is not base64");
    }
    token = std::move(*decoded);
    object->erase("timestampToken");
  }
  Result<SignedTreeHead> head = TreeHeadFromObject(*object);
  if (head) head->timestamp_token = std::move(token);
  return head;
}

TreeHeadSigner::TreeHeadSigner(void* pkey) : pkey_(pkey) {}

TreeHeadSigner::~TreeHeadSigner() { EVP_PKEY_free(static_cast<EVP_PKEY*>(pkey_)); }

Result<std::unique_ptr<TreeHeadSigner>> TreeHeadSigner::OpenOrCreate(const std::string& dir,
                                                                     bool may_create) {
  std::error_code fs_error;
  std::filesystem::create_directories(dir, fs_error);
  if (fs_error) {
    return Fail(ErrorCode::kStorage, "cannot create " + dir + ": " + fs_error.message());
  }
  const std::string path = dir + "/" + kKeyFileName;
  // Two rounds at most: a second only when another process installed a key between our look
  // and our link.
  for (int attempt = 0; attempt < 2; ++attempt) {
    Result<std::optional<std::string>> existing = ReadFileIfPresent(path);
    if (!existing) return Fail(std::move(existing.error()));
    if (existing->has_value()) {
      Result<PkeyPtr> pkey = PrivateKeyFromPem(**existing, path);
      if (!pkey) return Fail(std::move(pkey.error()));
      return std::unique_ptr<TreeHeadSigner>(new TreeHeadSigner(pkey->release()));
    }
    if (!may_create) {
      return Fail(ErrorCode::kCorruption,
                  path + " is missing but the log already holds events or signed tree heads");
    }
    Result<PkeyPtr> pkey = GenerateKey();
    if (!pkey) return Fail(std::move(pkey.error()));
    Result<std::string> pem = PrivateKeyPem(pkey->get());
    if (!pem) return Fail(std::move(pem.error()));
    Result<bool> installed = PublishSecretFile(dir, kKeyFileName, *pem);
    if (!installed) return Fail(std::move(installed.error()));
    if (*installed) return std::unique_ptr<TreeHeadSigner>(new TreeHeadSigner(pkey->release()));
  }
  return Fail(ErrorCode::kStorage, "cannot settle on a ledger key in " + dir);
}

Result<std::unique_ptr<TreeHeadSigner>> TreeHeadSigner::CreateEphemeral() {
  Result<PkeyPtr> pkey = GenerateKey();
  if (!pkey) return Fail(std::move(pkey.error()));
  return std::unique_ptr<TreeHeadSigner>(new TreeHeadSigner(pkey->release()));
}

SignedTreeHead TreeHeadSigner::Sign(uint64_t size, const Hash& root, int64_t timestamp_ms) const {
  const std::string message = TreeHeadMessage(size, root, timestamp_ms);
  SignedTreeHead head{size, root, timestamp_ms, std::string(kSignatureSize, '\0')};
  size_t signature_size = head.signature.size();
  const MdCtxPtr ctx(EVP_MD_CTX_new());
  if (ctx == nullptr ||
      EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, static_cast<EVP_PKEY*>(pkey_)) !=
          1 ||
      EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(head.signature.data()),
                     &signature_size, reinterpret_cast<const unsigned char*>(message.data()),
                     message.size()) != 1 ||
      signature_size != kSignatureSize) {
    SigningFailed();
  }
  return head;
}

std::string TreeHeadSigner::PublicKeyPem() const {
  const BioPtr bio(BIO_new(BIO_s_mem()));
  if (bio == nullptr || PEM_write_bio_PUBKEY(bio.get(), static_cast<EVP_PKEY*>(pkey_)) != 1) {
    ERR_clear_error();
    return {};  // an empty key verifies nothing, so the failure cannot pass for a key
  }
  return BioContents(bio.get());
}

std::optional<std::string> CanonicalPublicKeyPem(std::string_view pem) {
  const BioPtr in = MemoryBio(pem);
  if (in == nullptr) return std::nullopt;
  const PkeyPtr pkey(PEM_read_bio_PUBKEY(in.get(), nullptr, nullptr, nullptr));
  const BioPtr out(BIO_new(BIO_s_mem()));
  if (pkey == nullptr || out == nullptr || PEM_write_bio_PUBKEY(out.get(), pkey.get()) != 1) {
    ERR_clear_error();
    return std::nullopt;
  }
  return BioContents(out.get());
}

namespace {

bool VerifySignature(const SignedTreeHead& head, std::string_view public_key_pem) {
  if (head.signature.size() != kSignatureSize) return false;
  const BioPtr bio = MemoryBio(public_key_pem);
  if (bio == nullptr) return false;
  const PkeyPtr pkey(PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr));
  if (pkey == nullptr || !IsEd25519(pkey.get())) return false;
  const MdCtxPtr ctx(EVP_MD_CTX_new());
  if (ctx == nullptr ||
      EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, pkey.get()) != 1) {
    return false;
  }
  const std::string message = TreeHeadMessage(head.size, head.root, head.timestamp_ms);
  return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(head.signature.data()),
                          head.signature.size(),
                          reinterpret_cast<const unsigned char*>(message.data()),
                          message.size()) == 1;
}

}  // namespace

bool VerifyTreeHead(const SignedTreeHead& head, std::string_view public_key_pem) {
  const bool valid = VerifySignature(head, public_key_pem);
  // Failures leave entries on the thread's OpenSSL error queue, where a later TLS call on the
  // same thread would find and misreport them.
  if (!valid) ERR_clear_error();
  return valid;
}

}  // namespace esign::eventstore
