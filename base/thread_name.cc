#include "base/thread_name.h"

#include <pthread.h>

#include <algorithm>
#include <array>

namespace esign {

void NameThisThread(std::string_view name) {
  std::array<char, 16> bounded{};  // 15 bytes and the terminating zero: the kernel's limit
  std::copy_n(name.begin(), std::min(name.size(), bounded.size() - 1), bounded.begin());
  pthread_setname_np(pthread_self(), bounded.data());
}

}  // namespace esign
