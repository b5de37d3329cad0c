// Request identifiers for X-Request-Id when the client sends none.
#pragma once

#include <string>

#include "domain/id_generator.h"

namespace esign::http {

inline std::string NewRequestId() { return RandomIdGenerator::Instance().Next("req_"); }

}  // namespace esign::http
