#include "projections/client_directory.h"

#include <boost/json.hpp>

#include "base/time_text.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/stream_kinds.h"
#include "projections/key_codec.h"

namespace esign::projections {
namespace {

std::string ClientKey(std::string_view client_id) {
  std::string key = "c/";
  AppendKeyPart(key, client_id);
  return key;
}

std::string RevokedKey(std::string_view token_id) {
  std::string key = "r/";
  AppendKeyPart(key, token_id);
  return key;
}

Result<boost::json::object> ParseObject(std::string_view json, std::string_view what) {
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(json, ec);
  if (ec || !value.is_object()) {
    return Fail(ErrorCode::kCorruption, std::string(what) + " is not a JSON object");
  }
  return std::move(value.as_object());
}

Result<std::string> StringField(const boost::json::object& object, std::string_view key,
                                std::string_view what) {
  const auto* value = object.if_contains(key);
  if (!value || !value->is_string() || value->as_string().empty()) {
    return Fail(ErrorCode::kCorruption,
                std::string(what) + " lacks the string field " + std::string(key));
  }
  return std::string(value->as_string());
}

// A revocation row is the event's data plus the clientId of its stream.
Result<TokenRevocation> ParseRevocationRow(std::string_view json) {
  auto object = ParseObject(json, "revocation row");
  if (!object) return Fail(object.error());
  auto client_id = StringField(*object, "clientId", "revocation row");
  if (!client_id) return Fail(client_id.error());
  return ParseTokenRevoked(json, *client_id);
}

}  // namespace

std::string WriteClientCreated(const ClientRecord& client) {
  return boost::json::serialize(event_codec::Write(
      esign::ClientCreatedData{client.client_id, client.organization_id, client.name,
                               client.permissions, client.secret_hash, client.created_at}));
}

// The log holds only what the service wrote: a client without its id, organization or secret is
// corruption, not a client to skip.
Result<ClientRecord> ParseClientCreated(std::string_view json) {
  auto data = event_codec::ParseData<esign::ClientCreatedData>(json);
  if (!data) return std::unexpected(data.error());
  if (data->client_id.empty() || data->organization_id.empty() || data->secret_hash.empty()) {
    return Fail(ErrorCode::kCorruption,
                "client.created data lacks the client, its organization "
                "or its secret");
  }
  return ClientRecord{.client_id = std::move(data->client_id),
                      .organization_id = std::move(data->organization_id),
                      .name = std::move(data->name),
                      .permissions = std::move(data->permissions),
                      .secret_hash = std::move(data->secret_hash),
                      .created_at = std::move(data->created_at)};
}

std::string WriteTokenRevoked(const TokenRevocation& revocation) {
  return boost::json::serialize(event_codec::Write(
      esign::TokenRevokedData{revocation.token_id, revocation.expires_at, revocation.revoked_at}));
}

Result<TokenRevocation> ParseTokenRevoked(std::string_view json, std::string_view client_id) {
  auto data = event_codec::ParseData<esign::TokenRevokedData>(json);
  if (!data) return std::unexpected(data.error());
  if (data->token_id.empty() || data->revoked_at.empty() || data->expires_at == 0) {
    return Fail(ErrorCode::kCorruption, "token.revoked data lacks the token or its expiry");
  }
  return TokenRevocation{.token_id = std::move(data->token_id),
                         .client_id = std::string(client_id),
                         .expires_at = data->expires_at,
                         .revoked_at = std::move(data->revoked_at)};
}

ClientDirectory::ClientPtr ClientDirectory::State::FindClient(std::string_view client_id) const {
  // A heterogeneous find needs C++20's transparent unordered look-up, which libstdc++ 12 lacks.
  const auto it = clients.find(std::string(client_id));
  return it == clients.end() ? nullptr : it->second;
}

bool ClientDirectory::State::IsRevoked(std::string_view token_id) const {
  return revoked.contains(std::string(token_id));
}

Status ClientDirectory::Apply(const eventstore::EventRecord& event, ViewBatch& batch) {
  const std::optional<std::string_view> stream_client =
      IdInStream(StreamKind::kClient, event.stream_id);
  if (!stream_client) return {};
  if (event.type == kClientCreatedType) {
    // The log holds only what the service wrote; anything else must stop the projector rather
    // than leave a client out.
    auto client = ParseClientCreated(event.data);
    if (!client) return Fail(client.error());
    if (client->client_id != *stream_client) {
      return Fail(ErrorCode::kCorruption, "client event " + event.event_id + " on stream " +
                                              event.stream_id + " names client " +
                                              client->client_id);
    }
    batch.Put(ClientKey(client->client_id), event.data);
    pending_clients_.push_back(std::make_shared<const ClientRecord>(std::move(*client)));
    return {};
  }
  if (event.type == kTokenRevokedType) {
    auto revocation = ParseTokenRevoked(event.data, *stream_client);
    if (!revocation) return Fail(revocation.error());
    boost::json::object row{
        {"tokenId", revocation->token_id},
        {"clientId", revocation->client_id},
        {"expiresAt", revocation->expires_at},
        {"revokedAt", revocation->revoked_at},
    };
    batch.Put(RevokedKey(revocation->token_id), boost::json::serialize(row));
    pending_revocations_.push_back(std::move(*revocation));
  }
  return {};
}

void ClientDirectory::Committed() {
  if (pending_clients_.empty() && pending_revocations_.empty()) return;
  // Copy on write: readers keep whatever state they already hold.
  auto next = std::make_shared<State>(*Snapshot());
  for (auto& client : pending_clients_) next->clients.insert_or_assign(client->client_id, client);
  for (auto& revocation : pending_revocations_) {
    next->revoked.insert_or_assign(std::move(revocation.token_id), revocation.expires_at);
  }
  pending_clients_.clear();
  pending_revocations_.clear();
  Publish(std::move(next));
}

Status ClientDirectory::Load(const ViewReader& rows) {
  pending_clients_.clear();
  pending_revocations_.clear();
  auto loaded = std::make_shared<State>();
  Status failure;
  Status scanned = rows.Scan("c/", "", false, [&](std::string_view key, std::string_view value) {
    auto client = ParseClientCreated(value);
    if (!client) {
      failure = Fail(ErrorCode::kCorruption,
                     "client row " + std::string(key) + ": " + client.error().message);
      return false;
    }
    auto ptr = std::make_shared<const ClientRecord>(std::move(*client));
    loaded->clients.insert_or_assign(ptr->client_id, std::move(ptr));
    return true;
  });
  if (!scanned) return scanned;
  if (!failure) return failure;
  scanned = rows.Scan("r/", "", false, [&](std::string_view key, std::string_view value) {
    auto revocation = ParseRevocationRow(value);
    if (!revocation) {
      failure = Fail(ErrorCode::kCorruption,
                     "revocation row " + std::string(key) + ": " + revocation.error().message);
      return false;
    }
    loaded->revoked.insert_or_assign(std::move(revocation->token_id), revocation->expires_at);
    return true;
  });
  if (!scanned) return scanned;
  if (!failure) return failure;
  Publish(std::move(loaded));
  return {};
}

std::shared_ptr<const ClientDirectory::State> ClientDirectory::Snapshot() const {
  std::lock_guard lock(mutex_);
  return published_;
}

void ClientDirectory::Publish(std::shared_ptr<State> next) {
  // A revoked token that has expired fails on its expiry; forgetting it keeps the set small.
  const int64_t now_seconds = clock_.NowMicros() / kMicrosPerSecond;
  std::erase_if(next->revoked, [&](const auto& entry) { return entry.second < now_seconds; });
  std::lock_guard lock(mutex_);
  published_ = std::move(next);
}

}  // namespace esign::projections
