#include "webhooks/message_auth.h"

#include <openssl/crypto.h>

#include <iostream>
#include <optional>

#include "base/base64.h"
#include "base/hmac.h"
#include "domain/id_generator.h"
#include "eventstore/secret_file.h"

namespace esign::webhooks {
namespace {

constexpr auto kLogInterval = std::chrono::seconds(1);

std::string KeyPath(const std::string& secrets_dir) {
  return secrets_dir + "/" + std::string(kMessageKeyFileName);
}

// The key file's contents; nothing when it does not exist.
Result<std::optional<std::string>> ReadKey(const std::string& secrets_dir) {
  auto contents = eventstore::ReadFileIfPresent(KeyPath(secrets_dir));
  if (!contents) return std::unexpected(contents.error());
  if (*contents && (*contents)->size() != kMessageKeyBytes) {
    return Fail(ErrorCode::kCorruption, "the Kafka message key " + KeyPath(secrets_dir) +
                                            " is not " + std::to_string(kMessageKeyBytes) +
                                            " bytes");
  }
  return contents;
}

}  // namespace

Result<MessageAuth> MessageAuth::FromKey(std::string key) {
  if (key.size() != kMessageKeyBytes) {
    return Fail(ErrorCode::kValidationFailed,
                "a Kafka message key has " + std::to_string(kMessageKeyBytes) + " bytes");
  }
  return MessageAuth(std::move(key));
}

Result<MessageAuth> MessageAuth::LoadOrCreate(const std::string& secrets_dir) {
  auto existing = ReadKey(secrets_dir);
  if (!existing) return std::unexpected(existing.error());
  if (*existing) return MessageAuth(std::move(**existing));
  auto installed = eventstore::PublishSecretFile(secrets_dir, std::string(kMessageKeyFileName),
                                                 RandomBytes(kMessageKeyBytes));
  if (!installed) return std::unexpected(installed.error());
  // Whether this process or another installed it, the file holds the key now.
  return Load(secrets_dir);
}

Result<MessageAuth> MessageAuth::Load(const std::string& secrets_dir) {
  auto key = ReadKey(secrets_dir);
  if (!key) return std::unexpected(key.error());
  if (!*key) {
    return Fail(ErrorCode::kNotFound,
                "no Kafka message key " + KeyPath(secrets_dir) +
                    ": contractd creates it at its start; --secrets-dir must be contractd's "
                    "<data-dir>/webhook-secrets");
  }
  return MessageAuth(std::move(**key));
}

std::string MessageAuth::Mac(std::string_view topic, std::string_view key,
                             std::string_view value) const {
  if (!signer_) return {};  // without a key nothing is signed
  std::string signed_bytes;
  signed_bytes.reserve(topic.size() + key.size() + value.size() + 2);
  signed_bytes.append(topic).append(1, '\0').append(key).append(1, '\0').append(value);
  return Base64Encode(DigestBytes(signer_->Sign(signed_bytes)));
}

bool MessageAuth::Valid(std::string_view topic, std::string_view key, std::string_view value,
                        std::string_view mac) const {
  if (key_.empty() || topic.find('\0') != std::string_view::npos ||
      key.find('\0') != std::string_view::npos) {
    return false;
  }
  const std::string expected = Mac(topic, key, value);
  return mac.size() == expected.size() &&
         CRYPTO_memcmp(mac.data(), expected.data(), expected.size()) == 0;
}

std::string MessageAuth::Id() const {
  return Base64Encode(DigestBytes(HmacSha256(key_, "contractd-mac key id"))).substr(0, 16);
}

bool MessageGate::Admit(const rd_kafka_message_t& message) {
  const char* topic = rd_kafka_topic_name(message.rkt);
  rd_kafka_headers_t* headers = nullptr;
  const void* mac = nullptr;
  size_t mac_size = 0;
  const bool has_mac = rd_kafka_message_headers(&message, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR &&
                       rd_kafka_header_get_last(headers, kMacHeader, &mac, &mac_size) ==
                           RD_KAFKA_RESP_ERR_NO_ERROR &&
                       mac != nullptr;
  if (has_mac &&
      auth_.Valid(topic, std::string_view(static_cast<const char*>(message.key), message.key_len),
                  std::string_view(static_cast<const char*>(message.payload), message.len),
                  std::string_view(static_cast<const char*>(mac), mac_size))) {
    return true;
  }
  ++dropped_;
  ++unlogged_;
  const auto now = std::chrono::steady_clock::now();
  if (now < next_line_) return false;
  next_line_ = now + kLogInterval;
  std::cerr << reader_ << ": dropped the message at " << topic << "[" << message.partition
            << "] offset " << message.offset << ": "
            << (has_mac ? "its contractd-mac header is not valid"
                        : "it has no contractd-mac header")
            << ", so contractd did not write it";
  if (unlogged_ > 1) std::cerr << " (" << unlogged_ - 1 << " more dropped since the last line)";
  std::cerr << std::endl;
  unlogged_ = 0;
  return false;
}

}  // namespace esign::webhooks
