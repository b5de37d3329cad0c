#include "app/provider_notices.h"

#include <boost/json.hpp>
#include <random>

#include "base/base64.h"
#include "base/json_read.h"
#include "base/sha256.h"
#include "base/time_text.h"
#include "commands/contract_at.h"
#include "domain/contract_events.h"
#include "domain/stream_kinds.h"
#include "http/provider_callback_routes.h"
#include "webhooks/delivery_policy.h"
#include "webhooks/log_line.h"
#include "webhooks/webhook_outcome.h"

namespace esign::app {
namespace {

using webhooks::Delivery;
using webhooks::DeliveryState;

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
  if (record.type == event_type::kSessionCreated) {
    boost::system::error_code ec;
    const boost::json::value data = boost::json::parse(record.data, ec);
    if (ec || !data.is_object()) return notices;
    const SigningSession* session =
        contract.FindSession(StringMemberOrEmpty(data.as_object(), "sessionId"));
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
  auto checkpoint = deps.records.Checkpoint();
  if (!checkpoint) return std::unexpected(checkpoint.error());
  auto pending = deps.records.Pending();
  if (!pending) return std::unexpected(pending.error());
  std::unique_ptr<ProviderNotices> notices(new ProviderNotices(std::move(deps)));
  if (!pending->empty()) {
    webhooks::LogLine("provider notices", std::to_string(pending->size()) +
                                              " notices recorded as pending queued from the store");
  }
  notices->lanes_->PushAll(std::move(*pending));
  notices->intake_ = std::make_unique<eventstore::CatchUpSubscription>(
      notices->deps_.store, GlobalPosition(checkpoint->value_or(0)),
      [n = notices.get()](const std::vector<eventstore::EventRecord>& batch,
                          const std::stop_token&) { return n->Intake(batch); });
  notices->intake_->Start();
  return notices;
}

ProviderNotices::ProviderNotices(ProviderNoticesDeps deps) : deps_(std::move(deps)) {
  lanes_ = std::make_unique<webhooks::DeliveryLanes>(
      webhooks::LaneDeps{
          .find = [](std::string_view provider_id) -> std::optional<webhooks::LaneDestination> {
            return webhooks::LaneDestination{.id = std::string(provider_id),
                                             .organization_id = std::string(provider_id)};
          },
          .attempt = [this](const std::stop_token&, const webhooks::LaneDestination&,
                            Delivery& delivery) { return Attempt(delivery); },
          .settle = [](const std::string&) {},
          .clock = deps_.clock},
      kSenderThreads);
}

ProviderNotices::~ProviderNotices() { Stop(); }

void ProviderNotices::Stop() {
  if (intake_) intake_->Stop();
  lanes_->Stop();
}

bool ProviderNotices::WaitForIntake(uint64_t position, std::chrono::milliseconds timeout) const {
  return intake_->WaitForPosition(GlobalPosition(position), timeout);
}

Result<GlobalPosition> ProviderNotices::Intake(const std::vector<eventstore::EventRecord>& batch) {
  std::vector<Delivery> deliveries;
  const int64_t now = deps_.clock.NowMicros();
  for (const eventstore::EventRecord& record : batch) {
    const auto contract_id = IdInStream(StreamKind::kContract, record.stream_id);
    if (!contract_id ||
        (record.type != event_type::kSessionCreated && record.type != event_type::kContractVoided &&
         record.type != event_type::kContractExpired)) {
      continue;
    }
    auto contract = commands::ContractAt(deps_.store, *contract_id, record.version.value());
    if (!contract) return std::unexpected(contract.error());
    for (auto& [session, notice] : NoticesOf(record, *contract)) {
      auto provider = deps_.providers.Find(session->provider_id);
      if (!provider || provider->start_url.empty()) continue;  // nobody to tell
      deliveries.push_back(Delivery{.id = NoticeId(record.event_id, session->session_id),
                                    .endpoint_id = session->provider_id,
                                    .event_id = record.event_id,
                                    .event_type = std::string(notice.at("type").as_string()),
                                    .contract_id = std::string(*contract_id),
                                    .position = record.position.value(),
                                    .body = boost::json::serialize(notice),
                                    .next_attempt_us = now,
                                    .created_us = now});
    }
  }
  const GlobalPosition next(batch.back().position.value() + 1);
  if (!deliveries.empty()) {
    auto admitted = deps_.records.Admit(std::move(deliveries));
    if (!admitted) return std::unexpected(admitted.error());
    lanes_->PushAll(std::move(*admitted));
  }
  if (auto stored = deps_.records.SetCheckpoint(next.value()); !stored) {
    return std::unexpected(stored.error());
  }
  return next;
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

webhooks::LaneDeps::Attempted ProviderNotices::Attempt(Delivery& delivery) {
  thread_local std::mt19937_64 random(std::random_device{}());
  webhooks::AttemptOutcome outcome;
  const auto provider = deps_.providers.Find(delivery.endpoint_id);
  auto body = provider && !provider->start_url.empty()
                  ? Render(delivery, *provider)
                  : Result<std::string>(Fail(ErrorCode::kNotFound,
                                             "not sent: the provider is no longer configured "
                                             "with a start URL"));
  if (!body) {
    outcome.kind = webhooks::AttemptOutcome::Kind::kFailed;
    outcome.reply = body.error().message;
  } else {
    const std::string timestamp = std::to_string(deps_.clock.NowMicros() / 1'000'000);
    outcome = webhooks::WebhookAttemptOutcome(deps_.sender.Send(
        {provider->start_url,
         {{"X-Provider-Timestamp", timestamp},
          {"X-Provider-Signature", http::ProviderSignature(provider->secret, timestamp, *body)}},
         *body}));
  }
  std::uniform_real_distribution<double> jitter(-1.0, 1.0);
  const webhooks::AttemptVerdict verdict =
      webhooks::AfterAttempt(delivery, outcome, deps_.clock.NowMicros(), jitter(random));
  if (verdict.next == webhooks::AttemptVerdict::Next::kDisableEndpoint) {
    // A provider is not disabled by one session's notice: the notice alone has failed.
    delivery.state = DeliveryState::kFailed;
    delivery.next_attempt_us = 0;
  }
  const std::string what = delivery.event_type + " of contract " + delivery.contract_id +
                           " to provider " + delivery.endpoint_id + " (notice " + delivery.id + ")";
  const std::string reply =
      (outcome.code != 0 ? std::to_string(outcome.code) + " " : "") + outcome.reply;
  if (delivery.state == DeliveryState::kSucceeded) {
    webhooks::LogLine("provider notices", "told " + what);
  } else {
    failed_attempts_.fetch_add(1);
    if (delivery.state == DeliveryState::kFailed) {
      failed_notices_.fetch_add(1);
      webhooks::LogLine("provider notices", what + " failed for good: " + reply);
    } else {
      webhooks::LogLine("provider notices",
                        what + " failed (attempt " + std::to_string(delivery.attempts.size()) +
                            "), next at " + FormatTimestamp(delivery.next_attempt_us) + ": " +
                            reply);
    }
  }
  if (auto stored = deps_.records.Update(delivery); !stored) {
    webhooks::LogLine("provider notices",
                      "recording notice " + delivery.id + " failed: " + stored.error().message);
  }
  return webhooks::LaneDeps::Attempted::kDone;
}

}  // namespace esign::app
