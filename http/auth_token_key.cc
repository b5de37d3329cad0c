#include "http/auth_token_key.h"

#include <optional>

#include "domain/id_generator.h"
#include "eventstore/secret_file.h"

namespace esign::http {
namespace {

// The key, std::nullopt when the file does not exist.
Result<std::optional<std::string>> ReadKey(const std::filesystem::path& file) {
  auto contents = eventstore::ReadFileIfPresent(file.string());
  if (!contents) return Fail(contents.error());
  if (*contents && (*contents)->size() != kTokenKeyBytes) {
    return Fail(ErrorCode::kCorruption, "the token key " + file.string() + " is not " +
                                            std::to_string(kTokenKeyBytes) + " bytes");
  }
  return contents;
}

}  // namespace

Result<std::string> LoadOrCreateTokenKey(const std::filesystem::path& file) {
  auto existing = ReadKey(file);
  if (!existing) return Fail(existing.error());
  if (*existing) return std::move(**existing);

  const std::string key = RandomBytes(kTokenKeyBytes);
  const std::string dir = file.parent_path().empty() ? "." : file.parent_path().string();
  auto installed = eventstore::PublishSecretFile(dir, file.filename().string(), key);
  if (!installed) return Fail(installed.error());
  if (*installed) return key;
  // Another process installed its key first: that one is the key.
  auto theirs = ReadKey(file);
  if (!theirs) return Fail(theirs.error());
  if (!*theirs) return Fail(ErrorCode::kStorage, "the token key vanished: " + file.string());
  return std::move(**theirs);
}

}  // namespace esign::http
