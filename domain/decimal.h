// Exact decimals for `decimal` fields: kept as the text the client sent ("1250.50"), compared
// digit by digit, never converted to binary floating point (money must not drift).
// Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace esign {

// True for -?digits(.digits)? with at most 40 digits in all, e.g. "0", "-12.50".
bool IsDecimalString(std::string_view text);

// Orders two strings that pass IsDecimalString by value: "1.50" == "1.5", "-0" == "0".
int CompareDecimals(std::string_view a, std::string_view b);

// The exact decimal string for a JSON string or number, or nullopt when it is neither a decimal
// string nor a number. A double becomes its shortest round-trip text, which equals the text the
// client sent because ParseJson refuses numbers a double cannot carry exactly.
std::optional<std::string> DecimalFromJson(const boost::json::value& value);

// True when a JSON number literal ("1.10", "2e3") and a double denote the same value, i.e. the
// double lost nothing while parsing.
bool NumberLiteralEqualsDouble(std::string_view literal, double value);

}  // namespace esign
