// Proof bundles: a stream's events with, for each, its RFC 9162 inclusion proof against one signed
// tree head, the head itself and the ledger's public key. Whoever holds a bundle and trusts the
// key can check, offline and without the store, that exactly these bytes were in the log.
//
// Format (a JSON object; version "esign-proof-bundle/1"):
//   {"format":"esign-proof-bundle/1",
//    "streamId":"<stream>",
//    "publicKeyPem":"<SubjectPublicKeyInfo PEM>",
//    "treeHead":{"size":n,"root":"<hex>","timestamp":ms,"signature":"<base64>"},
//    "treeHeadTimestamp":"<base64 RFC 3161 token>" (only when the head was timestamped:
//                        tree_head_timestamp.h),
//    "events":[{"position":p,"version":v,"record":"<canonical record bytes>",
//               "leafHash":"<hex>","inclusionProof":["<hex>",...]},...]}
// "record" holds the stored bytes exactly (they are UTF-8 JSON text), so the leaf hash is
// SHA-256(0x00 || record) over the string's bytes. Events are in stream order, versions 1..n.
//
// Thread safety: pure functions; BuildProofBundle reads the store, which may be appended to
// meanwhile (the bundle then covers the events up to the newest head that covered them).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "domain/result.h"
#include "eventstore/event_store.h"

namespace esign::eventstore {

inline constexpr std::string_view kProofBundleFormat = "esign-proof-bundle/1";

// The bundle of every event of `stream_id`, proven against the newest stored head that covers
// them all. It signs nothing: kNotFound when the stream has no events or no stored head covers
// its last event (the service signs heads as it runs; an offline reader must not).
Result<boost::json::object> BuildProofBundle(const EventStore& store, std::string_view stream_id);

struct BundleCheck {
  std::string name;  // e.g. "treeHead.signature", "events[2].inclusionProof"
  bool ok = false;
  std::string detail;  // why it failed, or what it covered
};

struct BundleReport {
  std::vector<BundleCheck> checks;  // every check, in the order made
  bool ok() const;
  // The first failed check; nullptr when all passed.
  const BundleCheck* first_failure() const;
};

// The detail of the check "publicKey" when no trusted key was given: it then passes with the key
// the bundle carries, which proves only that the bundle is consistent, not who signed it.
inline constexpr std::string_view kOwnKeyDetail =
    "the bundle's own key, not checked against a trusted key";

// Checks a bundle: its format, the key (when `trusted_public_key_pem` is given, the bundle's key
// must be the same), the head's signature, and for every event that its record is a record of
// that stream, position and version, that its leaf hash is the hash of its bytes and that its
// inclusion proof leads to the head's root. Every finding is a check in the report; an Error only
// when `bundle` is not a JSON object at all.
// `trusted_tsa_ca_pem` (optional): the CA the tree head's timestamp must chain to.
Result<BundleReport> VerifyProofBundle(const boost::json::value& bundle,
                                       std::string_view trusted_public_key_pem = {},
                                       std::string_view trusted_tsa_ca_pem = {});

}  // namespace esign::eventstore
