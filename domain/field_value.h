// Validation of one value against a field or column definition of a template, and the form it
// is stored in: strings as given, integers as JSON integers, decimals as their exact decimal
// string ("1250.50"), booleans, dates "YYYY-MM-DD", e-mail addresses, enum options.
// Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>

#include "domain/json_util.h"
#include "domain/template.h"

namespace esign {

// Longest accepted value when the template sets no maxLength, in characters.
inline constexpr int64_t kDefaultStringMaxLength = 1000;
inline constexpr int64_t kDefaultTextMaxLength = 20000;

// The value to store, or nullopt after adding one detail named `path`. `value` must not be null
// (callers treat null as "clear").
std::optional<boost::json::value> NormalizeFieldValue(const FieldDef& def,
                                                      const boost::json::value& value,
                                                      const std::string& path, Details& details);

// Characters (Unicode code points) of UTF-8 text.
int64_t CountCharacters(std::string_view utf8);

}  // namespace esign
