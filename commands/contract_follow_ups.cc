// What the service decides by itself after a command: automatic provider sessions and
// completion. Both are appended together with the command's own events, so a crash can never
// leave a contract whose last signature is recorded but which never completes, nor an
// organization signer whose turn came without its provider session.
#include <set>

#include "base/time_text.h"
#include "commands/contract_commands.h"
#include "commands/signing_times.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/mail_plan.h"

namespace esign::commands {
namespace {

bool Has(const std::vector<DomainEvent>& events, std::string_view type) {
  for (const auto& event : events) {
    if (event.type == type) return true;
  }
  return false;
}

bool HasOpenSession(const ContractState& state, std::string_view participant_id,
                    std::string_view now) {
  for (const auto& session : state.sessions) {
    if (session.participant_id == participant_id &&
        EffectiveState(session, state, now) == SessionState::kOpen) {
      return true;
    }
  }
  return false;
}

}  // namespace

const SigningSession* MailedSession(const ContractState& state, std::string_view participant_id,
                                    std::string_view now, const SignerSecrets& secrets) {
  for (auto it = state.sessions.rbegin(); it != state.sessions.rend(); ++it) {
    if (it->participant_id == participant_id && it->channel == ExecutionChannel::kPlatformHosted &&
        EffectiveState(*it, state, now) == SessionState::kOpen &&
        it->token_sha256 == secrets.HostedLinkTokenSha256(it->session_id)) {
      return &*it;
    }
  }
  return nullptr;
}

Result<std::vector<DomainEvent>> ContractCommandHandler::FollowUps(
    ContractState& after, const std::vector<DomainEvent>& decided, const DecisionContext& context,
    const eventstore::Actor& actor) {
  std::vector<DomainEvent> extra;
  const auto take = [&](const Command& command) -> Status {
    auto events = Decide(after, command, context);
    if (!events) return Fail(events.error());
    for (auto& event : *events) {
      after = Apply(std::move(after), event);
      extra.push_back(std::move(event));
    }
    return {};
  };

  const bool turn_may_have_come =
      Has(decided, event_type::kContractSent) || Has(decided, event_type::kSignerCompleted);
  if (turn_may_have_come && resolve_provider_ && after.in_signing_flow() &&
      after.organization_signing_mode == OrganizationSigningMode::kAutomatic) {
    const std::string expires_at = FormatTimestamp(SigningDeadlineMicros(after));
    std::vector<CreateSigningSession> starts;
    for (const auto& p : after.participants) {
      if (!p.signs() || p.progress != ParticipantProgress::kReady ||
          p.execution_channel != ExecutionChannel::kProviderManaged ||
          HasOpenSession(after, p.participant_id, context.now)) {
        continue;
      }
      std::string provider = resolve_provider_(p);
      // Without a provider the integrator must configure one and create the session itself.
      if (provider.empty()) continue;
      starts.push_back(CreateSigningSession{.participant_id = p.participant_id,
                                            .session_id = ids_.Next("ses_"),
                                            .expires_at = expires_at,
                                            .provider_id = std::move(provider),
                                            .automatic = true});
    }
    for (const auto& start : starts) {
      if (auto ok = take(start); !ok) return Fail(ok.error());
    }
  }

  // E-mail (DESIGN 15): a platform_hosted signer mailed a signing request or a reminder gets a
  // session whose link the outbox derives from its id (signer_secrets.h), in this same append;
  // an open one from an earlier message is mailed again instead.
  if (signer_secrets_ != nullptr && after.in_signing_flow()) {
    const std::string expires_at = FormatTimestamp(SigningDeadlineMicros(after));
    std::vector<CreateSigningSession> mailed;
    std::set<std::string> given;  // participants with a session in `mailed`
    for (const auto& event : decided) {
      for (const PlannedMail& mail : PlanMail(after, event, std::nullopt)) {
        if (!mail.hosted_link || given.contains(mail.participant_id) ||
            MailedSession(after, mail.participant_id, context.now, *signer_secrets_) != nullptr) {
          continue;
        }
        given.insert(mail.participant_id);
        std::string session_id = ids_.Next("ses_");
        std::string token_sha256 = signer_secrets_->HostedLinkTokenSha256(session_id);
        mailed.push_back(CreateSigningSession{.participant_id = mail.participant_id,
                                              .session_id = std::move(session_id),
                                              .token_sha256 = std::move(token_sha256),
                                              .expires_at = expires_at,
                                              .automatic = true});
      }
    }
    for (const auto& start : mailed) {
      if (auto ok = take(start); !ok) return Fail(ok.error());
    }
  }

  // The last signature: the signed PDF is stored before contract.completed is recorded. Its
  // certificate lists the events appended with it, which have no position yet.
  if (seal_document_ && Has(decided, event_type::kSignerCompleted) && after.in_signing_flow() &&
      after.UnsignedSignerCount() == 0) {
    documents::Completion completion{.actor = actor, .completed_at = context.now};
    completion.pending = decided;
    completion.pending.insert(completion.pending.end(), extra.begin(), extra.end());
    auto sealed = seal_document_(after, completion);
    if (!sealed) return Fail(sealed.error());
    if (auto ok = take(CompleteContract{sealed->signed_pdf_key, sealed->signed_pdf_key,
                                        sealed->signed_content_sha256});
        !ok) {
      return Fail(ok.error());
    }
  }
  return extra;
}

void ContractCommandHandler::NotifyProviderSessions(const ContractState& after,
                                                    const std::vector<DomainEvent>& events) {
  if (provider_session_ended_ &&
      (Has(events, event_type::kContractVoided) || Has(events, event_type::kContractExpired))) {
    // Sessions end with their contract without an event of their own: they were open until now.
    for (const auto& session : after.sessions) {
      if (session.state == SessionState::kOpen &&
          session.channel == ExecutionChannel::kProviderManaged) {
        provider_session_ended_(after, session);
      }
    }
  }
  if (!provider_session_started_) return;
  for (const auto& event : events) {
    const auto created = event_codec::As<SessionCreatedData>(event.type, event.data);
    const SigningSession* session = created ? after.FindSession(created->session_id) : nullptr;
    if (session != nullptr && session->channel == ExecutionChannel::kProviderManaged) {
      provider_session_started_(after, *session);
    }
  }
}

}  // namespace esign::commands
