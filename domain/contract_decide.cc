// Decide: dispatch to one function per command, and the checks they share.
#include "domain/contract.h"
#include "domain/contract_rules.h"

namespace esign {

std::unexpected<Error> ContractNotFound() {
  return Fail(ErrorCode::kContractNotFound, "contract not found");
}

namespace contract_rules {

Status RequirePermission(const Actor& actor, std::string_view permission, std::string field,
                         std::string issue) {
  if (actor.Has(permission)) return {};
  Error error{ErrorCode::kPermissionDenied,
              "the " + std::string(permission) + " permission is required",
              {}};
  if (!field.empty()) error.details.push_back(ErrorDetail{std::move(field), std::move(issue)});
  return Fail(std::move(error));
}

Status RequireControl(const ContractState& state, const Actor& actor) {
  if (!state.exists() || state.organization_id != actor.organization_id) {
    return ContractNotFound();
  }
  return {};
}

Status RequireDraft(const ContractState& state, std::string_view what) {
  if (state.status == ContractStatus::kDraft) return {};
  return Fail(ErrorCode::kContractStateConflict,
              std::string(what) + " only while the contract is a draft; it is " +
                  std::string(ToString(state.status)),
              "status", std::string(ToString(state.status)));
}

void RejectUnknown(const boost::json::object& unknown, Details& details) {
  for (const auto& member : unknown) {
    if (member.key() == "organizationSigningMode") {
      AddDetail(details, "organizationSigningMode",
                "read-only: copied from the template version settings");
    } else {
      AddDetail(details, std::string(member.key()), "unknown field");
    }
  }
}

Result<const TemplateVersion*> VersionOf(const ContractState& state,
                                         const DecisionContext& context) {
  if (context.template_version != nullptr) return context.template_version;
  if (context.tmpl == nullptr || context.tmpl->template_id != state.template_id) {
    return Fail(ErrorCode::kTemplateNotFound, "template " + state.template_id + " not loaded");
  }
  return SelectTemplateVersion(*context.tmpl, state.template_version_id);
}

Status FailIfAny(ErrorCode code, std::string message, const Details& details) {
  if (details.empty()) return {};
  return Fail(Error{code, std::move(message), details});
}

}  // namespace contract_rules

Result<std::vector<DomainEvent>> Decide(const ContractState& state, const Command& command,
                                        const DecisionContext& context) {
  using namespace contract_rules;
  // Commands an integrator can repeat at will (edits, sessions, refreshes, bundles) grow the
  // stream that every later command replays: past the limit only signers' steps are taken. Only
  // the controller learns of it; anyone else gets the command's own answer (not found).
  const bool signers_step = std::holds_alternative<RecordSignerCompleted>(command) ||
                            std::holds_alternative<RecordSignerDeclined>(command) ||
                            std::holds_alternative<CompleteContract>(command) ||
                            std::holds_alternative<RunDueTimers>(command);
  if (state.version >= kMaxContractEvents && !signers_step &&
      state.organization_id == context.actor.organization_id) {
    return Fail(ErrorCode::kContractStateConflict,
                "a contract holds at most " + std::to_string(kMaxContractEvents) + " events",
                "version", "limit reached");
  }
  return std::visit(
      [&](const auto& c) -> Result<std::vector<DomainEvent>> {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, CreateContract>) return DecideCreate(state, c, context);
        if constexpr (std::is_same_v<T, UpdateData>) return DecideUpdateData(state, c, context);
        if constexpr (std::is_same_v<T, UpdateTableData>) {
          return DecideUpdateTableData(state, c, context);
        }
        if constexpr (std::is_same_v<T, ReplaceParticipants>) {
          return DecideReplaceParticipants(state, c, context);
        }
        if constexpr (std::is_same_v<T, UpdateRoleBindings>) {
          return DecideUpdateRoleBindings(state, c, context);
        }
        if constexpr (std::is_same_v<T, SendContract>) return DecideSend(state, c, context);
        if constexpr (std::is_same_v<T, RecordSignerCompleted>) {
          return DecideSignerCompleted(state, c, context);
        }
        if constexpr (std::is_same_v<T, RecordSignerDeclined>) {
          return DecideSignerDeclined(state, c, context);
        }
        if constexpr (std::is_same_v<T, CompleteContract>) return DecideComplete(state, c, context);
        if constexpr (std::is_same_v<T, PersistEvidence>) {
          return DecidePersistEvidence(state, c, context);
        }
        if constexpr (std::is_same_v<T, CreateSigningSession>) {
          return DecideCreateSession(state, c, context);
        }
        if constexpr (std::is_same_v<T, CancelSigningSession>) {
          return DecideCancelSession(state, c, context);
        }
        if constexpr (std::is_same_v<T, RefreshSigningSession>) {
          return DecideRefreshSession(state, c, context);
        }
        if constexpr (std::is_same_v<T, VoidContract>) return DecideVoid(state, c, context);
        if constexpr (std::is_same_v<T, RemindParticipants>) {
          return DecideRemind(state, c, context);
        }
        if constexpr (std::is_same_v<T, RunDueTimers>) return DecideDueTimers(state, context);
        if constexpr (std::is_same_v<T, SendSignerCode>) {
          return DecideSendSignerCode(state, c, context);
        }
        if constexpr (std::is_same_v<T, RecordSignerAuthentication>) {
          return DecideSignerAuthentication(state, c, context);
        }
        if constexpr (std::is_same_v<T, RecordSignerAttachment>) {
          return DecideSignerAttachment(state, c, context);
        }
        if constexpr (std::is_same_v<T, IssueEmbedUrl>)
          return DecideIssueEmbedUrl(state, c, context);
        if constexpr (std::is_same_v<T, OpenEmbeddedSession>) {
          return DecideOpenEmbedded(state, c, context);
        }
      },
      command);
}

ContractState Replay(const std::vector<DomainEvent>& events) {
  ContractState state;
  for (const auto& event : events) state = Apply(std::move(state), event);
  return state;
}

}  // namespace esign
