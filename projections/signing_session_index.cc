#include "projections/signing_session_index.h"

#include <boost/json.hpp>

#include "base/json_read.h"
#include "projections/view_batch.h"

namespace esign::projections {
namespace {

constexpr std::string_view kCreated = "signing_session.created";
constexpr std::string_view kRefreshed = "signing_session.refreshed";

std::string SessionKey(std::string_view session_id) { return "s/" + std::string(session_id); }
std::string TokenKey(std::string_view token_sha256) { return "t/" + std::string(token_sha256); }

}  // namespace

Status SigningSessionIndex::Apply(const eventstore::EventRecord& event, ViewBatch& batch) {
  if (event.type != kCreated && event.type != kRefreshed) return {};
  boost::system::error_code ec;
  boost::json::value parsed = boost::json::parse(event.data, ec);
  if (ec || !parsed.is_object()) {
    return Fail(ErrorCode::kCorruption, "session event " + event.event_id + " is not an object");
  }
  const auto& data = parsed.get_object();
  const std::string contract_id = StringMemberOrEmpty(data, "contractId");
  const std::string session_id = StringMemberOrEmpty(data, "sessionId");
  if (event.type == kCreated) batch.Put(SessionKey(session_id), contract_id);
  if (const std::string token = StringMemberOrEmpty(data, "tokenSha256"); !token.empty()) {
    batch.Put(TokenKey(token), contract_id + " " + session_id);
  }
  return {};
}

Result<std::optional<SessionLocation>> SigningSessionIndex::FindSession(
    std::string_view session_id) const {
  const std::unique_ptr<const RowReader> snapshot = views_.Snapshot();
  auto row = PrefixedReader(*snapshot, kSigningSessionIndexName).Get(SessionKey(session_id));
  if (!row) return Fail(row.error());
  if (!*row) return std::optional<SessionLocation>();
  return std::optional<SessionLocation>(SessionLocation{std::move(**row), std::string(session_id)});
}

Result<std::optional<SessionLocation>> SigningSessionIndex::FindToken(
    std::string_view token_sha256) const {
  const std::unique_ptr<const RowReader> snapshot = views_.Snapshot();
  auto row = PrefixedReader(*snapshot, kSigningSessionIndexName).Get(TokenKey(token_sha256));
  if (!row) return Fail(row.error());
  if (!*row) return std::optional<SessionLocation>();
  const size_t space = (*row)->find(' ');
  if (space == std::string::npos) {
    return Fail(ErrorCode::kCorruption, "malformed signing session index row");
  }
  return std::optional<SessionLocation>(
      SessionLocation{(*row)->substr(0, space), (*row)->substr(space + 1)});
}

}  // namespace esign::projections
