#include "projections/signing_session_index.h"

#include <boost/json.hpp>

#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "projections/view_batch.h"

namespace esign::projections {
namespace {

using SessionEvents = boost::mp11::mp_list<SessionCreatedData, SessionRefreshedData,
                                           SessionEmbedUrlIssuedData, SessionEmbedOpenedData>;

std::string SessionKey(std::string_view session_id) { return "s/" + std::string(session_id); }
std::string TokenKey(std::string_view token_sha256) { return "t/" + std::string(token_sha256); }
std::string EmbedKey(std::string_view token_sha256) { return "e/" + std::string(token_sha256); }

// A hosted session's link (or embed URL, under `key`) finds its contract and session.
void IndexToken(ViewBatch& batch, const std::string& contract_id, const std::string& session_id,
                const std::optional<std::string>& token_sha256,
                std::string (*key)(std::string_view) = TokenKey) {
  if (token_sha256 && !token_sha256->empty()) {
    batch.Put(key(*token_sha256), contract_id + " " + session_id);
  }
}

Result<std::optional<SessionLocation>> LocationAt(const ViewStore& views, const std::string& key) {
  const std::unique_ptr<const RowReader> snapshot = views.Snapshot();
  auto row = PrefixedReader(*snapshot, kSigningSessionIndexName).Get(key);
  if (!row) return Fail(row.error());
  if (!*row) return std::optional<SessionLocation>();
  const size_t space = (*row)->find(' ');
  if (space == std::string::npos) {
    return Fail(ErrorCode::kCorruption, "malformed signing session index row");
  }
  return std::optional<SessionLocation>(
      SessionLocation{(*row)->substr(0, space), (*row)->substr(space + 1)});
}

}  // namespace

Status SigningSessionIndex::Apply(const eventstore::EventRecord& event, ViewBatch& batch) {
  const auto visited = event_codec::VisitText<SessionEvents>(
      event.type, event.data,
      event_codec::Overloaded{
          [&](const SessionCreatedData& data) {
            batch.Put(SessionKey(data.session_id), data.contract_id);
            IndexToken(batch, data.contract_id, data.session_id, data.token_sha256);
          },
          [&](const SessionRefreshedData& data) {
            IndexToken(batch, data.contract_id, data.session_id, data.token_sha256);
          },
          [&](const SessionEmbedUrlIssuedData& data) {
            IndexToken(batch, data.contract_id, data.session_id, data.embed_token_sha256, EmbedKey);
          },
          [&](const SessionEmbedOpenedData& data) {
            IndexToken(batch, data.contract_id, data.session_id, data.page_token_sha256);
          }});
  if (visited == event_codec::Visited::kUnreadable) {
    return Fail(ErrorCode::kCorruption, "session event " + event.event_id + " does not read");
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
  return LocationAt(views_, TokenKey(token_sha256));
}

Result<std::optional<SessionLocation>> SigningSessionIndex::FindEmbedToken(
    std::string_view token_sha256) const {
  return LocationAt(views_, EmbedKey(token_sha256));
}

}  // namespace esign::projections
