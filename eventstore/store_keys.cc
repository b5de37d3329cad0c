#include "eventstore/store_keys.h"

#include <cstring>

namespace esign::eventstore {
namespace {

void PutU64(char* out, uint64_t value) {
  for (int i = 7; i >= 0; --i) {
    out[i] = static_cast<char>(value & 0xff);
    value >>= 8;
  }
}

uint64_t GetU64(const char* in) {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value = (value << 8) | static_cast<uint8_t>(in[i]);
  return value;
}

}  // namespace

U64Key EncodeU64(uint64_t value) {
  U64Key key;
  PutU64(key.data(), value);
  return key;
}

std::optional<uint64_t> DecodeU64(std::string_view bytes) {
  if (bytes.size() != 8) return std::nullopt;
  return GetU64(bytes.data());
}

std::string StreamKey(std::string_view stream_id, StreamVersion version) {
  std::string key;
  key.resize(stream_id.size() + 9);
  std::memcpy(key.data(), stream_id.data(), stream_id.size());
  key[stream_id.size()] = '\0';
  PutU64(key.data() + stream_id.size() + 1, version.value());
  return key;
}

std::optional<StreamVersion> StreamKeyVersion(std::string_view key, std::string_view stream_id) {
  if (key.size() != stream_id.size() + 9 || !key.starts_with(stream_id) ||
      key[stream_id.size()] != '\0') {
    return std::nullopt;
  }
  return StreamVersion(GetU64(key.data() + stream_id.size() + 1));
}

NodeKey EncodeNodeKey(NodeId id) {
  NodeKey key;
  key[0] = static_cast<char>(id.level);
  PutU64(key.data() + 1, id.index);
  return key;
}

std::optional<NodeId> DecodeNodeKey(std::string_view key) {
  if (key.size() != 9) return std::nullopt;
  return NodeId{static_cast<uint8_t>(key[0]), GetU64(key.data() + 1)};
}

std::optional<Hash> DecodeNodeHash(std::string_view value) {
  Hash hash;
  if (value.size() != hash.size()) return std::nullopt;
  std::memcpy(hash.data(), value.data(), hash.size());
  return hash;
}

EventIdValue EncodeEventIdEntry(const EventIdEntry& entry) {
  EventIdValue value;
  PutU64(value.data(), entry.position.value());
  PutU64(value.data() + 8, entry.append_first.value());
  PutU64(value.data() + 16, entry.version.value());
  return value;
}

std::optional<EventIdEntry> DecodeEventIdEntry(std::string_view bytes) {
  if (bytes.size() != 24) return std::nullopt;
  return EventIdEntry{GlobalPosition(GetU64(bytes.data())),
                      GlobalPosition(GetU64(bytes.data() + 8)),
                      StreamVersion(GetU64(bytes.data() + 16))};
}

}  // namespace esign::eventstore
