#include "app/process_memory.h"

#include <unistd.h>

#include <fstream>

namespace esign::app {

ProcessMemory ReadProcessMemory() {
  // "size resident shared text lib data dt", in pages.
  std::ifstream statm("/proc/self/statm");
  uint64_t size_pages = 0;
  uint64_t resident_pages = 0;
  if (!(statm >> size_pages >> resident_pages)) return {};
  const long page = sysconf(_SC_PAGESIZE);
  const uint64_t page_bytes = page > 0 ? static_cast<uint64_t>(page) : uint64_t{4096};
  return ProcessMemory{.resident_bytes = resident_pages * page_bytes,
                       .virtual_bytes = size_pages * page_bytes};
}

}  // namespace esign::app
