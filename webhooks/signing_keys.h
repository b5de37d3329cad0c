// SigningKeys: the HMAC keys of webhook signing secrets ("whsec_<base64>"), decoded and with their
// pads hashed once per secret instead of once per attempt: every attempt signs with one or two
// of them (delivery_message.h SignatureHeader).
// A secret that is not "whsec_<base64>" has no key. At most `capacity` keys are kept; past it the
// cache starts over (secrets change only at rotations, so it refills with the ones in use).
// Thread safety: every method may be called from any thread.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/hmac.h"

namespace esign::webhooks {

using SigningKey = std::shared_ptr<const HmacSha256Key>;

class SigningKeys {
 public:
  explicit SigningKeys(size_t capacity = 4096) : capacity_(capacity) {}

  // The keys of `secrets`, in their order, leaving out those that are not "whsec_<base64>".
  std::vector<SigningKey> Of(const std::vector<std::string>& secrets);

 private:
  const size_t capacity_;
  std::mutex mutex_;
  std::unordered_map<std::string, SigningKey> keys_;  // guarded by mutex_; by secret text
};

// The key of one secret; nothing when it is not "whsec_<base64>".
SigningKey MakeSigningKey(std::string_view secret);

}  // namespace esign::webhooks
