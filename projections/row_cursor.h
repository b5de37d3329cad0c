// RowCursor: a position among the rows of one key prefix, moved backwards (greatest key first)
// and kept between reads, so that a list scan that jumps around an index many times pays one
// storage seek per jump instead of opening a new iterator each time.
//
// ScanningCursor gives any reader with a Scan a RowCursor (one Scan per move); the RocksDB view
// store overrides it with one iterator kept for the cursor's life.
// Thread safety: one thread's; the reader must outlive the cursor.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "domain/result.h"

namespace esign::projections {

class RowCursor {
 public:
  virtual ~RowCursor() = default;
  // To the greatest key of the prefix at or below `key`; an empty key: the greatest of all.
  virtual Status SeekAtOrBelow(std::string_view key) = 0;
  // To the next key below the current one. Only when Valid().
  virtual Status Prev() = 0;
  // False when no key of the prefix is at or below where the cursor was sent.
  virtual bool Valid() const = 0;
  // The whole key (prefix included) and the value of the current row. Only when Valid(); they
  // stay good until the next move.
  virtual std::string_view key() const = 0;
  virtual std::string_view value() const = 0;
};

// A RowCursor over `Reader::Scan(prefix, start, reverse, visit)`: each move is one reverse Scan
// that stops at its first row.
template <typename Reader>
class ScanningCursor final : public RowCursor {
 public:
  ScanningCursor(const Reader& rows, std::string_view prefix) : rows_(rows), prefix_(prefix) {}

  Status SeekAtOrBelow(std::string_view key) override { return Move(key, true); }
  Status Prev() override {
    const std::string from = key_;
    return Move(from, false);
  }
  bool Valid() const override { return valid_; }
  std::string_view key() const override { return key_; }
  std::string_view value() const override { return value_; }

 private:
  Status Move(std::string_view start, bool inclusive) {
    valid_ = false;
    return rows_.Scan(prefix_, start, true, [&](std::string_view key, std::string_view value) {
      if (!inclusive && key == start) return true;
      key_.assign(key);
      value_.assign(value);
      valid_ = true;
      return false;
    });
  }

  const Reader& rows_;
  const std::string prefix_;
  std::string key_;
  std::string value_;
  bool valid_ = false;
};

}  // namespace esign::projections
