#include "webhooks/signing_keys.h"

#include "base/base64.h"

namespace esign::webhooks {

SigningKey MakeSigningKey(std::string_view secret) {
  if (!secret.starts_with("whsec_")) return nullptr;
  const auto key = Base64Decode(secret.substr(6));
  if (!key) return nullptr;
  return std::make_shared<const HmacSha256Key>(*key);
}

std::vector<SigningKey> SigningKeys::Of(const std::vector<std::string>& secrets) {
  std::vector<SigningKey> keys;
  keys.reserve(secrets.size());
  std::lock_guard lock(mutex_);
  for (const std::string& secret : secrets) {
    auto it = keys_.find(secret);
    if (it == keys_.end()) {
      if (keys_.size() >= capacity_) keys_.clear();
      it = keys_.emplace(secret, MakeSigningKey(secret)).first;
    }
    if (it->second) keys.push_back(it->second);
  }
  return keys;
}

}  // namespace esign::webhooks
