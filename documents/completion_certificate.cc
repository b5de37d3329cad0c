#include "documents/completion_certificate.h"

#include <boost/json.hpp>

#include "base/base64.h"
#include "base/hex.h"
#include "base/json_read.h"
#include "base/sha256.h"
#include "base/time_text.h"
#include "domain/placed_field_rules.h"
#include "domain/stream_kinds.h"
#include "eventstore/ledger_key.h"

namespace esign::documents {
namespace {

// One event as the certificate reads it, recorded or pending.
struct EventView {
  std::optional<uint64_t> position;
  uint64_t version = 0;
  std::string time;
  std::string type;
  boost::json::object data;
  const eventstore::Actor* actor = nullptr;
};

std::string MethodInWords(std::string_view method) {
  if (method == "signing_link" || method == "none") return "Signing link";
  if (method == "access_code") return "Access code";
  if (method == "email_otp") return "E-mail code";
  if (method == "provider") return "Signing provider";
  return std::string(method);  // an integrator's or provider's own word, printed as given
}

std::string RequiredAuthentication(const Participant& p) {
  if (!p.signs()) return "";
  switch (p.execution_channel.value_or(ExecutionChannel::kPlatformHosted)) {
    case ExecutionChannel::kIntegratorManaged:
      return "By the integrator";
    case ExecutionChannel::kProviderManaged:
      return "By the signing provider";
    case ExecutionChannel::kPlatformHosted:
      break;
  }
  switch (p.authentication) {
    case SignerAuthentication::kNone:
      return "Signing link";
    case SignerAuthentication::kAccessCode:
      return "Signing link and access code";
    case SignerAuthentication::kEmailOtp:
      return "Signing link and e-mail code";
  }
  return "";
}

std::string ChannelInWords(std::string_view channel) {
  if (channel == "platform_hosted") return "hosted signing page";
  if (channel == "integrator_managed") return "integrator's application";
  if (channel == "provider_managed") return "signing provider";
  return std::string(channel);
}

// How the signature was given, from signer.completed's evidence.
std::string SigningMethod(const boost::json::object& evidence) {
  std::string out = MethodInWords(StringMemberOrEmpty(evidence, "authenticationMethod"));
  if (const std::string at = StringMemberOrEmpty(evidence, "authenticatedAt"); !at.empty()) {
    out += ", proven " + CertificateTime(at);
  }
  if (const std::string channel = StringMemberOrEmpty(evidence, "channel"); !channel.empty()) {
    out += (out.empty() ? "" : "; ") + std::string("via the ") + ChannelInWords(channel);
  }
  if (const std::string client = StringMemberOrEmpty(evidence, "reportedBy"); !client.empty()) {
    out += ", reported by client " + client;
  }
  if (const std::string provider = StringMemberOrEmpty(evidence, "providerId"); !provider.empty()) {
    out += " " + provider;
  }
  return out;
}

std::string RoleName(const CertificateSources& sources, const Participant& p) {
  const RoleBinding* binding = sources.state->BindingOf(p.participant_id);
  if (binding == nullptr) return "";
  const RoleDef* role =
      sources.version != nullptr ? sources.version->FindRole(binding->template_role_id) : nullptr;
  if (role != nullptr) return role->name;
  if (sources.state->from_uploads()) {
    // Its implicit roles: "Participant N".
    const TemplateVersion implicit = UploadsTemplateVersion(*sources.state);
    if (const RoleDef* named = implicit.FindRole(binding->template_role_id)) return named->name;
  }
  return binding->template_role_id;
}

std::string OrganizationContact(const ContractState& state, const Participant& p) {
  if (!p.organization_id) return "";
  if (*p.organization_id == state.organization_id && !state.organization_name.empty()) {
    return "Organization " + state.organization_name + " (" + *p.organization_id + ")";
  }
  return "Organization " + *p.organization_id;
}

CertificateParticipant ParticipantEntry(const CertificateSources& sources, const Participant& p) {
  const ContractState& state = *sources.state;
  CertificateParticipant entry{.name = p.name,
                               .contact = p.email ? *p.email : OrganizationContact(state, p),
                               .role = RoleName(sources, p),
                               .required_authentication = RequiredAuthentication(p)};
  switch (p.action) {
    case ParticipantAction::kSign:
      entry.action = "Sign";
      if (p.signed_at) {
        entry.outcome = "Signed";
        entry.when = *p.signed_at;
        entry.signing_method = SigningMethod(p.signing_evidence);
        entry.ip = StringMemberOrEmpty(p.signing_evidence, "ipAddress");
        entry.user_agent = StringMemberOrEmpty(p.signing_evidence, "userAgent");
      } else if (p.declined_at) {
        entry.outcome = "Declined";
        entry.when = *p.declined_at;
      } else {
        entry.outcome = "Not signed";
      }
      break;
    case ParticipantAction::kView:
      entry.action = "View";
      entry.outcome = "Sent for viewing";
      entry.when = state.sent_at.value_or("");
      break;
    case ParticipantAction::kReceiveCopy:
      entry.action = "Receive a copy";
      entry.outcome = "Received a copy";
      entry.when = sources.completed_at;
      break;
  }
  return entry;
}

// The participant an event is about: named in its data, or the participant of its session.
const Participant* Subject(const ContractState& state, const boost::json::object& data) {
  if (const std::string id = StringMemberOrEmpty(data, "participantId"); !id.empty()) {
    return state.FindParticipant(id);
  }
  const SigningSession* session = state.FindSession(StringMemberOrEmpty(data, "sessionId"));
  return session != nullptr ? state.FindParticipant(session->participant_id) : nullptr;
}

std::string Description(std::string_view type, const std::string& who) {
  static constexpr std::pair<std::string_view, std::string_view> kWords[] = {
      {event_type::kContractCreated, "Contract created"},
      {event_type::kDataUpdated, "Contract data updated"},
      {event_type::kTableDataUpdated, "Table data updated"},
      {event_type::kParticipantsReplaced, "Participants replaced"},
      {event_type::kRoleBindingsUpdated, "Roles assigned"},
      {event_type::kContractPrepared, "Document prepared and frozen"},
      {event_type::kContractSent, "Sent for signing"},
      {event_type::kSignerCompleted, "Signed by "},
      {event_type::kSigningInProgress, "Signing in progress"},
      {event_type::kContractCompleted, "Completed: signed document sealed"},
      {event_type::kSignerDeclined, "Declined by "},
      {event_type::kContractDeclined, "Contract declined"},
      {event_type::kEvidencePersisted, "Evidence bundle stored"},
      {event_type::kContractVoided, "Contract voided"},
      {event_type::kContractExpired, "Contract expired"},
      {event_type::kParticipantReminded, "Reminder sent to "},
      {event_type::kSessionCreated, "Signing session opened for "},
      {event_type::kSessionCancelled, "Signing session cancelled for "},
      {event_type::kSessionRefreshed, "Signing link renewed for "},
      {event_type::kSignerCodeSent, "Code mailed to "},
      {event_type::kSignerAuthenticated, "Identity proven by "},
      {event_type::kSignerAttemptFailed, "Wrong code entered for "},
      {event_type::kSignerAuthenticationFailed, "Signing locked after wrong codes for "},
  };
  for (const auto& [known, words] : kWords) {
    if (known != type) continue;
    if (!words.ends_with(' ')) return std::string(words);
    return std::string(words) + (who.empty() ? "a participant" : who);
  }
  return std::string(type);
}

std::string ActorOf(const EventView& event, const Participant* subject) {
  const std::string& client = event.actor->client_id;
  if (client == "system") return "contractd (scheduled)";
  if (event.type.starts_with("signer.") && subject != nullptr) {
    return client.empty() ? subject->name : subject->name + " (reported by client " + client + ")";
  }
  if (!client.empty()) return "Client " + client;
  if (event.data.contains("sessionId")) {
    return subject != nullptr ? subject->name + " (signing link)" : "Signer (signing link)";
  }
  return "contractd";
}

std::string AuthenticationOf(const EventView& event) {
  if (event.type == event_type::kSignerCompleted) {
    const auto* evidence = ObjectMember(event.data, "evidence");
    if (evidence != nullptr) {
      if (const std::string method = StringMemberOrEmpty(*evidence, "authenticationMethod");
          !method.empty()) {
        return MethodInWords(method);
      }
    }
  }
  if (const std::string method = StringMemberOrEmpty(event.data, "method"); !method.empty()) {
    return MethodInWords(method);
  }
  const std::string& client = event.actor->client_id;
  if (client == "system") return "None (the service itself)";
  if (!client.empty()) return "API client credentials";
  if (event.data.contains("sessionId")) return "Signing link";
  return "None (the service itself)";
}

// A value as the certificate shows it: a checkbox in words, an attached file by its name, type,
// size and SHA-256 (the file itself is embedded in the sealed PDF).
std::string EntryValue(const boost::json::value& value) {
  if (value.is_bool()) return value.get_bool() ? "Ticked" : "Not ticked";
  if (value.is_string()) return std::string(value.get_string());
  if (const auto* file = value.if_object(); file != nullptr && file->contains("sha256")) {
    const auto size = IntegerMember(*file, "size").value_or(0);
    return StringMemberOrEmpty(*file, "name") + " (" + StringMemberOrEmpty(*file, "mediaType") +
           ", " + std::to_string(size) + " bytes), attached to this PDF\nSHA-256 " +
           StringMemberOrEmpty(*file, "sha256");
  }
  return boost::json::serialize(value);
}

// Why a reminder was not mailed to its signer, in words; empty when it was.
std::string ReminderNotMailed(const Participant& p) {
  switch (p.execution_channel.value_or(ExecutionChannel::kPlatformHosted)) {
    case ExecutionChannel::kIntegratorManaged:
      return "signing hosted by the integrator";
    case ExecutionChannel::kProviderManaged:
      return "signing by the signing provider";
    case ExecutionChannel::kPlatformHosted:
      break;
  }
  return p.email ? "" : "no e-mail address";
}

CertificateEvent EventEntry(const ContractState& state, const EventView& event) {
  const Participant* subject = Subject(state, event.data);
  std::string description = Description(event.type, subject != nullptr ? subject->name : "");
  // The service mails reminders to hosted signers only: for anyone else one fell due, nothing
  // was sent (the integrator hears of it by webhook).
  if (event.type == event_type::kParticipantReminded && subject != nullptr) {
    if (const std::string why = ReminderNotMailed(*subject); !why.empty()) {
      description = "Reminder due for " + subject->name + " (" + why + ")";
    }
  }
  CertificateEvent entry{.position = event.position,
                         .stream_version = event.version,
                         .time = event.time,
                         .type = event.type,
                         .description = std::move(description),
                         .actor = ActorOf(event, subject),
                         .authentication = AuthenticationOf(event)};
  // An event the service appends on its own, even while answering someone's request, was not
  // that person's doing: their address and browser are shown on their own events only.
  if (!entry.actor.starts_with("contractd")) {
    entry.ip = event.actor->ip;
    entry.user_agent = event.actor->user_agent;
  }
  return entry;
}

boost::json::object DataOf(const eventstore::EventRecord& record) {
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(record.data, ec);
  return !ec && value.is_object() ? std::move(value.as_object()) : boost::json::object{};
}

}  // namespace

std::string CertificateTime(std::string_view rfc3339) {
  static constexpr std::string_view kPattern = "dddd-dd-ddTdd:dd:dd";
  bool utc = rfc3339.size() > kPattern.size() &&
             (rfc3339.back() == 'Z' || rfc3339.back() == 'z' || rfc3339.ends_with("+00:00"));
  for (size_t i = 0; utc && i < kPattern.size(); ++i) {
    utc = kPattern[i] == 'd' ? (rfc3339[i] >= '0' && rfc3339[i] <= '9')
                             : (rfc3339[i] == kPattern[i] || (i == 10 && rfc3339[i] == 't'));
  }
  if (!utc) return std::string(rfc3339);
  return std::string(rfc3339.substr(0, 10)) + " " + std::string(rfc3339.substr(11, 8)) + " UTC";
}

std::string KeyFingerprint(std::string_view public_key_pem) {
  return eventstore::PublicKeyFingerprint(public_key_pem);
}

CompletionCertificate BuildCompletionCertificate(const CertificateSources& sources) {
  const ContractState& state = *sources.state;
  CompletionCertificate certificate{
      .contract_id = state.id,
      .title = state.title,
      .organization_id = state.organization_id,
      .organization_name = state.organization_name,
      .template_name = state.template_id.empty()
                           ? std::string()
                           : (sources.tmpl != nullptr ? sources.tmpl->name + " " : std::string()) +
                                 "(" + state.template_version_id + ")",
      .sent_at = state.sent_at.value_or(""),
      .completed_at = sources.completed_at,
      .unsigned_sha256 = state.rendered_document_sha256.value_or(""),
      .stream_id = ContractStreamId(state.id)};
  for (size_t i = 0; i < state.documents.size(); ++i) {
    const ContractDocument& document = state.documents[i];
    const int64_t first = ComposedPage(state.documents, i, 1);
    certificate.documents.push_back(
        {.name = document.name,
         .upload_sha256 = document.upload_sha256,
         .cleaned_sha256 = document.sha256,
         .first_page = first,
         .last_page = first + static_cast<int64_t>(document.pages.size()) - 1});
  }
  for (const auto& p : state.participants) {
    certificate.participants.push_back(ParticipantEntry(sources, p));
  }
  for (const PlacedField& field : state.fields) {
    if (!field.filled_by_signer() || field.value.is_null()) continue;
    const Participant* signer = state.FindParticipant(field.participant_id);
    certificate.entries.push_back(
        {.field = (field.name.empty() ? std::string(ToString(field.type)) : field.name) + " (" +
                  field.field_id + ")",
         .signer = signer != nullptr ? signer->name : field.participant_id,
         .page = ComposedPage(state.documents, static_cast<size_t>(field.document_index),
                              field.box.page),
         .value = EntryValue(field.value)});
  }
  for (const auto& record : sources.recorded) {
    certificate.events.push_back(EventEntry(state, {.position = record.position.value(),
                                                    .version = record.version.value(),
                                                    .time = FormatTimestamp(record.recorded_at_us),
                                                    .type = record.type,
                                                    .data = DataOf(record),
                                                    .actor = &record.actor}));
  }
  const auto pending = [&](const DomainEvent& event) {
    certificate.events.push_back(EventEntry(state, {.time = sources.completed_at,
                                                    .type = event.type,
                                                    .data = event.data,
                                                    .actor = &sources.pending_actor}));
  };
  for (const auto& event : sources.pending) pending(event);
  pending({std::string(event_type::kContractCompleted), {{"contractId", state.id}}});
  if (sources.tree_head) {
    certificate.tree_head =
        CertificateTreeHead{.size = sources.tree_head->size,
                            .root_hex = ToHex(std::span<const uint8_t>(sources.tree_head->root)),
                            .time = FormatTimestamp(sources.tree_head->timestamp_ms * 1000),
                            .key_fingerprint = KeyFingerprint(sources.ledger_public_key_pem)};
  }
  return certificate;
}

}  // namespace esign::documents
