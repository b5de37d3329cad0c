// Binary keys and small values of the stores' indexes. Big-endian integers keep the byte order
// of keys equal to their numeric order, so iterating a RocksDB family walks positions, versions and
// ledger levels in order.
//
// Thread safety: pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "domain/strong_types.h"
#include "eventstore/merkle.h"

namespace esign::eventstore {

using U64Key = std::array<char, 8>;

U64Key EncodeU64(uint64_t value);
// nullopt unless `bytes` is exactly 8 bytes.
std::optional<uint64_t> DecodeU64(std::string_view bytes);

// streams family: stream id, 0x00, big-endian version. Stream ids hold no 0x00 byte, so the keys of
// one stream are contiguous and ordered by version.
std::string StreamKey(std::string_view stream_id, StreamVersion version);
// The version in a stream key, when the key belongs to `stream_id`.
std::optional<StreamVersion> StreamKeyVersion(std::string_view key, std::string_view stream_id);

// ledger_nodes family: level (1 byte) then big-endian index.
using NodeKey = std::array<char, 9>;
NodeKey EncodeNodeKey(NodeId id);
std::optional<NodeId> DecodeNodeKey(std::string_view key);
// ledger_nodes family value: the node's 32-byte hash; nullopt for any other length.
std::optional<Hash> DecodeNodeHash(std::string_view value);

// event_ids family value: where an event went and which append wrote it, so a retried append can be
// told apart from a new one that reuses some ids.
struct EventIdEntry {
  GlobalPosition position;
  GlobalPosition append_first;  // position of the first event of the append that wrote it
  StreamVersion version;        // of its stream, after it
  friend bool operator==(const EventIdEntry&, const EventIdEntry&) = default;
};
using EventIdValue = std::array<char, 24>;
EventIdValue EncodeEventIdEntry(const EventIdEntry& entry);
std::optional<EventIdEntry> DecodeEventIdEntry(std::string_view bytes);

}  // namespace esign::eventstore
