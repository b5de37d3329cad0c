// Small secret files of the data directory (keys, certificates): written once, completely, with
// mode 0600, and never replaced. A file is written beside its final name, synced, and linked into
// place; linking (unlike renaming) never replaces a file another process installed meanwhile, so
// when two processes race, both end up with the one linked first.
// Thread safety: safe from any thread; processes are serialized by the link.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "domain/result.h"

namespace esign::eventstore {

// The file's contents, or nothing when it does not exist; kStorage on other I/O errors.
Result<std::optional<std::string>> ReadFileIfPresent(const std::string& path);

// Installs <dir>/<name> with `bytes`; false when another process installed it first (read that
// one instead); kStorage on I/O errors.
Result<bool> PublishSecretFile(const std::string& dir, const std::string& name,
                               std::string_view bytes);

}  // namespace esign::eventstore
