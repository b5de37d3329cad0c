#include "projections/audit_entry.h"

#include <string_view>

#include "base/hex.h"
#include "base/sha256.h"
#include "base/time_text.h"
#include "eventstore/merkle.h"

namespace esign::projections {
namespace {

// Members of event data that an audit trail shows beside the envelope: who the event concerns,
// the hashes of the documents it fixed, and how a contract ended without signatures or reminded
// (who voided it and when, the deadline that passed, which reminder and why), and how a hosted
// signer proved who they are (the session, the method, which code, which try and why it failed;
// never a code). Signer evidence is copied whole (it is the record of how the signature was
// given).
constexpr std::string_view kAuditDetails[] = {"participantId",   "templateRoleId",
                                              "reason",          "renderedDocumentSha256",
                                              "signedPdfSha256", "signedContentSha256",
                                              "revision",        "sha256",
                                              "evidence",        "voidedBy",
                                              "voidedAt",        "expiresAt",
                                              "expiredAt",       "reminderNumber",
                                              "trigger",         "channel",
                                              "sessionId",       "method",
                                              "codeNumber",      "issue",
                                              "failedAttempts",  "authenticationNumber"};

// Long strings (a signature image, say) become "sha256:<hex>": the trail stays small and still
// pins the content, which the log holds in full.
boost::json::value Abridged(const boost::json::value& value) {
  constexpr size_t kMaxInlineString = 1024;
  if (value.is_string() && value.get_string().size() > kMaxInlineString) {
    const boost::json::string& text = value.get_string();
    return boost::json::value("sha256:" + Sha256Hex(std::string_view(text.data(), text.size())));
  }
  if (value.is_object()) {
    boost::json::object out;
    for (const auto& [key, member] : value.get_object()) out[key] = Abridged(member);
    return out;
  }
  if (value.is_array()) {
    boost::json::array out;
    for (const auto& element : value.get_array()) out.push_back(Abridged(element));
    return out;
  }
  return value;
}

}  // namespace

boost::json::object AuditEntryOf(const eventstore::EventRecord& record,
                                 const boost::json::object& data) {
  boost::json::object out;
  out["position"] = record.position.value();
  out["eventId"] = record.event_id;
  out["type"] = record.type;
  out["recordedAt"] = FormatTimestamp(record.recorded_at_us);
  out["actor"] = boost::json::object{{"clientId", record.actor.client_id},
                                     {"organizationId", record.actor.organization_id},
                                     {"requestId", record.actor.request_id},
                                     {"ip", record.actor.ip},
                                     {"userAgent", record.actor.user_agent}};
  out["streamVersion"] = record.version.value();
  out["leafHash"] = ToHex(eventstore::LeafHash(eventstore::CanonicalBytes(record)));
  boost::json::object details;
  for (const std::string_view key : kAuditDetails) {
    if (const boost::json::value* value = data.if_contains(key)) details[key] = Abridged(*value);
  }
  // What a signer filled in, with the signature (contract.created's fieldValues are a template's
  // data, which the trail leaves to the contract itself).
  if (record.type == "signer.completed") {
    if (const boost::json::value* values = data.if_contains("fieldValues")) {
      details["fieldValues"] = Abridged(*values);
    }
  }
  if (!details.empty()) out["details"] = std::move(details);
  return out;
}

}  // namespace esign::projections
