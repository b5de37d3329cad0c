#include "http/request_id.h"

#include <atomic>
#include <cstdint>
#include <cstring>

#include "domain/id_generator.h"

namespace esign::http {
namespace {

// Drawn from the kernel once, at the first request id.
struct ProcessKey {
  uint64_t before = 0;
  uint64_t after = 0;
  uint16_t high_bits = 0;

  static ProcessKey Draw() {
    const std::string random = RandomBytes(sizeof(uint64_t) * 2 + sizeof(uint16_t));
    ProcessKey key;
    std::memcpy(&key.before, random.data(), sizeof key.before);
    std::memcpy(&key.after, random.data() + sizeof key.before, sizeof key.after);
    std::memcpy(&key.high_bits, random.data() + 2 * sizeof(uint64_t), sizeof key.high_bits);
    return key;
  }
};

// A bijection of 64-bit numbers: each step (xor with a constant, xor with a right shift of
// itself, product with an odd constant) can be undone, so distinct counters give distinct ids.
uint64_t Permute(uint64_t counter, const ProcessKey& key) {
  uint64_t x = counter ^ key.before;
  x = (x ^ (x >> 31)) * 0x7fb5d329728ea185ULL;
  x = (x ^ (x >> 27)) * 0x81dadef4bc2dd44dULL;
  x ^= x >> 33;
  return x ^ key.after;
}

}  // namespace

std::string NewRequestId() {
  static const ProcessKey key = ProcessKey::Draw();
  static std::atomic<uint64_t> counter{0};
  const uint64_t low = Permute(counter.fetch_add(1, std::memory_order_relaxed), key);
  // 80 bits: the process's 16, then the permuted counter's 64.
  const uint64_t top = (static_cast<uint64_t>(key.high_bits) << 24) | (low >> 40);
  return TimeOrderedId("req_", top, low & ((uint64_t{1} << 40) - 1));
}

}  // namespace esign::http
