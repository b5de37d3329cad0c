// Signed tree heads: the service's Ed25519 signature over (size, root, timestamp).
//
// Signed message (big-endian, 49 bytes): version byte 0x01 || timestamp_ms (u64) || size (u64) ||
// root (32 bytes). Keys are PEM files (PKCS#8 private, SubjectPublicKeyInfo public).
// Thread safety: TreeHeadSigner is immutable after creation and safe to share.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "domain/result.h"
#include "eventstore/merkle.h"

namespace esign::eventstore {

struct SignedTreeHead {
  uint64_t size = 0;
  Hash root{};
  int64_t timestamp_ms = 0;
  std::string signature;  // 64 raw bytes
  // An RFC 3161 token over the head (tree_head_timestamp.h), DER; "" when none. Not signed by
  // the ledger key and not part of the serialized head: it vouches for the head from outside.
  std::string timestamp_token;
  friend bool operator==(const SignedTreeHead&, const SignedTreeHead&) = default;
};

std::string TreeHeadMessage(uint64_t size, const Hash& root, int64_t timestamp_ms);

// Stored form, also used in exports and evidence: a JSON object
// {"size":n,"root":"<hex>","timestamp":ms,"signature":"<base64>"}.
std::string SerializeTreeHead(const SignedTreeHead& head);
Result<SignedTreeHead> ParseTreeHead(std::string_view json);
// The form a TreeHeadLog stores: the serialized head, with a fifth member "timestampToken"
// (base64 DER) when the head has one. ParseStoredTreeHead reads both forms.
std::string SerializeStoredTreeHead(const SignedTreeHead& head);
Result<SignedTreeHead> ParseStoredTreeHead(std::string_view json);

// Asks an outside authority to timestamp a freshly signed head: its token, or "" when none could
// be had (the head is kept without one). Set by the application: the event store does no network
// I/O of its own.
using TreeHeadTimestamper = std::function<std::string(const SignedTreeHead&)>;

class TreeHeadSigner {
 public:
  ~TreeHeadSigner();
  TreeHeadSigner(const TreeHeadSigner&) = delete;  // owns the key
  TreeHeadSigner& operator=(const TreeHeadSigner&) = delete;
  // Loads "<dir>/ledger-key.pem", creating it (mode 0600) with a fresh Ed25519 key when absent
  // and `may_create`; otherwise a missing key is kCorruption (naming the file).
  static Result<std::unique_ptr<TreeHeadSigner>> OpenOrCreate(const std::string& dir,
                                                              bool may_create = true);
  // A fresh key held only in memory (tests, in-memory store).
  static Result<std::unique_ptr<TreeHeadSigner>> CreateEphemeral();

  SignedTreeHead Sign(uint64_t size, const Hash& root, int64_t timestamp_ms) const;
  std::string PublicKeyPem() const;

 private:
  explicit TreeHeadSigner(void* pkey);
  void* pkey_;  // EVP_PKEY*, kept opaque so callers need no OpenSSL headers
};

// The PEM text the service itself writes for the key in `pem`, or nothing when `pem` holds no
// public key. PEM readers ignore the unused low bits of the last base64 group, so two texts can
// carry one key; comparing with this form makes every changed character count.
std::optional<std::string> CanonicalPublicKeyPem(std::string_view pem);

// Checks a head's signature with a PEM public key; false on any failure.
bool VerifyTreeHead(const SignedTreeHead& head, std::string_view public_key_pem);

}  // namespace esign::eventstore
