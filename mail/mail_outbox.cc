#include "mail/mail_outbox.h"

#include "base/json_read.h"
#include "base/time_text.h"
#include "commands/contract_at.h"
#include "commands/contract_commands.h"
#include "commands/organization_commands.h"
#include "domain/contract.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"
#include "mail/mail_content.h"
#include "mail/mail_message.h"
#include "mail/mail_rate_limits.h"
#include "mail/outgoing_mail.h"

namespace esign::mail {
namespace {

using commands::ContractAt;
using commands::LatestContract;
using delivery::Delivery;

// The events whose contract may mail someone (domain/mail_plan.h).
bool MayMail(std::string_view type) {
  return type == event_type::kContractSent || type == event_type::kSignerCompleted ||
         type == event_type::kParticipantReminded || type == event_type::kContractCompleted ||
         type == event_type::kContractDeclined || type == event_type::kContractVoided ||
         type == event_type::kContractExpired || type == event_type::kSignerCodeSent;
}

}  // namespace

std::string SenderName(std::string_view organization_name, std::string_view service_name) {
  if (organization_name.empty()) return std::string(service_name);
  if (service_name.empty()) return std::string(organization_name);
  return std::string(organization_name) + " via " + std::string(service_name);
}

Result<std::unique_ptr<MailOutbox>> MailOutbox::Start(MailOutboxDeps deps,
                                                      MailOutboxOptions options) {
  std::unique_ptr<MailOutbox> outbox(new MailOutbox(deps, std::move(options)));
  MailOutbox* o = outbox.get();
  auto started = delivery::LogOutbox::Start(
      {.store = deps.store,
       .records = deps.records,
       .clock = deps.clock,
       .plan = [o](const eventstore::EventRecord& record,
                   int64_t now) { return o->Plan(record, now); },
       .find = [](std::string_view lane) -> std::optional<delivery::LaneDestination> {
         return delivery::LaneDestination{.id = std::string(lane),
                                          .organization_id = std::string(LaneOrganization(lane))};
       },
       .send = [o](const Delivery& delivery) { return o->Send(delivery); },
       .attempted = {},
       // The hourly limits (mail_rate_limits.h) decide before anything is recorded, and again
       // over what a crash left pending between a decision and its record.
       .admit = [o](std::vector<Delivery> deliveries,
                    int64_t now) -> Result<std::vector<Delivery>> {
         return AdmitWithinLimits(o->deps_.records, o->deps_.limiter, std::move(deliveries), now);
       },
       .requeue =
           [o](std::vector<Delivery> pending, int64_t now) {
             return WithinLimits(o->deps_.records, o->deps_.limiter, std::move(pending), now);
           }},
      {.name = "mail outbox", .sender_threads = o->options_.sender_threads});
  if (!started) return std::unexpected(started.error());
  outbox->outbox_ = std::move(*started);
  return outbox;
}

MailOutbox::MailOutbox(MailOutboxDeps deps, MailOutboxOptions options)
    : deps_(deps), options_(std::move(options)) {}

MailOutbox::~MailOutbox() { Stop(); }

void MailOutbox::Stop() {
  if (outbox_) outbox_->Stop();
}

bool MailOutbox::WaitForIntake(uint64_t position, std::chrono::milliseconds timeout) const {
  return outbox_->WaitForIntake(position, timeout);
}

Result<std::vector<Delivery>> MailOutbox::Plan(const eventstore::EventRecord& record, int64_t now) {
  std::vector<Delivery> deliveries;
  const auto contract_id = IdInStream(StreamKind::kContract, record.stream_id);
  if (!contract_id || !MayMail(record.type)) return deliveries;
  auto event = eventstore::ToDomainEvent(record);
  if (!event) return std::unexpected(event.error());
  auto contract = ContractAt(deps_.store, *contract_id, record.version.value());
  if (!contract) return std::unexpected(contract.error());
  auto organization = commands::ReadOrganization(deps_.store, contract->organization_id);
  if (!organization) return std::unexpected(organization.error());
  for (const PlannedMail& planned : PlanMail(*contract, *event, organization->contact.owner)) {
    OutgoingMail mail{.kind = planned.kind,
                      .to = planned.email,
                      .to_name = planned.name,
                      .participant_id = planned.participant_id,
                      .title = contract->title,
                      .organization_name = organization->contact.name,
                      .subject = planned.subject,
                      .message = planned.message,
                      .expires_at = contract->expires_at.value_or(""),
                      .accent_color = organization->settings.accent_color,
                      .logo_sha256 = organization->settings.logo_sha256};
    mail.mailed_link = planned.mailed_link;
    if (auto signed_it = event_codec::As<SignerCompletedData>(event->type, event->data)) {
      if (const Participant* signer = contract->FindParticipant(signed_it->participant_id)) {
        mail.signer_name = signer->name;
        mail.signer_email = signer->email.value_or("");
      }
    }
    if (auto declined = event_codec::As<ContractDeclinedData>(event->type, event->data)) {
      mail.reason = declined->reason;
    } else if (auto voided = event_codec::As<ContractVoidedData>(event->type, event->data)) {
      mail.reason = voided->reason;
    }
    if (planned.attach_signed_pdf) mail.signed_pdf_key = contract->signed_pdf_key.value_or("");
    if (auto code = event_codec::As<SignerCodeSentData>(event->type, event->data);
        code && planned.kind == MailKind::kAuthenticationCode) {
      mail.session_id = code->session_id;
      mail.expires_at = code->expires_at;
      mail.code_number = static_cast<int>(code->code_number);
    }
    deliveries.push_back(
        Delivery{.id = MailDeliveryId(record.event_id, planned.email),
                 .destination_id = MailLane(contract->organization_id, planned.email),
                 .event_id = record.event_id,
                 .event_type = record.type,
                 .contract_id = std::string(*contract_id),
                 .position = record.position.value(),
                 .body = OutgoingMailToJson(mail),
                 .next_attempt_us = now,
                 .created_us = now});
  }
  return deliveries;
}

Result<std::string> MailOutbox::Render(const Delivery& delivery, const OutgoingMail& mail) {
  // An organization without a name is called by its id, never "the sender": the recipient can
  // at least quote it. Only a name goes into From.
  MailContext context{
      .kind = mail.kind,
      .recipient_name = mail.to_name,
      .contract_title = mail.title,
      .organization_name = mail.organization_name.empty()
                               ? std::string(LaneOrganization(delivery.destination_id))
                               : mail.organization_name,
      .signer_name = mail.signer_name,
      .signer_email = mail.signer_email,
      .mailed_link = mail.mailed_link,
      .subject = mail.subject,
      .message = mail.message,
      .reason = mail.reason,
      .expires_at = mail.expires_at,
      .signed_pdf_attached = !mail.signed_pdf_key.empty(),
      .accent_color = mail.accent_color};
  MailMessage message{.from_address = options_.from_address,
                      .from_name = SenderName(mail.organization_name, options_.from_name),
                      .to_address = mail.to,
                      .to_name = mail.to_name,
                      .message_id = MessageIdOf(delivery.id, options_.from_address),
                      .date_us = delivery.created_us};
  if (!IsTransportableAddress(mail.to)) {
    return Fail(ErrorCode::kValidationFailed,
                "not sent: the address is not plain ASCII, which only SMTPUTF8 could carry");
  }
  const std::string now = FormatTimestamp(deps_.clock.NowMicros());
  if (mail.kind == MailKind::kSigningRequest || mail.kind == MailKind::kReminder) {
    auto contract = LatestContract(deps_.store, delivery.contract_id);
    if (!contract) return std::unexpected(contract.error());
    const SigningSession* session =
        commands::MailedSession(*contract, mail.participant_id, now, deps_.secrets);
    if (session == nullptr) {
      return Fail(ErrorCode::kContractStateConflict,
                  "not sent: the signer has no open signing link any more (signed, declined, "
                  "replaced by a newer link, or the contract ended)");
    }
    context.link =
        options_.link_origin + "/sign/" + deps_.secrets.HostedLinkToken(session->session_id);
  }
  if (mail.kind == MailKind::kAuthenticationCode) {
    if (mail.expires_at <= now) {
      return Fail(ErrorCode::kContractStateConflict,
                  "not sent: the code expired before it could be");
    }
    context.code = deps_.secrets.EmailCode(mail.session_id, mail.code_number);
  }
  if (!mail.signed_pdf_key.empty()) {
    auto pdf = deps_.store.blobs().Get(mail.signed_pdf_key);
    if (!pdf) return std::unexpected(pdf.error());
    message.attachments.push_back(MailAttachment{.filename = "signed-contract.pdf",
                                                 .content_type = "application/pdf",
                                                 .bytes = std::move(*pdf)});
  }
  if (!mail.logo_sha256.empty()) {
    // A logo removed from the store since is left out, not a reason to hold the mail back.
    if (auto logo = deps_.store.blobs().Get(mail.logo_sha256)) {
      context.logo_content_id = "logo." + mail.logo_sha256.substr(0, 16) + "@contractd";
      message.attachments.push_back(MailAttachment{.filename = "logo.png",
                                                   .content_type = "image/png",
                                                   .bytes = std::move(*logo),
                                                   .content_id = context.logo_content_id});
    }
  }
  MailText text = ComposeMail(context);
  message.subject = std::move(text.subject);
  message.text = std::move(text.text);
  message.html = std::move(text.html);
  return RenderMime(message);
}

delivery::AttemptOutcome MailOutbox::Send(const Delivery& delivery) {
  auto mail = ParseOutgoingMail(delivery.body);
  auto mime = mail ? Render(delivery, *mail) : Result<std::string>(std::unexpected(mail.error()));
  if (!mime) {
    return {.kind = delivery::AttemptOutcome::Kind::kFailed, .reply = mime.error().message};
  }
  return deps_.transport.Send(options_.from_address, mail->to, *mime);
}

}  // namespace esign::mail
