// The adapters that give a projection its own part of a ViewStore: PrefixedReader (a ViewReader)
// and PrefixedBatch (a ViewBatch whose writes go into the batch-wide ViewCommit). Both
// add "<projection name>/" to every key, and remove it from the keys a scan reports.
// Thread safety: PrefixedReader is as safe as the RowReader below it; a PrefixedBatch belongs to
// the thread that applies events.
#pragma once

#include <string>
#include <string_view>

#include "projections/projection.h"
#include "projections/view_store.h"

namespace esign::projections {

class PrefixedReader final : public ViewReader {
 public:
  // `rows` must outlive this object.
  PrefixedReader(const RowReader& rows, std::string_view projection_name);

  Result<std::optional<std::string>> Get(std::string_view key) const override;
  Status Scan(std::string_view prefix, std::string_view start, bool reverse,
              const std::function<bool(std::string_view key, std::string_view value)>& visit)
      const override;
  Result<std::vector<std::optional<std::string>>> MultiGet(
      const std::vector<std::string>& keys) const override;
  std::unique_ptr<RowCursor> OpenCursor(std::string_view prefix) const override;

 private:
  const RowReader& rows_;
  const std::string prefix_;
};

class PrefixedBatch final : public ViewBatch {
 public:
  // `commit` collects the writes of every projection of one commit; `committed` answers Get for
  // keys the batch has not written. Both must outlive this object.
  PrefixedBatch(ViewCommit& commit, const RowReader& committed, std::string_view projection_name);

  using ViewBatch::Put;
  void Put(std::string_view key, std::string_view value) override;
  void Put(std::string_view key, std::string&& value) override;
  void Delete(std::string_view key) override;
  void PutOnce(std::string_view key, std::string_view value) override;
  void DeleteOnce(std::string_view key) override;
  Result<std::optional<std::string>> Get(std::string_view key) const override;

  // True once the projection wrote anything.
  bool touched() const { return touched_; }

 private:
  std::string FullKey(std::string_view key) const;

  RowWrites& writes_;
  OnceRows& once_rows_;
  const RowReader& committed_;
  const std::string prefix_;
  bool touched_ = false;
};

}  // namespace esign::projections
