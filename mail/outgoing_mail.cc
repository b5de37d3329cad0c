#include "mail/outgoing_mail.h"

#include <algorithm>
#include <array>
#include <boost/json.hpp>

#include "base/json_read.h"
#include "base/sha256.h"
#include "domain/json_parse.h"
#include "domain/text_formats.h"

namespace esign::mail {
namespace {

constexpr std::array kKinds = {
    MailKind::kSigningRequest,    MailKind::kReminder,           MailKind::kSignerCompleted,
    MailKind::kContractCompleted, MailKind::kContractDeclined,   MailKind::kContractVoided,
    MailKind::kContractExpired,   MailKind::kAuthenticationCode,
};

}  // namespace

std::optional<MailKind> MailKindNamed(std::string_view name) {
  for (MailKind kind : kKinds) {
    if (ToString(kind) == name) return kind;
  }
  return std::nullopt;
}

std::string OutgoingMailToJson(const OutgoingMail& mail) {
  return boost::json::serialize(boost::json::object{
      {"kind", ToString(mail.kind)},
      {"to", mail.to},
      {"toName", mail.to_name},
      {"participantId", mail.participant_id},
      {"title", mail.title},
      {"organizationName", mail.organization_name},
      {"subject", mail.subject},
      {"message", mail.message},
      {"reason", mail.reason},
      {"signerName", mail.signer_name},
      {"signerEmail", mail.signer_email},
      {"mailedLink", mail.mailed_link},
      {"expiresAt", mail.expires_at},
      {"signedPdfKey", mail.signed_pdf_key},
      {"sessionId", mail.session_id},
      {"codeNumber", mail.code_number},
      {"accentColor", mail.accent_color},
      {"logoSha256", mail.logo_sha256},
  });
}

Result<OutgoingMail> ParseOutgoingMail(std::string_view json) {
  auto parsed = ParseJson(json);
  if (!parsed || !parsed->is_object()) return Fail(ErrorCode::kCorruption, "mail record");
  const boost::json::object& o = parsed->as_object();
  const std::optional<MailKind> kind = MailKindNamed(StringMemberOrEmpty(o, "kind"));
  if (!kind) return Fail(ErrorCode::kCorruption, "mail record: kind");
  const auto* number = o.if_contains("codeNumber");
  const auto* mailed_link = o.if_contains("mailedLink");
  return OutgoingMail{
      .kind = *kind,
      .to = StringMemberOrEmpty(o, "to"),
      .to_name = StringMemberOrEmpty(o, "toName"),
      .participant_id = StringMemberOrEmpty(o, "participantId"),
      .title = StringMemberOrEmpty(o, "title"),
      .organization_name = StringMemberOrEmpty(o, "organizationName"),
      .subject = StringMemberOrEmpty(o, "subject"),
      .message = StringMemberOrEmpty(o, "message"),
      .reason = StringMemberOrEmpty(o, "reason"),
      .signer_name = StringMemberOrEmpty(o, "signerName"),
      .signer_email = StringMemberOrEmpty(o, "signerEmail"),
      .mailed_link = mailed_link != nullptr && mailed_link->is_bool() && mailed_link->get_bool(),
      .expires_at = StringMemberOrEmpty(o, "expiresAt"),
      .signed_pdf_key = StringMemberOrEmpty(o, "signedPdfKey"),
      .session_id = StringMemberOrEmpty(o, "sessionId"),
      .code_number =
          number != nullptr && number->is_int64() ? static_cast<int>(number->get_int64()) : 0,
      .accent_color = StringMemberOrEmpty(o, "accentColor"),
      .logo_sha256 = StringMemberOrEmpty(o, "logoSha256"),
  };
}

std::string MailDeliveryId(std::string_view event_id, std::string_view address) {
  return "mail_" + Sha256Hex(std::string(event_id) + "\n" + AsciiLower(address)).substr(0, 32);
}

std::string MailLane(std::string_view organization_id, std::string_view address) {
  return std::string(organization_id) + "/" + AsciiLower(address);
}

std::string MessageIdOf(std::string_view delivery_id, std::string_view from_address) {
  const size_t at = from_address.rfind('@');
  const std::string_view domain =
      at == std::string_view::npos ? std::string_view("localhost") : from_address.substr(at + 1);
  return std::string(delivery_id) + "@" + std::string(domain);
}

std::string_view LaneOrganization(std::string_view lane) { return lane.substr(0, lane.find('/')); }

std::string_view LaneAddress(std::string_view lane) {
  const size_t slash = lane.find('/');
  return slash == std::string_view::npos ? std::string_view() : lane.substr(slash + 1);
}

}  // namespace esign::mail
