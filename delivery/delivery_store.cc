#include "delivery/delivery_store.h"

#include <algorithm>
#include <boost/json.hpp>
#include <filesystem>
#include <set>
#include <system_error>

#include <rocksdb/write_batch.h>

#include "delivery/json_text.h"
#include "eventstore/rocksdb_checkpoint.h"
#include "eventstore/rocksdb_log.h"
#include "eventstore/rocksdb_status.h"
#include "eventstore/store_keys.h"

namespace esign::delivery {
namespace {

std::string PositionKey(char kind, std::string_view destination_id, uint64_t position) {
  const eventstore::U64Key encoded = eventstore::EncodeU64(position);
  std::string key(1, kind);
  key.append("/").append(destination_id).append("/");
  key.append(encoded.begin(), encoded.end());
  return key;
}

std::string RecordKey(std::string_view id) { return "d/" + std::string(id); }
std::string PendingKey(std::string_view id) { return "p/" + std::string(id); }
std::string ContractKey(const Delivery& d) {
  return PositionKey('c', d.contract_id, d.position) + "/" + d.id;
}
constexpr std::string_view kCheckpointKey = "m/checkpoint";
// Present once every pending record has its p/ key: stores written before webhook deliveries
// had the index get it at their first open.
constexpr std::string_view kPendingIndexKey = "m/pending-index";

// The keys of a delivery's record that Admit and Update both write. The pending index is kept
// for every channel: a restart sends what it names, whatever Kafka still holds.
enum class ListKey { kPut, kPresent };
void PutRecord(rocksdb::WriteBatch& batch, const Delivery& d, ListKey list = ListKey::kPut) {
  batch.Put(RecordKey(d.id), DeliveryToJson(d));
  if (list == ListKey::kPut) batch.Put(PositionKey('l', d.destination_id, d.position), d.id);
  if (d.state == DeliveryState::kPending) {
    batch.Put(PendingKey(d.id), "");
  } else {
    batch.Delete(PendingKey(d.id));
  }
}

rocksdb::WriteOptions Synced() {
  rocksdb::WriteOptions options;
  options.sync = true;
  return options;
}

DeliveryState StateOf(std::string_view name) {
  if (name == "succeeded") return DeliveryState::kSucceeded;
  return name == "failed" ? DeliveryState::kFailed : DeliveryState::kPending;
}

}  // namespace

std::string_view DeliveryStateName(DeliveryState state) {
  switch (state) {
    case DeliveryState::kPending:
      return "pending";
    case DeliveryState::kSucceeded:
      return "succeeded";
    case DeliveryState::kFailed:
      return "failed";
  }
  return "pending";
}

// Written once or twice per delivery: straight into the text (json_text.h), the same bytes as
// serializing an object with these members in this order.
std::string DeliveryToJson(const Delivery& d) {
  std::string out;
  out.reserve(256 + d.body.size() + 64 * d.attempts.size());
  const auto text = [&out](std::string_view name, std::string_view value, char before = ',') {
    out.append(1, before);
    AppendJsonName(out, name);
    AppendJsonString(out, value);
  };
  const auto integer = [&out](std::string_view name, auto value, char before = ',') {
    out.append(1, before);
    AppendJsonName(out, name);
    AppendJsonInteger(out, value);
  };
  text("id", d.id, '{');
  text("destinationId", d.destination_id);
  text("webhookId", d.webhook_id);
  text("eventId", d.event_id);
  text("eventType", d.event_type);
  text("contractId", d.contract_id);
  integer("position", d.position);
  text("body", d.body);
  text("state", DeliveryStateName(d.state));
  out.append(",\"attempts\":[");
  for (size_t i = 0; i < d.attempts.size(); ++i) {
    const DeliveryAttempt& a = d.attempts[i];
    if (i > 0) out.append(1, ',');
    integer("at", a.at_us, '{');
    integer("statusCode", static_cast<int64_t>(a.code));
    integer("latencyMs", a.latency_ms);
    text("error", a.error);
    out.append(1, '}');
  }
  out.append(1, ']');
  integer("roundStart", static_cast<uint64_t>(d.round_start));
  integer("nextAttemptAt", d.next_attempt_us);
  integer("createdAt", d.created_us);
  out.append(1, '}');
  return out;
}

Result<Delivery> ParseDelivery(std::string_view json) {
  boost::system::error_code ec;
  const boost::json::value value = boost::json::parse(json, ec);
  if (ec || !value.is_object()) return Fail(ErrorCode::kCorruption, "delivery record");
  try {
    const auto& o = value.as_object();
    Delivery d;
    d.id = o.at("id").as_string();
    // Records written before the core was channel-neutral name it endpointId.
    const auto* destination = o.if_contains("destinationId");
    d.destination_id = (destination ? *destination : o.at("endpointId")).as_string();
    d.webhook_id = o.at("webhookId").as_string();
    d.event_id = o.at("eventId").as_string();
    d.event_type = o.at("eventType").as_string();
    d.contract_id = o.at("contractId").as_string();
    d.position = o.at("position").to_number<uint64_t>();
    d.body = o.at("body").as_string();
    d.state = StateOf(o.at("state").as_string());
    for (const auto& a : o.at("attempts").as_array()) {
      d.attempts.push_back({a.at("at").to_number<int64_t>(),
                            static_cast<int>(a.at("statusCode").to_number<int64_t>()),
                            a.at("latencyMs").to_number<int64_t>(),
                            std::string(a.at("error").as_string())});
    }
    d.round_start = o.at("roundStart").to_number<size_t>();
    d.next_attempt_us = o.at("nextAttemptAt").to_number<int64_t>();
    d.created_us = o.at("createdAt").to_number<int64_t>();
    return d;
  } catch (const std::exception& e) {
    return Fail(ErrorCode::kCorruption, std::string("delivery record: ") + e.what());
  }
}

Result<std::unique_ptr<DeliveryStore>> DeliveryStore::Open(
    const std::string& data_dir, std::string_view name, bool outbox,
    const std::shared_ptr<const eventstore::StorageMemory>& memory) {
  const std::string path = (std::filesystem::path(data_dir) / name).string();
  // Made here rather than by RocksDB, which logs a missing directory as an error first.
  std::error_code made;
  std::filesystem::create_directories(path, made);
  if (made) return Fail(ErrorCode::kStorage, "cannot create " + path + ": " + made.message());
  auto full_disk = std::make_unique<eventstore::FullDiskRecovery>(path);
  rocksdb::Options options;
  options.create_if_missing = true;
  options.listeners.push_back(full_disk->MakeListener());
  options.info_log = eventstore::MakeRocksLog();
  if (memory != nullptr) {
    options.write_buffer_manager = memory->write_buffers;
    options.table_factory.reset(
        rocksdb::NewBlockBasedTableFactory(eventstore::CachedTableOptions(*memory)));
  }
  rocksdb::DB* db = nullptr;
  const rocksdb::Status status = rocksdb::DB::Open(options, path, &db);
  if (!status.ok()) return eventstore::FailFromRocks(status, "opening " + path);
  std::unique_ptr<DeliveryStore> store(
      new DeliveryStore(std::move(full_disk), std::unique_ptr<rocksdb::DB>(db), outbox));
  if (Status indexed = store->IndexPending(); !indexed) return std::unexpected(indexed.error());
  auto pending = store->Pending();
  if (!pending) return std::unexpected(pending.error());
  for (const Delivery& delivery : *pending) store->tally_.Saw(delivery);
  return store;
}

Status DeliveryStore::IndexPending() {
  std::string marker;
  const rocksdb::Status found = db_->Get(rocksdb::ReadOptions(), kPendingIndexKey, &marker);
  if (found.ok()) return {};
  if (!found.IsNotFound()) return eventstore::FailFromRocks(found, "reading the pending index");
  rocksdb::WriteBatch batch;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek("d/"); it->Valid() && it->key().starts_with("d/"); it->Next()) {
    auto delivery = ParseDelivery(it->value().ToStringView());
    if (!delivery) return std::unexpected(delivery.error());
    if (delivery->state == DeliveryState::kPending) batch.Put(PendingKey(delivery->id), "");
  }
  if (!it->status().ok()) return eventstore::FailFromRocks(it->status(), "indexing deliveries");
  batch.Put(kPendingIndexKey, "");
  const rocksdb::Status status = Write(Synced(), batch);
  if (!status.ok()) return eventstore::FailFromRocks(status, "indexing pending deliveries");
  return {};
}

