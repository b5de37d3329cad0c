// One line on standard error from a part of the service, as "contractd: <part>: <line>": what the
// Kafka readers and writers report when they drop a message or lose their cluster.
// Thread safety: any thread (one write per line).
#pragma once

#include <string_view>

namespace esign::delivery {

void LogLine(std::string_view part, std::string_view line);

}  // namespace esign::delivery
