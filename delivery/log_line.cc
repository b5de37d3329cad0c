#include "delivery/log_line.h"

#include <iostream>
#include <string>

namespace esign::delivery {

void LogLine(std::string_view part, std::string_view line) {
  // Composed first, so lines from several threads do not interleave.
  std::cerr << ("contractd: " + std::string(part) + ": " + std::string(line) + "\n") << std::flush;
}

}  // namespace esign::delivery