rocksdb::Status DeliveryStore::Write(const rocksdb::WriteOptions& options,
                                     rocksdb::WriteBatch& batch) {
  full_disk_->BeforeWrite(*db_);
  rocksdb::Status status = db_->Write(options, &batch);
  full_disk_->AfterWrite(status);
  return status;
}

DeliveryStore::~DeliveryStore() = default;

Status DeliveryStore::CopyTo(const std::string& target_dir) const {
  return eventstore::CheckpointDatabase(*db_, target_dir);
}

Result<std::vector<Delivery>> DeliveryStore::Admit(std::vector<Delivery> deliveries,
                                                   std::vector<std::string>* stored_now) {
  std::vector<Delivery> pending;
  std::vector<std::string> stored_ids;
  rocksdb::WriteBatch batch;
  std::set<std::string> in_batch;
  for (Delivery& d : deliveries) {
    if (!in_batch.insert(d.id).second) continue;
    auto stored = Get(d.id);
    if (!stored) return std::unexpected(stored.error());
    if (*stored) {
      if ((*stored)->state == DeliveryState::kPending) pending.push_back(std::move(**stored));
      continue;
    }
    d.state = DeliveryState::kPending;
    PutRecord(batch, d);
    if (outbox_) batch.Put(ContractKey(d), d.id);
    if (stored_now != nullptr) stored_ids.push_back(d.id);
    pending.push_back(std::move(d));
  }
  if (batch.Count() == 0) return pending;
  const rocksdb::Status status = Write(Synced(), batch);
  if (!status.ok()) return eventstore::FailFromRocks(status, "storing deliveries");
  for (const Delivery& d : pending) tally_.Saw(d);
  if (stored_now != nullptr) *stored_now = std::move(stored_ids);
  return pending;
}

