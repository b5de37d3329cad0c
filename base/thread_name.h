// NameThisThread: the name that `top -H`, `ps -L`, `perf report --sort comm` and
// /proc/<pid>/task/<tid>/comm show for the calling thread. Every long-lived thread of the service
// names itself "esign-<role>", so that a profile or a per-thread CPU account says whose time it
// is (the render pool's, the projector's, an I/O thread's...). Linux keeps the first 15 bytes.
// Thread safety: names the calling thread only.
#pragma once

#include <string_view>

namespace esign {

void NameThisThread(std::string_view name);

}  // namespace esign
