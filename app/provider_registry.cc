#include "app/provider_registry.h"

#include <algorithm>
#include <boost/json.hpp>
#include <filesystem>
#include <regex>

#include "eventstore/secret_file.h"

namespace esign::app {
namespace {

constexpr size_t kMinSecretLength = 16;

std::filesystem::path Directory(const std::string& data_dir) {
  return std::filesystem::path(data_dir) / "providers";
}

bool IsProviderId(const std::string& id) {
  static const std::regex pattern("^[a-z0-9_-]{1,64}$");
  return std::regex_match(id, pattern);
}

}  // namespace

Status AddProvider(const std::string& data_dir, const ProviderConfig& provider) {
  if (!IsProviderId(provider.id)) {
    return Fail(ErrorCode::kValidationFailed, "invalid provider id", "id",
                "1 to 64 of a-z, 0-9, _ and -");
  }
  if (provider.secret.size() < kMinSecretLength) {
    return Fail(ErrorCode::kValidationFailed, "the provider secret is too short", "secret",
                "at least 16 characters");
  }
  if (!provider.start_url.empty() && !provider.start_url.starts_with("https://") &&
      !provider.start_url.starts_with("http://")) {
    return Fail(ErrorCode::kValidationFailed, "invalid start URL", "start-url",
                "must be an http or https URL");
  }
  std::error_code ec;
  std::filesystem::create_directories(Directory(data_dir), ec);
  if (ec)
    return Fail(ErrorCode::kStorage, "cannot create the providers directory: " + ec.message());
  const std::string text =
      boost::json::serialize(boost::json::object{{"providerId", provider.id},
                                                 {"secret", provider.secret},
                                                 {"startUrl", provider.start_url},
                                                 {"createdAt", provider.created_at}});
  auto published =
      eventstore::PublishSecretFile(Directory(data_dir).string(), provider.id + ".json", text);
  if (!published) return Fail(published.error());
  if (!*published) {
    return Fail(ErrorCode::kValidationFailed, "provider " + provider.id + " exists already", "id",
                "exists");
  }
  return {};
}

std::optional<ProviderConfig> ProviderRegistry::Find(const std::string& id) const {
  if (!IsProviderId(id)) return std::nullopt;
  auto text = eventstore::ReadFileIfPresent((Directory(data_dir_) / (id + ".json")).string());
  if (!text || !*text) return std::nullopt;
  boost::system::error_code ec;
  auto parsed = boost::json::parse(**text, ec);
  if (ec || !parsed.is_object()) return std::nullopt;
  const auto& o = parsed.get_object();
  auto member = [&](std::string_view key) {
    const auto* v = o.if_contains(key);
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
  };
  return ProviderConfig{member("providerId"), member("secret"), member("startUrl"),
                        member("createdAt")};
}

std::vector<std::string> ProviderRegistry::Ids() const {
  std::vector<std::string> ids;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(Directory(data_dir_), ec)) {
    const auto name = entry.path().filename().string();
    if (name.ends_with(".json")) ids.push_back(name.substr(0, name.size() - 5));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace esign::app
