#include "projections/view_batch.h"

#include <memory>
#include <utility>

namespace esign::projections {

PrefixedReader::PrefixedReader(const RowReader& rows, std::string_view projection_name)
    : rows_(rows), prefix_(ProjectionPrefix(projection_name)) {}

Result<std::optional<std::string>> PrefixedReader::Get(std::string_view key) const {
  std::string full = prefix_;
  full.append(key);
  return rows_.Get(full);
}

Status PrefixedReader::Scan(
    std::string_view prefix, std::string_view start, bool reverse,
    const std::function<bool(std::string_view key, std::string_view value)>& visit) const {
  std::string full_prefix = prefix_;
  full_prefix.append(prefix);
  std::string full_start;
  if (!start.empty()) {
    full_start = prefix_;
    full_start.append(start);
  }
  const size_t cut = prefix_.size();
  return rows_.Scan(
      full_prefix, full_start, reverse,
      [&](std::string_view key, std::string_view value) { return visit(key.substr(cut), value); });
}

Result<std::vector<std::optional<std::string>>> PrefixedReader::MultiGet(
    const std::vector<std::string>& keys) const {
  std::vector<std::string> full;
  full.reserve(keys.size());
  for (const std::string& key : keys) full.push_back(prefix_ + key);
  return rows_.MultiGet(full);
}

namespace {

// The cursor of the rows below, with the projection's prefix added to every key sought and
// removed from every key reported.
class PrefixedCursor final : public RowCursor {
 public:
  PrefixedCursor(std::unique_ptr<RowCursor> rows, std::string_view projection_prefix)
      : rows_(std::move(rows)), prefix_(projection_prefix) {}

  Status SeekAtOrBelow(std::string_view key) override {
    if (key.empty()) return rows_->SeekAtOrBelow({});
    sought_.assign(prefix_);
    sought_.append(key);
    return rows_->SeekAtOrBelow(sought_);
  }
  Status Prev() override { return rows_->Prev(); }
  bool Valid() const override { return rows_->Valid(); }
  std::string_view key() const override { return rows_->key().substr(prefix_.size()); }
  std::string_view value() const override { return rows_->value(); }

 private:
  std::unique_ptr<RowCursor> rows_;
  std::string_view prefix_;  // the reader's, which outlives the cursor
  std::string sought_;
};

}  // namespace

std::unique_ptr<RowCursor> PrefixedReader::OpenCursor(std::string_view prefix) const {
  std::string full_prefix = prefix_;
  full_prefix.append(prefix);
  return std::make_unique<PrefixedCursor>(rows_.OpenCursor(full_prefix), prefix_);
}

PrefixedBatch::PrefixedBatch(ViewCommit& commit, const RowReader& committed,
                             std::string_view projection_name)
    : writes_(commit.rows),
      once_rows_(commit.once_rows),
      committed_(committed),
      prefix_(ProjectionPrefix(projection_name)) {}

std::string PrefixedBatch::FullKey(std::string_view key) const {
  std::string full;
  full.reserve(prefix_.size() + key.size());
  full.append(prefix_);
  full.append(key);
  return full;
}

void PrefixedBatch::Put(std::string_view key, std::string_view value) {
  writes_.insert_or_assign(FullKey(key), std::string(value));
  touched_ = true;
}

void PrefixedBatch::Put(std::string_view key, std::string&& value) {
  writes_.insert_or_assign(FullKey(key), std::move(value));
  touched_ = true;
}

void PrefixedBatch::Delete(std::string_view key) {
  writes_.insert_or_assign(FullKey(key), std::nullopt);
  touched_ = true;
}

void PrefixedBatch::PutOnce(std::string_view key, std::string_view value) {
  once_rows_.Add(prefix_, key, value);
  touched_ = true;
}

void PrefixedBatch::DeleteOnce(std::string_view key) {
  once_rows_.Add(prefix_, key, std::nullopt);
  touched_ = true;
}

Result<std::optional<std::string>> PrefixedBatch::Get(std::string_view key) const {
  const std::string full = FullKey(key);
  if (const auto it = writes_.find(full); it != writes_.end()) return it->second;
  return committed_.Get(full);
}

}  // namespace esign::projections
