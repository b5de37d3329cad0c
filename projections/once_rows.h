// Rows a commit writes at most once and never reads back (ViewBatch::PutOnce): the text index's
// trigram rows, about four in five of the rows a contract's creation writes. They are appended to
// one buffer instead of the map of every other row, so such a row costs no hash look-up and no
// allocation of its own; the commit sorts them with the rest and writes all in key order.
// Thread safety: none; one commit's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace esign::projections {

class OnceRows {
 public:
  struct Row {
    std::string_view key;
    std::optional<std::string_view> value;  // nothing: the row is deleted
  };

  // The row `prefix` + `key`; `value` nothing deletes it.
  void Add(std::string_view prefix, std::string_view key, std::optional<std::string_view> value);

  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }
  size_t bytes() const { return bytes_.size(); }
  // Every row, in the order added; valid until the next Add.
  std::vector<Row> Rows() const;

 private:
  struct Entry {
    size_t at = 0;  // of the key in bytes_, its value right after it
    uint32_t key_size = 0;
    uint32_t value_size = 0;
    bool deleted = false;
  };

  std::string bytes_;
  std::vector<Entry> entries_;
};

}  // namespace esign::projections
