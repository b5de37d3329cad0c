#include "http/auth_token_cache.h"

#include <openssl/crypto.h>

namespace esign::http {

bool VerifiedTokenCache::ConstantTimeEqual::operator()(std::string_view a,
                                                       std::string_view b) const {
  // A token's length is no secret; its bytes are, so no early exit on the first difference.
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
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