Status DeliveryStore::Update(const Delivery& delivery) {
  rocksdb::WriteBatch batch;
  PutRecord(batch, delivery);
  // Not synced: an outcome lost with the machine (the process's writes survive its own crash)
  // only means the delivery is sent again, with the same webhook-id.
  const rocksdb::Status status = Write(rocksdb::WriteOptions(), batch);
  if (!status.ok()) return eventstore::FailFromRocks(status, "updating a delivery");
  tally_.Saw(delivery);
  return {};
}

Status DeliveryStore::UpdateAdmitted(const Delivery& delivery) {
  return UpdateAdmitted(std::span<const Delivery>(&delivery, 1));
}

Status DeliveryStore::UpdateAdmitted(std::span<const Delivery> deliveries) {
  rocksdb::WriteBatch batch;
  for (const Delivery& delivery : deliveries) PutRecord(batch, delivery, ListKey::kPresent);
  // Not synced, as Update.
  const rocksdb::Status status = Write(rocksdb::WriteOptions(), batch);
  if (!status.ok()) return eventstore::FailFromRocks(status, "updating deliveries");
  for (const Delivery& delivery : deliveries) tally_.Saw(delivery);
  return {};
}

Result<std::optional<Delivery>> DeliveryStore::Get(std::string_view delivery_id) const {
  std::string value;
  const rocksdb::Status status = db_->Get(rocksdb::ReadOptions(), RecordKey(delivery_id), &value);
  if (status.IsNotFound()) return std::optional<Delivery>();
  if (!status.ok()) return eventstore::FailFromRocks(status, "reading a delivery");
  auto delivery = ParseDelivery(value);
  if (!delivery) return std::unexpected(delivery.error());
  return std::optional<Delivery>(std::move(*delivery));
}

Result<std::vector<Delivery>> DeliveryStore::List(std::string_view destination_id, uint64_t before,
                                                  size_t limit) const {
  std::vector<Delivery> items;
  const std::string prefix = "l/" + std::string(destination_id) + "/";
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  if (before == 0) {
    it->SeekForPrev(prefix + std::string(8, '\xff'));
  } else {
    it->SeekForPrev(PositionKey('l', destination_id, before - 1));
  }
  for (; it->Valid() && it->key().starts_with(prefix) && items.size() < limit; it->Prev()) {
    auto delivery = Get(it->value().ToStringView());
    if (!delivery) return std::unexpected(delivery.error());
    if (*delivery) items.push_back(std::move(**delivery));
  }
  if (!it->status().ok()) return eventstore::FailFromRocks(it->status(), "listing deliveries");
  return items;
}

}  // namespace esign::delivery

namespace esign::delivery {

Result<std::vector<Delivery>> DeliveryStore::OfContract(std::string_view contract_id,
                                                        size_t limit) const {
  std::vector<Delivery> items;
  const std::string prefix = "c/" + std::string(contract_id) + "/";
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix) && items.size() < limit;
       it->Next()) {
    auto delivery = Get(it->value().ToStringView());
    if (!delivery) return std::unexpected(delivery.error());
    if (*delivery) items.push_back(std::move(**delivery));
  }
  if (!it->status().ok()) return eventstore::FailFromRocks(it->status(), "listing deliveries");
  return items;
}

Result<std::vector<Delivery>> DeliveryStore::Pending() const {
  std::vector<Delivery> items;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek("p/"); it->Valid() && it->key().starts_with("p/"); it->Next()) {
    auto delivery = Get(it->key().ToStringView().substr(2));
    if (!delivery) return std::unexpected(delivery.error());
    if (*delivery && (*delivery)->state == DeliveryState::kPending) {
      items.push_back(std::move(**delivery));
    }
  }
  if (!it->status().ok()) return eventstore::FailFromRocks(it->status(), "listing deliveries");
  std::sort(items.begin(), items.end(),
            [](const Delivery& a, const Delivery& b) { return a.position < b.position; });
  return items;
}

Result<std::optional<uint64_t>> DeliveryStore::Checkpoint() const {
  std::string value;
  const rocksdb::Status status = db_->Get(rocksdb::ReadOptions(), kCheckpointKey, &value);
  if (status.IsNotFound()) return std::optional<uint64_t>();
  if (!status.ok()) return eventstore::FailFromRocks(status, "reading the checkpoint");
  const std::optional<uint64_t> position = eventstore::DecodeU64(value);
  if (!position) return Fail(ErrorCode::kCorruption, "delivery checkpoint");
  return position;
}

Status DeliveryStore::SetCheckpoint(uint64_t position, Durability durability) {
  const eventstore::U64Key encoded = eventstore::EncodeU64(position);
  rocksdb::WriteBatch batch;
  batch.Put(kCheckpointKey, rocksdb::Slice(encoded.data(), encoded.size())).PermitUncheckedError();
  const rocksdb::Status status =
      Write(durability == Durability::kSynced ? Synced() : rocksdb::WriteOptions(), batch);
  if (!status.ok()) return eventstore::FailFromRocks(status, "storing the checkpoint");
  return {};
}

}  // namespace esign::delivery
