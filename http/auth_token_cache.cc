#include "http/auth_token_cache.h"

#include <cstdint>
#include <cstring>

namespace esign::http {

size_t VerifiedTokenCache::Hash::operator()(std::string_view text) const {
  // A token ends with its MAC, which spreads tokens as well as the whole text would, at a tenth
  // of the bytes. Only verified tokens are held, so no one can crowd a bucket with forgeries.
  constexpr size_t kHashedTail = 32;
  return std::hash<std::string_view>{}(
      text.substr(text.size() > kHashedTail ? text.size() - kHashedTail : 0));
}

bool VerifiedTokenCache::ConstantTimeEqual::operator()(std::string_view a,
                                                       std::string_view b) const {
  // A token's length is no secret; its bytes are, so every byte is compared whatever differs
  // first. Eight at a time: CRYPTO_memcmp goes byte by byte, 4% of a status read.
  if (a.size() != b.size()) return false;
  uint64_t difference = 0;
  size_t i = 0;
  for (; i + sizeof(uint64_t) <= a.size(); i += sizeof(uint64_t)) {
    uint64_t x = 0;
    uint64_t y = 0;
    std::memcpy(&x, a.data() + i, sizeof x);
    std::memcpy(&y, b.data() + i, sizeof y);
    difference |= x ^ y;
  }
  for (; i < a.size(); ++i) difference |= static_cast<uint8_t>(a[i] ^ b[i]);
  return difference == 0;
}

std::shared_ptr<const TokenClaims> VerifiedTokenCache::Find(std::string_view token) const {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(token);
  return it == entries_.end() ? nullptr : it->second;
}

void VerifiedTokenCache::Insert(std::string_view token,
                                const std::shared_ptr<const TokenClaims>& claims,
                                int64_t now_seconds) {
  if (capacity_ == 0) return;
  std::lock_guard lock(mutex_);
  if (entries_.size() >= capacity_) {
    std::erase_if(entries_,
                  [&](const auto& entry) { return entry.second->expires_at <= now_seconds; });
    if (entries_.size() >= capacity_) entries_.clear();
  }
  entries_.try_emplace(std::string(token), claims);
}

size_t VerifiedTokenCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace esign::http
