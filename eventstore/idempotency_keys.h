// Idempotency-Key reservations, shared by every operation that accepts the header (contracts,
// webhook endpoints). The first use of a key reserves it in its own stream
// "idempotency-<first 40 hex digits of SHA-256(client id, key)>" with
//   idempotency.reserved   {requestSha256, <id field>: the resource the request creates or changes}
// and, once the operation's events are durable,
//   idempotency.completed  {version: the resource's stream version after them}.
// A later request with the same key and request hash learns the reservation (and the version once
// completed); with another hash, kIdempotencyKeyReused. Keys are scoped per client by the hash of
// the stream id. The stream id also seeds the ids of the operation's events (SeededEventId), so a
// retry after a crash between the operation and its completion finds them (FindSeededVersion)
// instead of repeating the operation. Reservations are kept as long as the log (append-only).
// Thread safety: free functions over a thread-safe store.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "domain/result.h"
#include "eventstore/event_store.h"

namespace esign::eventstore {

struct IdempotentRequest {
  std::string client_id;
  std::string key;             // the Idempotency-Key header
  std::string request_sha256;  // of method, path and body: the same key elsewhere is a reuse
  Actor actor;                 // recorded with the reservation's events
};

struct IdempotencyReservation {
  std::string stream;                         // "idempotency-..."
  std::string resource_id;                    // the one the first request reserved
  std::optional<uint64_t> completed_version;  // set once the first request completed
};

// Reserves the key for `resource_id`, or returns the reservation an earlier request with the same
// key and hash made. `id_field` names the resource id in the reservation ("contractId",
// "endpointId"). kIdempotencyKeyReused when the key was used with another request.
Result<IdempotencyReservation> ReserveIdempotencyKey(EventStore& store,
                                                     const IdempotentRequest& request,
                                                     std::string_view id_field,
                                                     std::string resource_id);

// Records that the operation is done and left its resource at `version`.
Status CompleteIdempotencyKey(EventStore& store, const IdempotencyReservation& reservation,
                              uint64_t version, const Actor& actor);

// The id of the index-th event the reserved operation appends.
std::string SeededEventId(const IdempotencyReservation& reservation, size_t index);

// The stream version after the last event of `stream_id` whose id the reservation seeded: the
// operation's outcome when it was appended but not completed (a crash in between); nullopt when
// the stream holds none.
Result<std::optional<uint64_t>> FindSeededVersion(const EventStore& store,
                                                  std::string_view stream_id,
                                                  const IdempotencyReservation& reservation);

}  // namespace esign::eventstore
