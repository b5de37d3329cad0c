// JSON text written straight into a string, for records written once per delivery attempt, where
// building a boost::json object first cost more than the write itself. The output is byte for
// byte boost::json::serialize's: strings escaped the same way ('"', '\\', control characters as
// \b \f \n \r \t or \u00xx, everything else as is) and integers in decimal.
// Pure functions; safe from any thread.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace esign::delivery {

// Appends `text` as a JSON string, quoted.
void AppendJsonString(std::string& out, std::string_view text);

template <class Integer>
void AppendJsonInteger(std::string& out, Integer value) {
  char digits[24];
  const auto end = std::to_chars(std::begin(digits), std::end(digits), value).ptr;
  out.append(digits, end);
}

// Appends `"name":`, for names that need no escaping.
inline void AppendJsonName(std::string& out, std::string_view name) {
  out.append(1, '"').append(name).append("\":");
}

}  // namespace esign::delivery
