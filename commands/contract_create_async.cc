// CreateContract answered from the event store's syncer instead of a thread parked in Append:
// the decision, the new contract and its answer are all made before the append, so what runs on
// the syncer is only the read-your-writes record and the hand-back.
#include "commands/contract_commands.h"
#include "domain/stream_kinds.h"

namespace esign::commands {

void ContractCommandHandler::CreateAsync(
    const esign::Actor& actor, CreateContract command, const CommandMeta& meta,
    const std::function<void(const ContractState&)>& before_append,
    std::function<void(Result<CommandOutcome>)> done) {
  if (meta.idempotency_key) return done(Create(actor, std::move(command), meta));
  const std::string contract_id = ids_.Next("ctr_");
  const Command create(std::move(command));
  auto decision = DecideWithFollowUps(actor, contract_id, /*creating=*/true, create, meta);
  if (!decision) return done(std::unexpected(decision.error()));
  if (decision->events.empty()) return done(CommandOutcome{std::move(decision->before), false});
  std::vector<eventstore::NewEvent> events =
      NewEvents(contract_id, create, decision->events, meta, /*seed=*/nullptr);
  if (auto bounded = WithinStreamBounds(0, 0, events); !bounded) {
    return done(std::unexpected(bounded.error()));
  }
  if (before_append) before_append(decision->after);
  store_.AppendAsync(
      ContractStreamId(contract_id), eventstore::ExpectedVersion::NoStream(), std::move(events),
      [this, client_id = actor.client_id, decision = std::move(*decision),
       started = std::chrono::steady_clock::now(),
       done = std::move(done)](Result<eventstore::AppendResult> appended) mutable {
        if (observe_append_) observe_append_(std::chrono::steady_clock::now() - started);
        if (!appended) {
          // A fresh random id already taken: what Create's retries on that same id end in.
          if (appended.error().code == ErrorCode::kStreamVersionConflict) {
            return done(Fail(ErrorCode::kUnavailable, "the contract is changing too fast; retry"));
          }
          return done(std::unexpected(appended.error()));
        }
        record_write_(client_id, decision.after.organization_id,
                      appended->first_position.value() + appended->count);
        if (appended->replayed) {
          // Only ids seeded by an Idempotency-Key repeat, and those never come here.
          return done(Fail(ErrorCode::kInternal, "a new contract's events were already stored"));
        }
        NotifyProviderSessions(decision.after, decision.events);
        done(CommandOutcome{std::move(decision.after), false, true});
      });
}

}  // namespace esign::commands
