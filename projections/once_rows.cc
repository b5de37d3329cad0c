#include "projections/once_rows.h"

namespace esign::projections {

void OnceRows::Add(std::string_view prefix, std::string_view key,
                   std::optional<std::string_view> value) {
  Entry entry;
  entry.at = bytes_.size();
  entry.key_size = static_cast<uint32_t>(prefix.size() + key.size());
  entry.value_size = value ? static_cast<uint32_t>(value->size()) : 0;
  entry.deleted = !value;
  bytes_.append(prefix).append(key);
  if (value) bytes_.append(*value);
  entries_.push_back(entry);
}

std::vector<OnceRows::Row> OnceRows::Rows() const {
  std::vector<Row> rows;
  rows.reserve(entries_.size());
  const std::string_view bytes(bytes_);
  for (const Entry& entry : entries_) {
    const std::string_view key = bytes.substr(entry.at, entry.key_size);
    std::optional<std::string_view> value;
    if (!entry.deleted) value = bytes.substr(entry.at + entry.key_size, entry.value_size);
    rows.push_back({key, value});
  }
  return rows;
}

}  // namespace esign::projections
