// Reading a file named on the command line whole (a template, a logo, an evidence bundle, a key).
#pragma once

#include <string>

#include "domain/result.h"

namespace esign::app {

// The whole of the file; kStorage naming it when it cannot be read.
Result<std::string> ReadWholeFile(const std::string& path);

}  // namespace esign::app
