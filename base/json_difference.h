// Where two JSON values differ, told so that a reader sees the change however deep or long the
// values are: the path of the first differing member or element (".details.reason", "[3]"),
// and, when the values there are longer than a line, the first differing character offset of
// their serialized text with a window of text around it on both sides.
// Thread safety: pure functions; safe from any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <boost/json.hpp>

namespace esign {

// Serialized text of at most this many characters is shown whole.
inline constexpr size_t kJsonShownWhole = 160;
// Characters shown on each side of the first difference in longer text.
inline constexpr size_t kJsonDifferenceWindow = 40;

// The JSON path (relative: "" when the values differ at the top, else ".member" / "[i]" steps)
// of the first place where `a` and `b` differ, members taken in `b`'s order and then those only
// in `a`. Equal values give "".
std::string FirstJsonDifferencePath(const boost::json::value& a, const boost::json::value& b);

// How the values `a` and `b` of `name` differ, e.g. for DescribeJsonDifference("auditTrail[1]",
// shown, proven, "the bundle shows", "the proven record says"):
//   the bundle shows A, the proven record says B
// when both are short, else
//   differs at auditTrail[1].details.reason, first at character 312 of 400 and 400:
//   the bundle shows ..."window"..., the proven record says ..."window"...
// A missing value (nullptr) reads "nothing".
std::string DescribeJsonDifference(std::string_view name, const boost::json::value* a,
                                   const boost::json::value* b, std::string_view a_says,
                                   std::string_view b_says);

}  // namespace esign
