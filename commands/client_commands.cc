#include "commands/client_commands.h"

#include <algorithm>

#include "base/sha256.h"
#include "base/time_text.h"
#include "domain/stream_kinds.h"
#include "eventstore/event_record.h"
#include "projections/client_directory.h"

namespace esign::commands {
namespace {

constexpr size_t kMaxNameBytes = 200;
constexpr size_t kMaxOrganizationIdBytes = 64;

// Well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF) without C0/C1
// control characters: the name is shown in listings and logs.
bool IsPrintableUtf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) return false;
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t length = 0;
    uint32_t code = 0;
    if ((c & 0xe0) == 0xc0) {
      length = 2;
      code = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      length = 3;
      code = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      length = 4;
      code = c & 0x07;
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    for (size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xc0) != 0x80) return false;
      code = (code << 6) | (next & 0x3f);
    }
    constexpr uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < kMinimum[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ||
        (code >= 0x80 && code <= 0x9f)) {
      return false;
    }
    i += length;
  }
  return true;
}

}  // namespace

bool IsKnownPermission(std::string_view permission) {
  return std::find(kPermissions.begin(), kPermissions.end(), permission) != kPermissions.end();
}

bool IsValidOrganizationId(std::string_view organization_id) {
  if (organization_id.empty() || organization_id.size() > kMaxOrganizationIdBytes) return false;
  return std::all_of(organization_id.begin(), organization_id.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == ':' || c == '-';
  });
}

ClientCommandHandler::ClientCommandHandler(eventstore::EventStore& store, WaitApplied wait_applied,
                                           IdGenerator& ids, const Clock& clock,
                                           ClientCommandOptions options)
    : store_(store),
      wait_applied_(std::move(wait_applied)),
      ids_(ids),
      clock_(clock),
      options_(options) {}

Result<CreatedClient> ClientCommandHandler::Create(const NewClient& request,
                                                   const eventstore::Actor& actor) {
  if (!IsValidOrganizationId(request.organization_id)) {
    return Fail(ErrorCode::kValidationFailed, "invalid organization id", "organizationId",
                "must match ^[A-Za-z0-9_.:-]{1,64}$");
  }
  if (request.name.empty() || request.name.size() > kMaxNameBytes ||
      !IsPrintableUtf8(request.name)) {
    return Fail(ErrorCode::kValidationFailed, "invalid client name", "name",
                "1 to 200 bytes of UTF-8 text without control characters");
  }
  std::vector<std::string> permissions;
  for (const auto& permission : request.permissions) {
    if (!IsKnownPermission(permission)) {
      std::string known;
      for (const auto p : kPermissions) known += (known.empty() ? "" : ", ") + std::string(p);
      return Fail(ErrorCode::kValidationFailed, "unknown permission '" + permission + "'",
                  "permissions", "each must be one of: " + known);
    }
    if (std::find(permissions.begin(), permissions.end(), permission) == permissions.end()) {
      permissions.push_back(permission);
    }
  }
  if (permissions.empty()) {
    return Fail(ErrorCode::kValidationFailed, "a client needs at least one permission",
                "permissions", "empty");
  }

  CreatedClient created{
      .client_id = ids_.Next("cli_"),
      .client_secret = NewClientSecret(),
      .organization_id = request.organization_id,
      .name = request.name,
      .permissions = std::move(permissions),
  };
  auto hash = HashSecret(created.client_secret, options_.pbkdf2_iterations);
  if (!hash) return Fail(hash.error());
  projections::ClientRecord record{
      .client_id = created.client_id,
      .organization_id = created.organization_id,
      .name = created.name,
      .permissions = created.permissions,
      .secret_hash = std::move(*hash),
      .created_at = FormatTimestamp(clock_.NowMicros()),
  };
  eventstore::NewEvent event{
      .event_id = ids_.Next("evt_"),
      .type = std::string(projections::kClientCreatedType),
      .data = projections::WriteClientCreated(record),
      .actor = actor,
  };
  auto appended = store_.Append(ClientStreamId(created.client_id),
                                eventstore::ExpectedVersion::NoStream(), {std::move(event)});
  if (!appended) return Fail(appended.error());
  return created;
}

Status ClientCommandHandler::RevokeToken(const TokenRevocationRequest& token,
                                         const eventstore::Actor& actor) {
  projections::TokenRevocation revocation{
      .token_id = token.token_id,
      .client_id = token.client_id,
      .expires_at = token.expires_at,
      .revoked_at = FormatTimestamp(clock_.NowMicros()),
  };
  // The event id follows from the token id, so two concurrent revocations of one token store a
  // single event: the second append is an idempotent replay.
  eventstore::NewEvent event{
      .event_id = "evt_" + Sha256Hex("token.revoked\n" + token.token_id).substr(0, 32),
      .type = std::string(projections::kTokenRevokedType),
      .data = projections::WriteTokenRevoked(revocation),
      .actor = actor,
  };
  auto appended = store_.Append(ClientStreamId(token.client_id), eventstore::ExpectedVersion::Any(),
                                {std::move(event)});
  if (!appended) return Fail(appended.error());
  const uint64_t applied_size = appended->first_position.value() + appended->count;
  if (wait_applied_ && !wait_applied_(applied_size, options_.revocation_wait)) {
    return Fail(ErrorCode::kUnavailable,
                "the revocation is recorded but not yet in effect; retry the request");
  }
  return {};
}

boost::json::object CreatedClientJson(const CreatedClient& client) {
  boost::json::array permissions;
  for (const auto& p : client.permissions) permissions.emplace_back(p);
  return boost::json::object{
      {"clientId", client.client_id},
      {"clientSecret", client.client_secret},
      {"organizationId", client.organization_id},
      {"permissions", std::move(permissions)},
  };
}

}  // namespace esign::commands
