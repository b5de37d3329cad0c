#include "projections/read_your_writes.h"

#include <algorithm>
#include <mutex>

namespace esign::projections {

void ReadYourWrites::Wrote(std::string_view client_id, std::string_view organization_id,
                           uint64_t log_size) {
  const std::string_view writer = client_id.empty() ? organization_id : client_id;
  std::unique_lock lock(mutex_);
  Watermarks& watermarks = client_id.empty() ? by_organization_ : by_client_;
  auto it = watermarks.find(writer);
  if (it == watermarks.end()) it = watermarks.emplace(std::string(writer), 0).first;
  it->second = std::max(it->second, log_size);
}

uint64_t ReadYourWrites::Watermark(std::string_view client_id,
                                   std::string_view organization_id) const {
  const auto at = [](const Watermarks& watermarks, std::string_view key) -> uint64_t {
    auto it = watermarks.find(key);
    return it == watermarks.end() ? 0 : it->second;
  };
  std::shared_lock lock(mutex_);
  return std::max(at(by_client_, client_id), at(by_organization_, organization_id));
}

bool ReadYourWrites::CaughtUp(std::string_view client_id, std::string_view organization_id) const {
  return projector_.position() >= Watermark(client_id, organization_id);
}

Status ReadYourWrites::AwaitOwnWrites(std::string_view client_id, std::string_view organization_id,
                                      ReadsFrom reads) const {
  const uint64_t watermark = Watermark(client_id, organization_id);
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  if (Status applied = AwaitApplied(projector_, watermark, "this client's last write", deadline);
      !applied) {
    return applied;
  }
  if (reads == ReadsFrom::kViews || text_ == nullptr) return {};
  return AwaitApplied(*text_, watermark, "this client's last write in the text index", deadline);
}

Status ReadYourWrites::AwaitApplied(uint64_t size, std::string_view what) const {
  return AwaitApplied(projector_, size, what, std::chrono::steady_clock::now() + timeout_);
}

Status ReadYourWrites::AwaitApplied(const Projector& projector, uint64_t size,
                                    std::string_view what,
                                    std::chrono::steady_clock::time_point deadline) const {
  if (projector.position() >= size) return {};
  // While the disk is full the projector tries again every second: a couple of tries tell
  // whether space has returned, and a longer wait would only hold the request.
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  const auto bound = std::max(std::chrono::milliseconds(0),
                              projector.waiting_for_space() ? std::min(left, kFullDiskWait) : left);
  if (projector.WaitFor(size, bound)) return {};
  if (projector.waiting_for_space()) {
    return Fail(ErrorCode::kStorageUnavailable,
                "the read side waits for disk space to store " + std::string(what));
  }
  return Fail(ErrorCode::kUnavailable, "the read side is behind " + std::string(what));
}

}  // namespace esign::projections
