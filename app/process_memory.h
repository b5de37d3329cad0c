// The memory of this process as Linux counts it (/proc/self/statm), for /metrics.
// Thread safety: safe from any thread.
#pragma once

#include <cstdint>

namespace esign::app {

struct ProcessMemory {
  uint64_t resident_bytes = 0;  // in RAM now
  uint64_t virtual_bytes = 0;   // mapped, resident or not
};

// Zeros where /proc/self/statm cannot be read.
ProcessMemory ReadProcessMemory();

}  // namespace esign::app
