// ClientDirectory: the machine clients and the revoked access tokens, built from the events of the
// streams "client-<clientId>":
//   client.created  {clientId, organizationId, name, permissions, secretHash, createdAt}
//   token.revoked   {tokenId, expiresAt (the token's exp, seconds since the epoch), revokedAt}
//
// Rows (under "clients/"):  c/<clientId> -> the client.created data
//                           r/<tokenId>  -> {tokenId, clientId, expiresAt, revokedAt}
// Besides the rows it keeps the whole directory in memory (loaded in Load, published in
// Committed), because every authenticated request looks a client and a token up: a look-up costs
// a lock, a reference count and two hash searches, never a storage read. Revocations of tokens
// that have expired are left out of memory (an expired token fails on its own); their rows stay,
// so a rebuilt view equals the live one.
//
// Thread safety: Snapshot and the look-ups may be called from any thread; they see what is
// committed. Apply, Committed and Load are the projector's.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "domain/clock.h"
#include "projections/projection.h"

namespace esign::projections {

inline constexpr std::string_view kClientCreatedType = "client.created";
inline constexpr std::string_view kTokenRevokedType = "token.revoked";

struct ClientRecord {
  std::string client_id;
  std::string organization_id;
  std::string name;
  std::vector<std::string> permissions;
  std::string secret_hash;  // "pbkdf2-sha256$<iterations>$<salt>$<hash>"
  std::string created_at;   // RFC 3339
};

struct TokenRevocation {
  std::string token_id;
  std::string client_id;
  int64_t expires_at = 0;  // seconds since the epoch
  std::string revoked_at;  // RFC 3339
};

// The data of the two events, as JSON text, and back; parsing refuses anything else with
// kCorruption, since only the service writes these events.
std::string WriteClientCreated(const ClientRecord& client);
Result<ClientRecord> ParseClientCreated(std::string_view json);
std::string WriteTokenRevoked(const TokenRevocation& revocation);
// `client_id` comes from the stream.
Result<TokenRevocation> ParseTokenRevoked(std::string_view json, std::string_view client_id);

class ClientDirectory final : public Projection {
 public:
  using ClientPtr = std::shared_ptr<const ClientRecord>;

  // One committed state of the directory; immutable.
  struct State {
    std::unordered_map<std::string, ClientPtr> clients;  // by clientId
    std::unordered_map<std::string, int64_t> revoked;    // tokenId -> expiresAt
    ClientPtr FindClient(std::string_view client_id) const;
    bool IsRevoked(std::string_view token_id) const;
  };

  // `clock` decides which revocations have expired; it must outlive the directory.
  explicit ClientDirectory(const Clock& clock = SystemClock::Instance()) : clock_(clock) {}

  std::string_view Name() const override { return "clients"; }
  Status Apply(const eventstore::EventRecord& event, ViewBatch& batch) override;
  void Committed() override;
  Status Load(const ViewReader& rows) override;

  // The committed state; hold it for the look-ups of one request.
  std::shared_ptr<const State> Snapshot() const;
  ClientPtr FindClient(std::string_view client_id) const {
    return Snapshot()->FindClient(client_id);
  }
  bool IsRevoked(std::string_view token_id) const { return Snapshot()->IsRevoked(token_id); }
  size_t ClientCount() const { return Snapshot()->clients.size(); }

 private:
  void Publish(std::shared_ptr<State> next);

  const Clock& clock_;

  // Applied by the batch in progress, not yet committed (projector thread only).
  std::vector<ClientPtr> pending_clients_;
  std::vector<TokenRevocation> pending_revocations_;

  mutable std::mutex mutex_;
  std::shared_ptr<const State> published_ = std::make_shared<State>();  // guarded by mutex_
};

}  // namespace esign::projections
