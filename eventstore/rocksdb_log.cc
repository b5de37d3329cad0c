#include "eventstore/rocksdb_log.h"

#include <cstdarg>
#include <cstdio>
#include <string>

namespace esign::eventstore {
namespace {

class StderrLog final : public rocksdb::Logger {
 public:
  StderrLog() : rocksdb::Logger(rocksdb::InfoLogLevel::WARN_LEVEL) {}

  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    char line[1024];
    std::vsnprintf(line, sizeof line, format, ap);
    // One write per line, so lines of threads logging at once do not interleave.
    std::fprintf(stderr, "contractd: rocksdb: %s\n", line);
  }
};

}  // namespace

std::shared_ptr<rocksdb::Logger> MakeRocksLog() { return std::make_shared<StderrLog>(); }

}  // namespace esign::eventstore
