// An RFC 3161 time-stamping authority reached over HTTP: the client behind PAdES B-T seals and
// timestamped tree heads.
//
// Timestamp(digest) sends a TimeStampReq (version 1, SHA-256 imprint, a fresh 64-bit nonce,
// certReq true) as an HTTP POST (Content-Type application/timestamp-query) and accepts the answer
// only when it is a TimeStampResp of status granted (or grantedWithMods) whose token verifies
// (base/timestamp_token.h: signature, time-stamping certificate, imprint equal to the digest
// sent) and carries the nonce sent. The answer is read under a size limit and a timeout, and no
// redirect is followed: the authority is treated as hostile input.
// Certificates() is what a document security store needs to validate the tokens later: the
// certificates the authority's tokens carry (learnt from one token over a fixed digest and kept
// once learnt) and the trusted CA's, DER, without duplicates.
// Thread safety: every method may be called from any thread; requests run in parallel.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/sha256.h"
#include "base/timestamp_token.h"
#include "domain/clock.h"
#include "domain/result.h"
#include "eventstore/tree_head.h"
#include "eventstore/tree_head_timestamp.h"

namespace esign::documents {

struct TimestampAuthorityOptions {
  std::string url;      // http:// or https:// URL of the authority; required
  std::string ca_file;  // PEM trust anchor the tokens must chain to; "" = none (see anchored)
  std::chrono::milliseconds timeout{5000};        // each request, connection included
  size_t max_response_bytes = size_t{64} * 1024;  // a larger answer is refused
};

class TimestampAuthority {
 public:
  // kValidationFailed for a URL that is not http(s) or a CA file that cannot be read as PEM.
  static Result<std::unique_ptr<TimestampAuthority>> Create(TimestampAuthorityOptions options);

  // The DER token (a CMS ContentInfo) over `digest`. kUnavailable when the authority cannot be
  // reached, answers something other than a granted TimeStampResp, or a token that fails a check.
  [[nodiscard]] Result<std::string> Timestamp(const Sha256Digest& digest) const;
  // Checks a token over `digest` against the configured trust anchor (kValidationFailed).
  [[nodiscard]] Result<TimestampTokenInfo> Verify(std::string_view token,
                                                  const Sha256Digest& digest) const;
  // kUnavailable while no token could be had yet.
  [[nodiscard]] Result<std::vector<std::string>> Certificates() const;

  const std::string& url() const { return options_.url; }
  const std::string& trusted_ca_pem() const { return trusted_ca_pem_; }

 private:
  TimestampAuthority(TimestampAuthorityOptions options, std::string trusted_ca_pem);

  const TimestampAuthorityOptions options_;
  const std::string trusted_ca_pem_;
  mutable std::mutex mutex_;
  mutable std::optional<std::vector<std::string>> certificates_;  // guarded by mutex_
};

// The ledger's timestamper (eventstore/tree_head_timestamp.h) on `authority` and `clock`, which
// must outlive it: a head the authority gives no token is kept without one, and the failure
// logged. Behind a TimestampBreaker with `breaker`: after repeated failures the authority is not
// asked for a pause (logged when it starts), and the heads signed meanwhile carry no token.
eventstore::TreeHeadTimestamper TreeHeadTimestamperOn(
    const TimestampAuthority& authority, const Clock& clock,
    eventstore::TimestampBreaker::Options breaker = {});

}  // namespace esign::documents
