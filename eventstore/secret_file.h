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

// Whether WriteNewFile syncs the file itself, or the caller syncs many at once (syncfs) later.
enum class FileSync { kNow, kByCaller };

// Creates `path` (it must not exist) with `bytes` and permission bits `mode`; a copy of a secret
// keeps the original's mode. kStorage on I/O errors, with the file removed.
Status WriteNewFile(const std::string& path, std::string_view bytes, unsigned mode,
                    FileSync sync = FileSync::kNow);

// Syncs a directory, so that the names just linked or renamed into it survive a crash.
Status SyncDirectory(const std::string& dir);

}  // namespace esign::eventstore
