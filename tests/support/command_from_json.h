// Commands named in given/when/then case files (tests/domain/cases, the projection scripts): a
// command's name and a JSON body shaped like its request. The integrator's commands are mapped as
// the routes map them (http/contract_requests.h); the typed ones read camelCase members
// (participantId, signedAt, evidence, reason, sessionId, signedPdfKey, signedPdfSha256, revision,
// sha256, ...). kValidationFailed when a member has the wrong type, or ("command") for an unknown
// name.
#pragma once

#include <string_view>

#include <boost/json.hpp>

#include "domain/contract_commands.h"

namespace esign::testing {

Result<Command> CommandFromJson(std::string_view name, const boost::json::object& body);

}  // namespace esign::testing
