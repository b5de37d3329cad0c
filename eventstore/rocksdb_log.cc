#include "eventstore/rocksdb_log.h"

#include <cstdarg>
#include <cstdio>
#include <string>
#include <string_view>

namespace esign::eventstore {
namespace {

// What RocksDB says of a nested disable of file deletions, and of the enable that ends it.
constexpr std::string_view kNestedDisable = "File Deletions Disabled, but already disabled";
constexpr std::string_view kNestedEnable = "File Deletions Enable, but not really enabled";

class StderrLog final : public rocksdb::Logger {
 public:
  StderrLog() : rocksdb::Logger(rocksdb::InfoLogLevel::WARN_LEVEL) {}

  void Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) override {
    // A checkpoint (backups) disables file deletions, then lists the WAL files, which disables
    // and enables them again, nested: RocksDB counts the nesting and warns about both steps,
    // though nothing is wrong. They are information, below the level this log shows. (The
    // format starts with the source file and line: "[%s:49] File Deletions ...".)
    const std::string_view text(format);
    if (level == rocksdb::InfoLogLevel::WARN_LEVEL &&
        (text.find(kNestedDisable) != std::string_view::npos ||
         text.find(kNestedEnable) != std::string_view::npos)) {
      return;
    }
    rocksdb::Logger::Logv(level, format, ap);
  }

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
