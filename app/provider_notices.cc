#include "app/provider_notices.h"

#include <boost/json.hpp>

#include "base/base64.h"
#include "base/json_read.h"
#include "base/sha256.h"
#include "base/time_text.h"
#include "commands/contract_at.h"
#include "delivery/log_line.h"
#include "domain/contract_events.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/stream_kinds.h"
#include "http/provider_callback_routes.h"
#include "webhooks/webhook_outcome.h"

namespace esign::app {
namespace {

using delivery::Delivery;
using delivery::DeliveryState;

constexpr std::string_view kStarted = "session.started";
constexpr std::string_view kCancelled = "session.cancelled";

// One notice per event and session, whatever reads the event again.
std::string NoticeId(std::string_view event_id, std::string_view session_id) {
  return "pn_" + Sha256Hex(std::string(event_id) + "\n" + std::string(session_id)).substr(0, 32);
}

}  // namespace

std::vector<ProviderNotice> NoticesOf(const eventstore::EventRecord& record,
                                      const ContractState& contract) {
  std::vector<ProviderNotice> notices;
  const auto base = [&contract](std::string_view type, const SigningSession& session) {
    return boost::json::object{{"type", type},
                               {"sessionId", session.session_id},
                               {"contractId", contract.id},
                               {"participantId", session.participant_id}};
  };
  if (const auto created = event_codec::AsText<SessionCreatedData>(record.type, record.data)) {
    const SigningSession* session = contract.FindSession(created->session_id);
    if (session == nullptr || session->channel != ExecutionChannel::kProviderManaged) {
      return notices;
    }
    const Participant* signer = contract.FindParticipant(session->participant_id);
    boost::json::object notice = base(kStarted, *session);
    notice["organizationId"] = signer && signer->organization_id ? *signer->organization_id : "";
    notice["signerName"] = signer ? signer->name : "";
    notice["documentSha256"] = session->document_sha256;
    notice["expiresAt"] = session->expires_at;
    notices.push_back({session, std::move(notice)});
  } else if (record.type == event_type::kContractVoided ||
             record.type == event_type::kContractExpired) {
    // Sessions end with their contract without an event of their own: open until now.
    for (const SigningSession& session : contract.sessions) {
      if (session.state != SessionState::kOpen ||
          session.channel != ExecutionChannel::kProviderManaged) {
        continue;
      }
      boost::json::object notice = base(kCancelled, session);
      notice["reason"] =
          record.type == event_type::kContractExpired ? "contract_expired" : "contract_voided";
      notices.push_back({&session, std::move(notice)});
    }
  }
  return notices;
}

Result<std::unique_ptr<ProviderNotices>> ProviderNotices::Start(ProviderNoticesDeps deps) {
  std::unique_ptr<ProviderNotices> notices(new ProviderNotices(std::move(deps)));
  ProviderNotices* n = notices.get();
  auto started = delivery::LogOutbox::Start(
      {.store = n->deps_.store,
       .records = n->deps_.records,
       .clock = n->deps_.clock,
       .plan = [n](const eventstore::EventRecord& record,
                   int64_t now) { return n->Plan(record, now); },
       // One lane per provider, which is also its share of the threads.
       .find = [](std::string_view provider_id) -> std::optional<delivery::LaneDestination> {
         return delivery::LaneDestination{.id = std::string(provider_id),
                                          .organization_id = std::string(provider_id)};
       },
       .send = [n](const Delivery& delivery) { return n->Send(delivery); },
       .attempted =
           [n](const Delivery& delivery, const delivery::AttemptOutcome&) {
             if (delivery.state == DeliveryState::kSucceeded) {
               delivery::LogLine("provider notices", "told " + delivery.event_type +
                                                         " of contract " + delivery.contract_id +
                                                         " to provider " + delivery.destination_id);
               return;
             }
             n->failed_attempts_.fetch_add(1);
             if (delivery.state == DeliveryState::kFailed) n->failed_notices_.fetch_add(1);
           }},
      {.name = "provider notices", .sender_threads = kSenderThreads});
  if (!started) return std::unexpected(started.error());
  notices->outbox_ = std::move(*started);
  return notices;
}

ProviderNotices::ProviderNotices(ProviderNoticesDeps deps) : deps_(std::move(deps)) {}

ProviderNotices::~ProviderNotices() { Stop(); }

void ProviderNotices::Stop() {
  if (outbox_) outbox_->Stop();
}

bool ProviderNotices::WaitForIntake(uint64_t position, std::chrono::milliseconds timeout) const {
  return outbox_->WaitForIntake(position, timeout);
}

Result<std::vector<Delivery>> ProviderNotices::Plan(const eventstore::EventRecord& record,
                                                    int64_t now) {
  std::vector<Delivery> deliveries;
  const auto contract_id = IdInStream(StreamKind::kContract, record.stream_id);
  if (!contract_id ||
      (record.type != event_type::kSessionCreated && record.type != event_type::kContractVoided &&
       record.type != event_type::kContractExpired)) {
    return deliveries;
  }
  auto contract = commands::ContractAt(deps_.store, *contract_id, record.version.value());
  if (!contract) return std::unexpected(contract.error());
  for (auto& [session, notice] : NoticesOf(record, *contract)) {
    auto provider = deps_.providers.Find(session->provider_id);
    if (!provider || provider->start_url.empty()) continue;  // nobody to tell
    deliveries.push_back(Delivery{.id = NoticeId(record.event_id, session->session_id),
                                  .destination_id = session->provider_id,
                                  .event_id = record.event_id,
                                  .event_type = std::string(notice.at("type").as_string()),
                                  .contract_id = std::string(*contract_id),
                                  .position = record.position.value(),
                                  .body = boost::json::serialize(notice),
                                  .next_attempt_us = now,
                                  .created_us = now});
  }
  return deliveries;
}

Result<std::string> ProviderNotices::Render(const Delivery& delivery,
                                            const ProviderConfig& provider) {
  boost::system::error_code ec;
  boost::json::value parsed = boost::json::parse(delivery.body, ec);
  if (ec || !parsed.is_object()) return Fail(ErrorCode::kCorruption, "notice record");
  boost::json::object& notice = parsed.as_object();
  if (delivery.event_type != kStarted) return boost::json::serialize(notice);
  auto contract = commands::LatestContract(deps_.store, delivery.contract_id);
  if (!contract) return std::unexpected(contract.error());
  const SigningSession* session = contract->FindSession(StringMemberOrEmpty(notice, "sessionId"));
  const std::string now = FormatTimestamp(deps_.clock.NowMicros());
  if (session == nullptr || EffectiveState(*session, *contract, now) != SessionState::kOpen) {
    return Fail(ErrorCode::kContractStateConflict,
                "not sent: the session is no longer open (signed, declined, cancelled or expired)");
  }
  auto document = deps_.store.blobs().Get(session->document_sha256);
  if (!document) return std::unexpected(document.error());
  notice["documentBase64"] = Base64Encode(*document);
  notice["callbackUrl"] = deps_.callback_base() + "/api/v1/provider-callbacks/" + provider.id;
  return boost::json::serialize(notice);
}

delivery::AttemptOutcome ProviderNotices::Send(const Delivery& delivery) {
  const auto provider = deps_.providers.Find(delivery.destination_id);
  auto body = provider && !provider->start_url.empty()
                  ? Render(delivery, *provider)
                  : Result<std::string>(Fail(ErrorCode::kNotFound,
                                             "not sent: the provider is no longer configured "
                                             "with a start URL"));
  if (!body) {
    return {.kind = delivery::AttemptOutcome::Kind::kFailed, .reply = body.error().message};
  }
  const std::string timestamp = std::to_string(deps_.clock.NowMicros() / 1'000'000);
  return webhooks::WebhookAttemptOutcome(deps_.sender.Send(
      {provider->start_url,
       {{"X-Provider-Timestamp", timestamp},
        {"X-Provider-Signature", http::ProviderSignature(provider->secret, timestamp, *body)}},
       *body}));
}

}  // namespace esign::app
