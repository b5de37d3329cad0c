#include "eventstore/tree_head_timestamp.h"

#include "base/base64.h"
#include "base/time_text.h"
#include "base/timestamp_token.h"

#include <utility>

namespace esign::eventstore {

Sha256Digest TreeHeadTimestampDigest(const SignedTreeHead& head) {
  return Sha256Concat({TreeHeadMessage(head.size, head.root, head.timestamp_ms), head.signature});
}

void AddTreeHeadTimestamp(const SignedTreeHead& head, boost::json::object& bundle) {
  if (!head.timestamp_token.empty()) {
    bundle[kTreeHeadTimestampMember] = Base64Encode(head.timestamp_token);
  }
}

BundleCheck CheckTreeHeadTimestamp(const boost::json::value& member, const SignedTreeHead* head,
                                   std::string_view trusted_ca_pem) {
  BundleCheck check{.name = "treeHead.timestamp"};
  const std::optional<std::string> token =
      member.is_string() ? Base64Decode(member.get_string()) : std::nullopt;
  if (!token || token->empty()) {
    check.detail = std::string(kTreeHeadTimestampMember) + " is not base64";
  } else if (head == nullptr) {
    check.detail = "no valid tree head to hold the timestamp against";
  } else if (auto info =
                 VerifyTimestampToken(*token, TreeHeadTimestampDigest(*head), trusted_ca_pem);
             !info) {
    check.detail = info.error();
  } else {
    check.ok = true;
    check.detail = "tree head of size " + std::to_string(head->size) + " existed at " +
                   FormatTimestamp(info->gen_time_micros) + " (" + info->tsa_subject +
                   (info->anchored ? ", anchored to the trusted CA)" : ")");
  }
  return check;
}

TimestampBreaker::TimestampBreaker(const Clock& clock, Options options)
    : clock_(clock), options_(options) {}

bool TimestampBreaker::Allow() {
  std::lock_guard lock(mutex_);
  if (open_until_us_ == 0) return true;
  if (trial_ || clock_.NowMicros() < open_until_us_) return false;
  trial_ = true;
  return true;
}

bool TimestampBreaker::Record(bool succeeded) {
  std::lock_guard lock(mutex_);
  const bool trial = std::exchange(trial_, false);
  if (succeeded) {
    failures_ = 0;
    open_until_us_ = 0;
    return false;
  }
  ++failures_;
  if (!trial && (open_until_us_ != 0 || failures_ < options_.failures_to_open)) return false;
  open_until_us_ = clock_.NowMicros() +
                   std::chrono::duration_cast<std::chrono::microseconds>(options_.pause).count();
  return true;
}

}  // namespace esign::eventstore
