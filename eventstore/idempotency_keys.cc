#include "eventstore/idempotency_keys.h"

#include <boost/json.hpp>

#include "base/sha256.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/stream_kinds.h"

namespace esign::eventstore {
namespace {

constexpr int kMaxAttempts = 5;
constexpr size_t kMaxStreamEvents = 100000;
constexpr std::string_view kReserved = IdempotencyReservedData::kType;
constexpr std::string_view kCompleted = IdempotencyCompletedData::kType;

// The id a reservation holds in the member `id_field` names.
const std::optional<std::string>& ResourceIdOf(const IdempotencyReservedData& data,
                                               std::string_view id_field) {
  if (id_field == "documentId") return data.document_id;
  if (id_field == "templateId") return data.template_id;
  if (id_field == "endpointId") return data.endpoint_id;
  return data.contract_id;
}

// The reservation an earlier request wrote, read from its stream's events.
Result<IdempotencyReservation> ReadReservation(const std::vector<EventRecord>& records,
                                               const IdempotentRequest& request,
                                               std::string_view id_field,
                                               IdempotencyReservation reservation) {
  auto first = event_codec::ParseData<IdempotencyReservedData>(records.front().data);
  if (!first) return std::unexpected(first.error());
  const std::optional<std::string>& id = ResourceIdOf(*first, id_field);
  // Another hash is another body or operation (the hash covers method and path).
  if (first->request_sha256 != request.request_sha256 || !id) {
    return Fail(ErrorCode::kIdempotencyKeyReused,
                "this Idempotency-Key was used with another request", "Idempotency-Key",
                "already used with a different body or operation");
  }
  reservation.resource_id = *id;
  for (const auto& record : records) {
    if (record.type != kCompleted) continue;
    auto done = event_codec::ParseData<IdempotencyCompletedData>(record.data);
    if (!done) return std::unexpected(done.error());
    if (done->version <= 0) {
      return Fail(ErrorCode::kCorruption, "idempotency.completed without a version");
    }
    reservation.completed_version = static_cast<uint64_t>(done->version);
  }
  return reservation;
}

}  // namespace

Result<IdempotencyReservation> ReserveIdempotencyKey(EventStore& store,
                                                     const IdempotentRequest& request,
                                                     std::string_view id_field,
                                                     std::string resource_id) {
  const std::string key_hash = Sha256Hex(request.client_id + "\n" + request.key);
  IdempotencyReservation reservation{StreamIdOf(StreamKind::kIdempotency, key_hash.substr(0, 40)),
                                     std::move(resource_id), std::nullopt};
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    auto records = store.ReadStream(reservation.stream, StreamVersion(1), 16);
    if (!records) return std::unexpected(records.error());
    if (!records->empty()) return ReadReservation(*records, request, id_field, reservation);
    NewEvent reserved;
    reserved.event_id = reservation.stream + "-reserved";
    reserved.type = std::string(kReserved);
    reserved.data = boost::json::serialize(boost::json::object{
        {"requestSha256", request.request_sha256}, {id_field, reservation.resource_id}});
    reserved.actor = request.actor;
    auto appended = store.Append(reservation.stream, ExpectedVersion::NoStream(), {reserved});
    if (appended) {
      if (!appended->replayed) return reservation;
      continue;  // written by an earlier attempt of this very request: read it back
    }
    if (appended.error().code != ErrorCode::kStreamVersionConflict) {
      return std::unexpected(appended.error());
    }
    // Another request with the same key won the race: read what it reserved.
  }
  return Fail(ErrorCode::kUnavailable, "could not reserve the Idempotency-Key");
}

Status CompleteIdempotencyKey(EventStore& store, const IdempotencyReservation& reservation,
                              uint64_t version, const Actor& actor) {
  NewEvent completed;
  completed.event_id = reservation.stream + "-completed";
  completed.type = std::string(kCompleted);
  completed.data = boost::json::serialize(boost::json::object{{"version", version}});
  completed.actor = actor;
  auto recorded = store.Append(reservation.stream, ExpectedVersion::Any(), {completed});
  if (!recorded) return std::unexpected(recorded.error());
  return {};
}

std::string SeededEventId(const IdempotencyReservation& reservation, size_t index) {
  return reservation.stream + "-" + std::to_string(index);
}

Result<std::optional<uint64_t>> FindSeededVersion(const EventStore& store,
                                                  std::string_view stream_id,
                                                  const IdempotencyReservation& reservation) {
  auto records = store.ReadStream(stream_id, StreamVersion(1), kMaxStreamEvents);
  if (!records) return std::unexpected(records.error());
  std::optional<uint64_t> done_at;
  for (const auto& record : *records) {
    if (record.event_id.starts_with(reservation.stream + "-")) done_at = record.version.value();
  }
  return done_at;
}

}  // namespace esign::eventstore
