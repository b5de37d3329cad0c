#include "projections/read_your_writes.h"

#include <algorithm>
#include <mutex>

namespace esign::projections {

void ReadYourWrites::Wrote(std::string_view client_id, uint64_t log_size) {
  std::unique_lock lock(mutex_);
  auto it = watermarks_.find(client_id);
  if (it == watermarks_.end()) it = watermarks_.emplace(std::string(client_id), 0).first;
  it->second = std::max(it->second, log_size);
}

uint64_t ReadYourWrites::Watermark(std::string_view client_id) const {
  std::shared_lock lock(mutex_);
  auto it = watermarks_.find(client_id);
  return it == watermarks_.end() ? 0 : it->second;
}

bool ReadYourWrites::CaughtUp(std::string_view client_id) const {
  return projector_.position() >= Watermark(client_id);
}

std::chrono::milliseconds ReadYourWrites::WaitBound() const {
  // While the disk is full the projector tries again every second: a couple of tries tell
  // whether space has returned, and a longer wait would only hold the request.
  return projector_.waiting_for_space() ? std::min(timeout_, kFullDiskWait) : timeout_;
}

Status ReadYourWrites::AwaitOwnWrites(std::string_view client_id) const {
  return AwaitApplied(Watermark(client_id), "this client's last write");
}

Status ReadYourWrites::AwaitApplied(uint64_t size, std::string_view what) const {
  if (projector_.position() >= size || projector_.WaitFor(size, WaitBound())) return {};
  if (projector_.waiting_for_space()) {
    return Fail(ErrorCode::kStorageUnavailable,
                "the read side waits for disk space to store " + std::string(what));
  }
  return Fail(ErrorCode::kUnavailable, "the read side is behind " + std::string(what));
}

}  // namespace esign::projections
