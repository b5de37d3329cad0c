#include "projections/due_timer_index.h"

#include <memory>

#include "domain/contract_timers.h"
#include "projections/contract_views.h"
#include "projections/key_codec.h"
#include "projections/view_batch.h"

namespace esign::projections {
namespace {

constexpr std::string_view kDuePrefix = "due/";

}  // namespace

std::optional<std::string> DueTimerKey(const ContractState& state, std::string_view contract_id) {
  const auto due = NextTimerDueMicros(state);
  if (!due) return std::nullopt;
  std::string key(kDuePrefix);
  key += HexU64(static_cast<uint64_t>(std::max<int64_t>(*due, 0)));
  key.push_back('/');
  AppendKeyPart(key, contract_id);
  return key;
}

Status ScanDueTimers(const ViewStore& views, const DueTimerVisitor& visit) {
  const std::unique_ptr<const RowReader> snapshot = views.Snapshot();
  const PrefixedReader rows(*snapshot, kContractViewsName);
  return rows.Scan(kDuePrefix, "", false, [&](std::string_view key, std::string_view) {
    std::string_view rest = key.substr(kDuePrefix.size());
    const auto due = ParseHexU64(rest.substr(0, 16));
    if (!due || rest.size() < 18 || rest[16] != '/') return true;  // not ours: skip
    return visit(static_cast<int64_t>(*due), UnescapeKeyPart(rest.substr(17)));
  });
}

Result<uint64_t> CountDueTimers(const ViewStore& views, int64_t now_micros, uint64_t limit) {
  uint64_t due = 0;
  auto scanned = ScanDueTimers(views, [&](int64_t due_micros, std::string_view) {
    if (due_micros > now_micros) return false;
    return ++due < limit;
  });
  if (!scanned) return std::unexpected(scanned.error());
  return due;
}

}  // namespace esign::projections
