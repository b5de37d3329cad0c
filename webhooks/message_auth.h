// Message authentication for contractd's topics. Kafka takes messages from any client that reaches
// it (the embedded cluster listens on loopback without credentials), so whoever reads
// contract-events, webhook-endpoints, webhook-retries or webhook-deliveries on contractd's behalf
// must know that contractd or one of its dispatchers wrote the message: a forged
// contract.completed must never become a genuinely signed webhook.
//
// Every message the relay and the topic writers produce carries the header
//   contractd-mac: base64(HMAC-SHA256(key, topic || 0x00 || message key || 0x00 || value))
// and every reader drops a message without a valid one (MessageGate). The key is 32 random bytes
// in <data-dir>/webhook-secrets/kafka-message-key (mode 0600), created by contractd at its first
// start; `contractd dispatcher` reads it from the directory it reads the signing secrets from
// (--secrets-dir). The topic is signed, so a message cannot be moved to another topic; a topic or
// key holding a 0x00 byte is never valid, which keeps the signed bytes unambiguous. A genuine
// message written again (a replay) stays valid: readers recognize it as they recognize the
// relay's own repetitions (delivery ids, endpoint stream versions).
//
// Thread safety: MessageAuth is immutable, safe from any thread. A MessageGate belongs to the
// thread that polls its consumer.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <librdkafka/rdkafka.h>

#include "base/hmac.h"
#include "domain/result.h"

namespace esign::webhooks {

inline constexpr char kMacHeader[] = "contractd-mac";
inline constexpr std::string_view kMessageKeyFileName = "kafka-message-key";
inline constexpr size_t kMessageKeyBytes = 32;

class MessageAuth {
 public:
  // Without a key: signs nothing valid and accepts nothing. Writers and readers refuse it.
  MessageAuth() = default;
  // kValidationFailed unless `key` has kMessageKeyBytes bytes.
  static Result<MessageAuth> FromKey(std::string key);
  // contractd: the key in `secrets_dir`, created at the first call. kStorage on I/O errors,
  // kCorruption for a file of another size.
  static Result<MessageAuth> LoadOrCreate(const std::string& secrets_dir);
  // A dispatcher: the key contractd created there; kNotFound, saying so, when there is none.
  static Result<MessageAuth> Load(const std::string& secrets_dir);

  explicit operator bool() const { return !key_.empty(); }

  // The contractd-mac header value of a message.
  std::string Mac(std::string_view topic, std::string_view key, std::string_view value) const;
  // Whether `mac` is the message's, compared in constant time.
  bool Valid(std::string_view topic, std::string_view key, std::string_view value,
             std::string_view mac) const;
  // A name of the key that tells nothing about it: the relay's checkpoint holds for one key.
  std::string Id() const;

 private:
  explicit MessageAuth(std::string key)
      : key_(std::move(key)), signer_(std::make_shared<const HmacSha256Key>(key_)) {}
  std::string key_;
  // The key's pads hashed once: every message of every topic is signed or checked with it.
  std::shared_ptr<const HmacSha256Key> signer_;
};

// What a reader puts between its consumer and its work: lets a message through when its
// contractd-mac is valid, and otherwise logs it as dropped, without its content (the writer's
// choice) and at most one line a second, the drops in between counted in the next line.
class MessageGate {
 public:
  // `reader` starts each log line, e.g. "contractd: webhook dispatcher".
  MessageGate(MessageAuth auth, std::string reader)
      : auth_(std::move(auth)), reader_(std::move(reader)) {}

  // True for a message written by contractd or a dispatcher.
  bool Admit(const rd_kafka_message_t& message);
  // Messages dropped so far.
  uint64_t dropped() const { return dropped_; }

 private:
  MessageAuth auth_;
  std::string reader_;
  uint64_t dropped_ = 0;
  uint64_t unlogged_ = 0;  // dropped since the last line
  std::chrono::steady_clock::time_point next_line_{};
};

}  // namespace esign::webhooks
