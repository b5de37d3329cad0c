// RocksDB statuses become Errors here, at the edge: corruption stays corruption, a full disk is
// kStorageUnavailable (nothing was stored; the same write succeeds once space returns), anything
// else is a storage failure.
#pragma once

#include <string>
#include <string_view>

#include <rocksdb/status.h>

#include "domain/result.h"

namespace esign::eventstore {

// True for a full disk: RocksDB's own NoSpace, or an IOError that carries ENOSPC's text (an
// Env that does not classify it).
inline bool IsNoSpace(const rocksdb::Status& status) {
  return status.IsNoSpace() ||
         (status.IsIOError() &&
          status.ToString().find("No space left on device") != std::string::npos);
}

inline std::unexpected<Error> FailFromRocks(const rocksdb::Status& status, std::string_view what) {
  const ErrorCode code = status.IsCorruption() ? ErrorCode::kCorruption
                         : IsNoSpace(status)   ? ErrorCode::kStorageUnavailable
                                               : ErrorCode::kStorage;
  return Fail(code, std::string(what) + ": " + status.ToString());
}

}  // namespace esign::eventstore
