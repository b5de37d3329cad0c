// The service's token key: 32 random bytes in a file of the data directory (<data-dir>/token-key),
// created at the first start. The file is written in full to a temporary name (mode 0600, synced)
// and then hard-linked into place, so the key file is either absent or complete, and when two
// processes race to create it, both end up with the one that was linked first.
// Losing the file invalidates every access token issued so far (clients simply ask for new ones).
// Thread safety: safe from any thread; processes are serialized by the link.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "domain/result.h"

namespace esign::http {

inline constexpr std::string_view kTokenKeyFileName = "token-key";
// The key's length: as long as SHA-256's digest, the MAC it keys.
inline constexpr size_t kTokenKeyBytes = 32;

// Reads the key at `file`, or creates it. kStorage on I/O errors; kCorruption when the file is
// not 32 bytes.
Result<std::string> LoadOrCreateTokenKey(const std::filesystem::path& file);

}  // namespace esign::http
