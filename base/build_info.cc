#include "base/build_info.h"

#include "build_commit.h"

namespace esign {

std::string_view BuildVersion() { return ESIGN_VERSION; }

std::string_view BuildCommit() { return ESIGN_BUILD_COMMIT; }

}  // namespace esign
