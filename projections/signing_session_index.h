// SigningSessionIndex: where a signing session lives. Sessions are part of their contract's stream
// (domain/signing_session.h); the API names them by session id (/signing-sessions/{id}) or, on
// the hosted page, by the link's token, so this index maps both to the contract. The contract's
// own events then decide everything else (whether the session is open, whether the token is the
// current one), so the index never needs to forget a row.
//
// Rows (under "signing_sessions/"):  s/<sessionId>   -> contractId
//                                    t/<tokenSha256> -> "<contractId> <sessionId>"
//                                    e/<embedTokenSha256> -> "<contractId> <sessionId>"
// An embedded page's proof (signing_session.embed_opened) is a link token: under t/.
// Thread safety: the look-ups may be called from any thread and see committed rows; Apply is the
// projector's.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "projections/projection.h"
#include "projections/view_store.h"

namespace esign::projections {

inline constexpr std::string_view kSigningSessionIndexName = "signing_sessions";

struct SessionLocation {
  std::string contract_id;
  std::string session_id;
};

class SigningSessionIndex final : public Projection {
 public:
  // `views` is where the projector commits this projection's rows; it must outlive this object.
  explicit SigningSessionIndex(const ViewStore& views) : views_(views) {}

  std::string_view Name() const override { return kSigningSessionIndexName; }
  Status Apply(const eventstore::EventRecord& event, ViewBatch& batch) override;

  // std::nullopt for an unknown session or token.
  Result<std::optional<SessionLocation>> FindSession(std::string_view session_id) const;
  Result<std::optional<SessionLocation>> FindToken(std::string_view token_sha256) const;
  // The session an embed URL's token (signing_session.embed_url_issued) opens.
  Result<std::optional<SessionLocation>> FindEmbedToken(std::string_view token_sha256) const;

 private:
  const ViewStore& views_;
};

}  // namespace esign::projections
