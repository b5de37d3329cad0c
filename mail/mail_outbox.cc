#include "mail/mail_outbox.h"

#include <random>

#include "base/json_read.h"
#include "base/time_text.h"
#include "commands/contract_at.h"
#include "commands/contract_commands.h"
#include "commands/organization_commands.h"
#include "domain/contract.h"
#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"
#include "mail/mail_content.h"
#include "mail/mail_message.h"
#include "mail/outgoing_mail.h"
#include "webhooks/delivery_policy.h"
#include "webhooks/log_line.h"

namespace esign::mail {
namespace {

using commands::ContractAt;
using commands::LatestContract;
using webhooks::Delivery;
using webhooks::DeliveryState;

// The events whose contract may mail someone (domain/mail_plan.h).
bool MayMail(std::string_view type) {
  return type == event_type::kContractSent || type == event_type::kSignerCompleted ||
         type == event_type::kParticipantReminded || type == event_type::kContractCompleted ||
         type == event_type::kContractDeclined || type == event_type::kContractVoided ||
         type == event_type::kContractExpired || type == event_type::kSignerCodeSent;
}

}  // namespace

Result<std::unique_ptr<MailOutbox>> MailOutbox::Start(MailOutboxDeps deps,
                                                      MailOutboxOptions options) {
  auto checkpoint = deps.records.Checkpoint();
  if (!checkpoint) return std::unexpected(checkpoint.error());
  auto pending = deps.records.Pending();
  if (!pending) return std::unexpected(pending.error());
  std::unique_ptr<MailOutbox> outbox(new MailOutbox(deps, std::move(options)));
  for (Delivery& delivery : *pending) outbox->lanes_->Push(std::move(delivery));
  outbox->intake_ = std::make_unique<eventstore::CatchUpSubscription>(
      deps.store, GlobalPosition(checkpoint->value_or(0)),
      [o = outbox.get()](const std::vector<eventstore::EventRecord>& batch,
                         const std::stop_token&) { return o->Intake(batch); });
  outbox->intake_->Start();
  return outbox;
}

MailOutbox::MailOutbox(MailOutboxDeps deps, MailOutboxOptions options)
    : deps_(deps), options_(std::move(options)) {
  lanes_ = std::make_unique<webhooks::DeliveryLanes>(
      webhooks::LaneDeps{
          .find = [](std::string_view lane) -> std::optional<webhooks::LaneDestination> {
            return webhooks::LaneDestination{
                .id = std::string(lane), .organization_id = std::string(LaneOrganization(lane))};
          },
          .attempt = [this](const std::stop_token&, const webhooks::LaneDestination&,
                            Delivery& delivery) { return Attempt(delivery); },
          .settle = [](const std::string&) {},
          .clock = deps_.clock},
      options_.sender_threads);
}

MailOutbox::~MailOutbox() { Stop(); }

void MailOutbox::Stop() {
  if (intake_) intake_->Stop();
  lanes_->Stop();
}

bool MailOutbox::WaitForIntake(uint64_t position, std::chrono::milliseconds timeout) const {
  return intake_->WaitForPosition(GlobalPosition(position), timeout);
}

Result<GlobalPosition> MailOutbox::Intake(const std::vector<eventstore::EventRecord>& batch) {
  std::vector<Delivery> deliveries;
  const int64_t now = deps_.clock.NowMicros();
  for (const eventstore::EventRecord& record : batch) {
    const auto contract_id = IdInStream(StreamKind::kContract, record.stream_id);
    if (!contract_id || !MayMail(record.type)) continue;
    auto event = eventstore::ToDomainEvent(record);
    if (!event) return std::unexpected(event.error());
    auto contract = ContractAt(deps_.store, *contract_id, record.version.value());
    if (!contract) return std::unexpected(contract.error());
    auto organization = commands::ReadOrganizationContact(deps_.store, contract->organization_id);
    if (!organization) return std::unexpected(organization.error());
    for (const PlannedMail& planned : PlanMail(*contract, *event, organization->owner)) {
      OutgoingMail mail{.kind = planned.kind,
                        .to = planned.email,
                        .to_name = planned.name,
                        .participant_id = planned.participant_id,
                        .title = contract->title,
                        .organization_name = organization->name,
                        .subject = planned.subject,
                        .message = planned.message,
                        .expires_at = contract->expires_at.value_or("")};
      if (planned.kind == MailKind::kContractDeclined ||
          planned.kind == MailKind::kContractVoided) {
        mail.reason = StringMemberOrEmpty(event->data, "reason");
      }
      if (planned.attach_signed_pdf) mail.signed_pdf_key = contract->signed_pdf_key.value_or("");
      if (planned.kind == MailKind::kAuthenticationCode) {
        mail.session_id = StringMemberOrEmpty(event->data, "sessionId");
        mail.expires_at = StringMemberOrEmpty(event->data, "expiresAt");
        const auto* number = event->data.if_contains("codeNumber");
        mail.code_number =
            number != nullptr && number->is_int64() ? static_cast<int>(number->get_int64()) : 0;
      }
      deliveries.push_back(
          Delivery{.id = MailDeliveryId(record.event_id, planned.email),
                   .endpoint_id = MailLane(contract->organization_id, planned.email),
                   .event_id = record.event_id,
                   .event_type = record.type,
                   .contract_id = std::string(*contract_id),
                   .position = record.position.value(),
                   .body = OutgoingMailToJson(mail),
                   .next_attempt_us = now,
                   .created_us = now});
    }
  }
  const GlobalPosition next(batch.back().position.value() + 1);
  if (!deliveries.empty()) {
    auto admitted = deps_.records.Admit(std::move(deliveries));
    if (!admitted) return std::unexpected(admitted.error());
    for (Delivery& delivery : *admitted) lanes_->Push(std::move(delivery));
  }
  if (auto stored = deps_.records.SetCheckpoint(next.value()); !stored) {
    return std::unexpected(stored.error());
  }
  return next;
}

Result<std::string> MailOutbox::Render(const Delivery& delivery, const OutgoingMail& mail) {
  MailContext context{.kind = mail.kind,
                      .recipient_name = mail.to_name,
                      .contract_title = mail.title,
                      .organization_name = mail.organization_name,
                      .subject = mail.subject,
                      .message = mail.message,
                      .reason = mail.reason,
                      .expires_at = mail.expires_at,
                      .signed_pdf_attached = !mail.signed_pdf_key.empty()};
  MailMessage message{.from_address = options_.from_address,
                      .from_name = options_.from_name,
                      .to_address = mail.to,
                      .to_name = mail.to_name,
                      .message_id = MessageIdOf(delivery.id, options_.from_address),
                      .date_us = delivery.created_us};
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
  MailText text = ComposeMail(context);
  message.subject = std::move(text.subject);
  message.text = std::move(text.text);
  message.html = std::move(text.html);
  return RenderMime(message);
}

webhooks::LaneDeps::Attempted MailOutbox::Attempt(Delivery& delivery) {
  thread_local std::mt19937_64 random(std::random_device{}());
  webhooks::AttemptOutcome outcome;
  auto mail = ParseOutgoingMail(delivery.body);
  auto mime = mail ? Render(delivery, *mail) : Result<std::string>(std::unexpected(mail.error()));
  if (!mime) {
    outcome.kind = webhooks::AttemptOutcome::Kind::kFailed;
    outcome.reply = mime.error().message;
  } else {
    outcome = deps_.transport.Send(options_.from_address, mail->to, *mime);
  }
  std::uniform_real_distribution<double> jitter(-1.0, 1.0);
  const webhooks::AttemptVerdict verdict =
      webhooks::AfterAttempt(delivery, outcome, deps_.clock.NowMicros(), jitter(random));
  if (verdict.next == webhooks::AttemptVerdict::Next::kDisableEndpoint) {
    // A mail server has no endpoint to disable: the message alone has failed.
    delivery.state = DeliveryState::kFailed;
    delivery.next_attempt_us = 0;
  }
  if (delivery.state == DeliveryState::kFailed) {
    webhooks::LogLine(
        "mail outbox",
        "message " + delivery.id + " of contract " + delivery.contract_id + " failed: " +
            (outcome.code != 0 ? std::to_string(outcome.code) + " " : "") + outcome.reply);
  } else if (delivery.state == DeliveryState::kPending) {
    webhooks::LogLine("mail outbox",
                      "message " + delivery.id + " deferred: " +
                          (outcome.code != 0 ? std::to_string(outcome.code) + " " : "") +
                          outcome.reply);
  }
  if (auto stored = deps_.records.Update(delivery); !stored) {
    webhooks::LogLine("mail outbox",
                      "recording message " + delivery.id + " failed: " + stored.error().message);
  }
  return webhooks::LaneDeps::Attempted::kDone;
}

}  // namespace esign::mail
