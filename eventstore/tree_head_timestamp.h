// Timestamped signed tree heads (after RFC 4998's evidence records: one timestamp over a head
// vouches for the time of every event beneath it). The token is an RFC 3161 token over
// TreeHeadTimestampDigest(head): SHA-256 of the head's signed message (TreeHeadMessage: version,
// timestamp, size, root) followed by its 64-byte signature, so it binds everything the head says.
// A proof bundle carries it as "treeHeadTimestamp" (base64 DER) when its head has one, and
// CheckTreeHeadTimestamp is the check "treeHead.timestamp" of VerifyProofBundle.
// TimestampBreaker decides when the authority is not asked at all (see below).
// Thread safety: the functions are pure; TimestampBreaker may be used from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

#include <boost/json.hpp>

#include "domain/clock.h"

#include "base/sha256.h"
#include "eventstore/proof_bundle.h"
#include "eventstore/tree_head.h"

namespace esign::eventstore {

inline constexpr std::string_view kTreeHeadTimestampMember = "treeHeadTimestamp";

Sha256Digest TreeHeadTimestampDigest(const SignedTreeHead& head);

// Adds "treeHeadTimestamp" to `bundle` when `head` has a token; nothing otherwise.
void AddTreeHeadTimestamp(const SignedTreeHead& head, boost::json::object& bundle);

// The check of a bundle's "treeHeadTimestamp" member against its head (nullptr when the head
// failed its own check): base64 of a token that verifies (base/timestamp_token.h) over that head,
// its signer chaining to `trusted_ca_pem` when given (else to the certificates it carries). The
// detail names the time and the authority, and whether it was anchored to the trusted CA.
BundleCheck CheckTreeHeadTimestamp(const boost::json::value& member, const SignedTreeHead* head,
                                   std::string_view trusted_ca_pem = {});

// Stops asking a failing timestamp authority for a while (docs/eventstore.md, "Timestamped
// heads"). Closed, every head may ask. `failures_to_open` failures in a row open it: for `pause`
// nobody asks, and the heads signed meanwhile carry no timestamp. When the pause has passed, one
// head asks again (half-open; the others signed while it waits do not): success closes the
// breaker, failure opens it for another pause.
class TimestampBreaker {
 public:
  struct Options {
    int failures_to_open = 3;
    std::chrono::seconds pause{60};
  };
  TimestampBreaker(const Clock& clock, Options options);

  // Whether the caller may ask the authority now; a caller let through must Record the outcome.
  bool Allow();
  // The outcome of an asking that Allow let through. True when this failure opened the breaker.
  bool Record(bool succeeded);
  const Options& options() const { return options_; }

 private:
  const Clock& clock_;
  const Options options_;
  std::mutex mutex_;
  int failures_ = 0;           // in a row; guarded by mutex_
  int64_t open_until_us_ = 0;  // 0 when closed; guarded by mutex_
  bool trial_ = false;         // the one half-open asking is out; guarded by mutex_
};

}  // namespace esign::eventstore
