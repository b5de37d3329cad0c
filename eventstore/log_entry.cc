#include "eventstore/log_entry.h"

#include <cstring>
#include <optional>

#include "base/hmac.h"

namespace esign::eventstore {
namespace {

constexpr std::string_view kMagic{"CLOG\x01", 5};
constexpr size_t kMacBytes = 32;
constexpr size_t kSha256HexBytes = 64;

void PutU32(std::string& out, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(value >> shift));
}

void PutU64(std::string& out, uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>(value >> shift));
}

void PutHash(std::string& out, const Hash& hash) {
  out.append(reinterpret_cast<const char*>(hash.data()), hash.size());
}

// Reads the body front to back; every read fails once the bytes run out.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : rest_(bytes) {}

  std::optional<uint64_t> U(size_t width) {
    if (rest_.size() < width) return std::nullopt;
    uint64_t value = 0;
    for (size_t i = 0; i < width; ++i) value = (value << 8) | static_cast<unsigned char>(rest_[i]);
    rest_.remove_prefix(width);
    return value;
  }
  std::optional<std::string_view> Bytes(size_t count) {
    if (rest_.size() < count) return std::nullopt;
    std::string_view taken = rest_.substr(0, count);
    rest_.remove_prefix(count);
    return taken;
  }
  std::optional<Hash> HashValue() {
    auto bytes = Bytes(Hash{}.size());
    if (!bytes) return std::nullopt;
    Hash hash;
    std::memcpy(hash.data(), bytes->data(), hash.size());
    return hash;
  }
  std::string_view Rest() {
    std::string_view rest = rest_;
    rest_ = {};
    return rest;
  }
  bool Empty() const { return rest_.empty(); }

 private:
  std::string_view rest_;
};

std::unexpected<Error> Malformed(std::string_view what) {
  return Fail(ErrorCode::kValidationFailed, "malformed log entry: " + std::string(what));
}

}  // namespace

std::string_view ToString(LogEntryKind kind) {
  switch (kind) {
    case LogEntryKind::kBatch:
      return "batch";
    case LogEntryKind::kBlob:
      return "blob";
    case LogEntryKind::kHead:
      return "head";
    case LogEntryKind::kClaim:
      return "claim";
  }
  return "unknown";
}

std::string EncodeLogEntry(const LogEntry& entry, std::string_view key) {
  std::string out(kMagic);
  out.push_back(static_cast<char>(entry.kind));
  PutU64(out, entry.epoch);
  PutU64(out, entry.size);
  switch (entry.kind) {
    case LogEntryKind::kBatch: {
      size_t record_bytes = 0;
      for (const std::string& record : entry.records) record_bytes += 4 + record.size();
      out.reserve(out.size() + 40 + 4 * entry.append_sizes.size() + record_bytes + kMacBytes);
      PutHash(out, entry.root);
      PutU32(out, static_cast<uint32_t>(entry.append_sizes.size()));
      for (const uint32_t count : entry.append_sizes) PutU32(out, count);
      PutU32(out, static_cast<uint32_t>(entry.records.size()));
      for (const std::string& record : entry.records) {
        PutU32(out, static_cast<uint32_t>(record.size()));
        out.append(record);
      }
      break;
    }
    case LogEntryKind::kBlob:
      out.append(entry.sha256);
      PutU32(out, entry.chunk);
      PutU32(out, entry.chunks);
      out.append(entry.bytes);
      break;
    case LogEntryKind::kHead:
      out.append(entry.bytes);
      break;
    case LogEntryKind::kClaim:
      PutHash(out, entry.root);
      out.append(entry.bytes);
      break;
  }
  const Sha256Digest mac = HmacSha256(key, out);
  out.append(DigestBytes(mac));
  return out;
}

Result<LogEntry> DecodeLogEntry(std::string_view bytes, std::string_view key) {
  if (bytes.size() < kMagic.size() + 17 + kMacBytes || !bytes.starts_with(kMagic)) {
    return Malformed("not a log entry");
  }
  const std::string_view signed_part = bytes.substr(0, bytes.size() - kMacBytes);
  const Sha256Digest mac = HmacSha256(key, signed_part);
  if (!ConstantTimeEquals(DigestBytes(mac), bytes.substr(signed_part.size()))) {
    return Fail(ErrorCode::kUnauthenticated,
                "a log entry whose MAC does not match the replication key");
  }
  Reader reader(signed_part.substr(kMagic.size()));
  LogEntry entry;
  const auto kind = reader.U(1);
  const auto epoch = reader.U(8);
  const auto size = reader.U(8);
  if (!kind || !epoch || !size) return Malformed("short header");
  entry.epoch = *epoch;
  entry.size = *size;
  switch (static_cast<LogEntryKind>(*kind)) {
    case LogEntryKind::kBatch: {
      entry.kind = LogEntryKind::kBatch;
      const auto root = reader.HashValue();
      const auto appends = reader.U(4);
      if (!root || !appends) return Malformed("short batch");
      entry.root = *root;
      // Each count takes 4 bytes: a count larger than the rest cannot be honest.
      if (*appends > signed_part.size() / 4) return Malformed("too many appends");
      entry.append_sizes.reserve(*appends);
      uint64_t counted = 0;
      for (uint64_t i = 0; i < *appends; ++i) {
        const auto count = reader.U(4);
        if (!count || *count == 0) return Malformed("an append without events");
        counted += *count;
        entry.append_sizes.push_back(static_cast<uint32_t>(*count));
      }
      const auto records = reader.U(4);
      if (!records || *records != counted || *records == 0) {
        return Malformed("the appends do not add up to the records");
      }
      if (*records > signed_part.size() / 4) return Malformed("too many records");
      entry.records.reserve(*records);
      for (uint64_t i = 0; i < *records; ++i) {
        const auto length = reader.U(4);
        const auto record = length ? reader.Bytes(*length) : std::nullopt;
        if (!record) return Malformed("a record runs past the entry");
        entry.records.emplace_back(*record);
      }
      if (!reader.Empty()) return Malformed("bytes after the records");
      return entry;
    }
    case LogEntryKind::kBlob: {
      entry.kind = LogEntryKind::kBlob;
      const auto sha256 = reader.Bytes(kSha256HexBytes);
      const auto chunk = reader.U(4);
      const auto chunks = reader.U(4);
      if (!sha256 || !chunk || !chunks) return Malformed("short blob");
      if (*chunks != 0 && *chunk >= *chunks) return Malformed("a chunk past the blob's count");
      entry.sha256 = std::string(*sha256);
      entry.chunk = static_cast<uint32_t>(*chunk);
      entry.chunks = static_cast<uint32_t>(*chunks);
      entry.bytes = std::string(reader.Rest());
      return entry;
    }
    case LogEntryKind::kHead:
      entry.kind = LogEntryKind::kHead;
      entry.bytes = std::string(reader.Rest());
      return entry;
    case LogEntryKind::kClaim: {
      entry.kind = LogEntryKind::kClaim;
      const auto root = reader.HashValue();
      if (!root) return Malformed("short claim");
      entry.root = *root;
      entry.bytes = std::string(reader.Rest());
      return entry;
    }
  }
  return Malformed("unknown kind");
}

}  // namespace esign::eventstore
