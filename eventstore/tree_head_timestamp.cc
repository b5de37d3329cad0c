#include "eventstore/tree_head_timestamp.h"

#include "base/base64.h"
#include "base/time_text.h"
#include "base/timestamp_token.h"

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

}  // namespace esign::eventstore
