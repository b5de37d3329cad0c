// Small helpers for reading untrusted JSON and naming the offending path in ErrorDetail.field.
// Paths follow the API's notation: "participants[1].templateRoleId", "data.terms.termMonths".
// Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "domain/error.h"

namespace esign {

inline void AddDetail(Details& details, std::string field, std::string issue) {
  details.push_back(ErrorDetail{std::move(field), std::move(issue)});
}

// "a" + "b" -> "a.b"; "" + "b" -> "b".
std::string JoinPath(std::string_view path, std::string_view key);
// "a" + 2 -> "a[2]".
std::string IndexPath(std::string_view path, size_t index);

// "string", "number", "integer", "boolean", "object", "array" or "null", for messages.
std::string_view KindName(const boost::json::value& value);

// Reports every member of `object` not named in `allowed` as "<path>.<key>": "unknown field".
void RejectUnknownMembers(const boost::json::object& object, std::string_view path,
                          std::initializer_list<std::string_view> allowed, Details& details);

// The text, or null when it is empty (a member the API shows as absent that way).
boost::json::value TextOrNull(std::string_view text);

// Canonical text: object keys sorted at every depth, no whitespace. Equal values, equal text.
std::string CanonicalJson(const boost::json::value& value);

}  // namespace esign
