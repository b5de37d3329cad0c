#include "domain/contract_commands.h"

namespace esign {

std::string_view CommandName(const Command& command) {
  static constexpr std::string_view kNames[] = {
      "CreateContract",         "UpdateData",           "UpdateTableData",
      "ReplaceParticipants",    "UpdateRoleBindings",   "SendContract",
      "RecordSignerCompleted",  "RecordSignerDeclined", "CompleteContract",
      "PersistEvidence",        "CreateSigningSession", "CancelSigningSession",
      "RefreshSigningSession",  "VoidContract",         "RemindParticipants",
      "RunDueTimers",           "SendSignerCode",       "RecordSignerAuthentication",
      "RecordSignerAttachment", "IssueEmbedUrl",        "OpenEmbeddedSession"};
  return kNames[command.index()];
}

}  // namespace esign
