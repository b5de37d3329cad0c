// What this build is: the project's version (project() in CMakeLists.txt) and the git commit it
// was built from, taken at build time (cmake/build_commit.cmake; "unknown" when built outside a
// git work tree), for `contractd --version` and /metrics.
// Thread safety: pure functions.
#pragma once

#include <string_view>

namespace esign {

std::string_view BuildVersion();  // "1.0.0"
std::string_view BuildCommit();   // "abc1234", or "unknown"

}  // namespace esign
