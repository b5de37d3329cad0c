// RocksDB statuses become Errors here, at the edge: corruption stays corruption, anything else
// is a storage failure.
#pragma once

#include <string>
#include <string_view>

#include <rocksdb/status.h>

#include "domain/result.h"

namespace esign::eventstore {

inline std::unexpected<Error> FailFromRocks(const rocksdb::Status& status, std::string_view what) {
  const ErrorCode code = status.IsCorruption() ? ErrorCode::kCorruption : ErrorCode::kStorage;
  return Fail(code, std::string(what) + ": " + status.ToString());
}

}  // namespace esign::eventstore
