// DeliveryStore: the deliveries and their attempts (the delivery core's records: nothing in them
// is particular to HTTP, so a second channel keeps its records the same way), operational data kept
// apart from the event log (they are not facts of the contract, and retries write often): a RocksDB
// database of its own per channel, <data_dir>/webhook-deliveries, mail or provider-notices. Keys:
//   d/<deliveryId>                     -> the delivery as JSON (state, attempts, next attempt)
//   l/<destinationId>/<BE u64 position> -> deliveryId, every delivery, for the destination's list
//   p/<deliveryId>                     -> nothing: the delivery is pending (what a restart sends,
//                                         whatever the source of its events still holds)
//   m/pending-index                    -> nothing: every pending record has its p/ key
// and, for an outbox that reads the log itself (mail, provider notices), also:
//   c/<contractId>/<BE u64 position>/<deliveryId> -> deliveryId, for the contract's list
//   m/checkpoint                       -> BE u64: where the outbox goes on reading the log
// A delivery's id is derived from its destination and event, so the same event read twice from the
// topic (after a restart) is recognized and not delivered again.
// Thread safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "delivery/delivery_tally.h"
#include "domain/result.h"
#include "eventstore/full_disk_recovery.h"
#include "eventstore/storage_memory.h"

namespace esign::delivery {

// One attempt, in the delivery core's terms (attempt_outcome.h), whatever the channel.
struct DeliveryAttempt {
  int64_t at_us = 0;  // when it was made
  // The channel's numeric answer (an HTTP status); 0 when none came. "statusCode" in the JSON.
  int code = 0;
  int64_t latency_ms = 0;
  std::string error;  // why it failed (AttemptOutcome::reply); empty when the code says it
  friend bool operator==(const DeliveryAttempt&, const DeliveryAttempt&) = default;
};

// A webhook delivery is pending until a 2xx: failures only schedule the next attempt, and an
// endpoint that runs out of attempts is disabled with its deliveries still pending. A message
// that its destination refuses for good (a mail server's 5xx) has failed.
enum class DeliveryState { kPending, kSucceeded, kFailed };
std::string_view DeliveryStateName(DeliveryState state);

struct Delivery {
  std::string id;
  std::string destination_id;
  std::string webhook_id;
  std::string event_id;
  std::string event_type;
  std::string contract_id;
  uint64_t position = 0;
  std::string body;
  DeliveryState state = DeliveryState::kPending;
  std::vector<DeliveryAttempt> attempts;
  // Attempts before this index belong to an earlier round (before the endpoint was re-enabled, or
  // before a manual retry): the retry schedule counts only the current round's failures.
  size_t round_start = 0;
  int64_t next_attempt_us = 0;
  int64_t created_us = 0;
  friend bool operator==(const Delivery&, const Delivery&) = default;
};

class DeliveryStore {
 public:
  // `outbox`: keep the contract index (OfContract). A store written before the pending index
  // existed for every channel gets it here, with one pass over its records. `memory`: the block
  // cache and memtable budget shared with the process's other databases (nullptr: RocksDB's own
  // defaults for this database alone).
  static Result<std::unique_ptr<DeliveryStore>> Open(
      const std::string& data_dir, std::string_view name = "webhook-deliveries",
      bool outbox = false,
      const std::shared_ptr<const eventstore::StorageMemory>& memory = nullptr);
  ~DeliveryStore();

  // Stores the deliveries whose id is not stored yet, as pending, in one synced write. Returns the
  // pending ones, as stored: those it stored, and those stored earlier that are still pending
  // (their event was read again, after a restart or a rebalance). `stored_now`, when given,
  // receives the ids of those it stored.
  Result<std::vector<Delivery>> Admit(std::vector<Delivery> deliveries,
                                      std::vector<std::string>* stored_now = nullptr);
  // Stores a delivery, new or not; Not synced (see the
  // .cc).
  Status Update(const Delivery& delivery);
  // The same for a delivery this store holds already (admitted or updated here): its record only,
  // the endpoint's list already names it.
  Status UpdateAdmitted(const Delivery& delivery);
  // The same for many, in one write (in order: a later record of one delivery wins).
  Status UpdateAdmitted(std::span<const Delivery> deliveries);
  Result<std::optional<Delivery>> Get(std::string_view delivery_id) const;
  // The destination's deliveries, newest first, with a position below `before` (0: from the
  // newest).
  Result<std::vector<Delivery>> List(std::string_view destination_id, uint64_t before,
                                     size_t limit) const;
  // The contract's deliveries in log order, at most `limit`.
  Result<std::vector<Delivery>> OfContract(std::string_view contract_id, size_t limit) const;
  // Every pending delivery, in log order (what a restart sends).
  Result<std::vector<Delivery>> Pending() const;
  // The position a reader of the log stored with SetCheckpoint; nothing before the first.
  Result<std::optional<uint64_t>> Checkpoint() const;
  // kSynced: durable when it returns. kOrdered: durable with the next synced write of this store,
  // and never ahead of an earlier write (one WAL orders them): for a reader whose deliveries are
  // synced as they are admitted, a checkpoint lost with the machine only makes it read those
  // events again, and their deliveries are recognised by their ids.
  enum class Durability { kSynced, kOrdered };
  Status SetCheckpoint(uint64_t position, Durability durability = Durability::kSynced);

  // A consistent copy of the records in `target_dir`, which must not exist
  // (eventstore/rocksdb_checkpoint.h), for backups.
  Status CopyTo(const std::string& target_dir) const;

  // The pending deliveries and the outcomes written through this store since it was opened,
  // without reading the records (delivery_tally.h), for /metrics.
  DeliveryTally::Counts Counts() const { return tally_.counts(); }

 private:
  DeliveryStore(std::unique_ptr<eventstore::FullDiskRecovery> full_disk,
                std::unique_ptr<rocksdb::DB> db, bool outbox)
      : full_disk_(std::move(full_disk)), db_(std::move(db)), outbox_(outbox) {}
  Status IndexPending();
  // Writes through here, so that writes resume by themselves once a full disk has space again.
  rocksdb::Status Write(const rocksdb::WriteOptions& options, rocksdb::WriteBatch& batch);

  std::unique_ptr<eventstore::FullDiskRecovery> full_disk_;  // before db_: its listener outlives it
  std::unique_ptr<rocksdb::DB> db_;
  const bool outbox_;
  DeliveryTally tally_;
};

std::string DeliveryToJson(const Delivery& delivery);
Result<Delivery> ParseDelivery(std::string_view json);

}  // namespace esign::delivery
