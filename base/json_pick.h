// PickJsonMembers: a few members of a JSON object, read without building the object, for hot paths
// that need three fields of a message or an event whose data runs to kilobytes (the relay, the
// webhook dispatcher's intake). Parsing to a DOM allocates every string and object of the text and
// frees them again; picking copies only the members asked for.
//
// The text is parsed to its end with boost::json::parse's defaults (strict UTF-8, nesting up to
// 32), so the answer is what the parsed object would hold for those members: nothing for text that
// is not one JSON object, the last of repeated keys (for `nested` too). One difference: a picked
// member holding an array or an object (other than `nested`) is given as an empty one of its kind.
// Pure functions; safe from any thread.
#pragma once

#include <boost/json/object.hpp>
#include <optional>
#include <string_view>
#include <vector>

namespace esign {

struct JsonPick {
  std::vector<std::string_view> members;  // of the object
  // The object under this member (when it is one), with only `nested_members` of its own.
  std::string_view nested;
  std::vector<std::string_view> nested_members;
};

// The picked members that `text` has, as an object; nothing when `text` is not one JSON object.
std::optional<boost::json::object> PickJsonMembers(std::string_view text, const JsonPick& pick);

}  // namespace esign
