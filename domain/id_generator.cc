#include "domain/id_generator.h"

#include <sys/random.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>

namespace esign {
namespace {

constexpr char kCrockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

}  // namespace

std::string RandomBytes(size_t bytes) {
  std::string out(bytes, '\0');
  size_t filled = 0;
  while (filled < bytes) {
    ssize_t n = getrandom(out.data() + filled, bytes - filled, 0);
    if (n < 0) std::abort();  // no entropy source: nothing safe to hand out
    filled += static_cast<size_t>(n);
  }
  return out;
}

std::string TimeOrderedId(std::string_view prefix, uint64_t high40, uint64_t low40) {
  const uint64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  std::string id(prefix);
  id.reserve(prefix.size() + 26);
  for (int i = 9; i >= 0; --i) id.push_back(kCrockford[(ms >> (5 * i)) & 31]);
  for (int i = 7; i >= 0; --i) id.push_back(kCrockford[(high40 >> (5 * i)) & 31]);
  for (int i = 7; i >= 0; --i) id.push_back(kCrockford[(low40 >> (5 * i)) & 31]);
  return id;
}

std::string RandomIdGenerator::Next(std::string_view prefix) {
  const std::string random = RandomBytes(10);  // 80 bits = 16 base32 characters
  uint64_t hi = 0, lo = 0;
  for (int i = 0; i < 5; ++i) hi = (hi << 8) | static_cast<uint8_t>(random[i]);
  for (int i = 5; i < 10; ++i) lo = (lo << 8) | static_cast<uint8_t>(random[i]);
  return TimeOrderedId(prefix, hi, lo);
}

RandomIdGenerator& RandomIdGenerator::Instance() {
  static RandomIdGenerator generator;
  return generator;
}

}  // namespace esign
