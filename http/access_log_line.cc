#include "http/access_log_line.h"

#include <cmath>
#include <cstdio>
#include <string_view>

namespace esign::http {

std::string AccessLogLine(const boost::json::object& line) {
  std::string text = boost::json::serialize(line);
  const boost::json::value* duration = line.if_contains("durationMs");
  if (duration == nullptr || !duration->is_double() || !std::isfinite(duration->get_double())) {
    return text;
  }
  // The member's name followed by a bare colon occurs once: inside a string value every quote is
  // escaped, so the name's closing quote there is preceded by a backslash.
  constexpr std::string_view kMember = "\"durationMs\":";
  const size_t at = text.find(kMember);
  if (at == std::string::npos) return text;
  const size_t begin = at + kMember.size();
  const size_t end = text.find_first_of(",}", begin);
  char decimal[48];
  std::snprintf(decimal, sizeof decimal, "%.3f", duration->get_double());
  text.replace(begin, end - begin, decimal);
  return text;
}

}  // namespace esign::http
