#include "eventstore/full_disk_recovery.h"

#include <sys/statvfs.h>

#include <utility>

#include "eventstore/rocksdb_status.h"

namespace esign::eventstore {
namespace {

bool HasFreeSpaceToResume(const std::string& dir) {
  struct statvfs fs {};
  if (::statvfs(dir.c_str(), &fs) != 0) return false;
  return static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize >= FullDiskRecovery::kResumeMinFreeBytes;
}

}  // namespace

class FullDiskRecovery::NoSpaceListener final : public rocksdb::EventListener {
 public:
  explicit NoSpaceListener(std::atomic<bool>& out_of_space) : out_of_space_(out_of_space) {}
  void OnErrorRecoveryBegin(rocksdb::BackgroundErrorReason /*reason*/, rocksdb::Status bg_error,
                            bool* auto_recovery) override {
    if (IsNoSpace(bg_error)) {
      *auto_recovery = false;
      out_of_space_.store(true, std::memory_order_release);
    }
    bg_error.PermitUncheckedError();
  }

 private:
  std::atomic<bool>& out_of_space_;
};

FullDiskRecovery::FullDiskRecovery(std::string db_dir) : db_dir_(std::move(db_dir)) {}

std::shared_ptr<rocksdb::EventListener> FullDiskRecovery::MakeListener() {
  return std::make_shared<NoSpaceListener>(out_of_space_);
}

void FullDiskRecovery::BeforeWrite(rocksdb::DB& db) const {
  if (!out_of_space()) return;
  std::lock_guard lock(resume_mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (now - last_resume_ < kResumeInterval) return;
  last_resume_ = now;
  if (!HasFreeSpaceToResume(db_dir_)) return;
  db.Resume().PermitUncheckedError();
}

void FullDiskRecovery::AfterWrite(const rocksdb::Status& status) {
  if (status.ok()) {
    out_of_space_.store(false, std::memory_order_release);
  } else if (IsNoSpace(status)) {
    out_of_space_.store(true, std::memory_order_release);
  }
}

}  // namespace esign::eventstore
