#include "base/json_difference.h"

#include <algorithm>
#include <string_view>

namespace esign {
namespace {

namespace json = boost::json;

// The values at the first difference, and the path that leads there.
struct JsonDifferenceAt {
  std::string path;
  const json::value* a = nullptr;
  const json::value* b = nullptr;
};

JsonDifferenceAt FindJsonDifference(const json::value* a, const json::value* b, std::string path) {
  if (a == nullptr || b == nullptr || a->kind() != b->kind() || *a == *b) {
    return {std::move(path), a, b};
  }
  if (a->is_object()) {
    const json::object& ao = a->get_object();
    const json::object& bo = b->get_object();
    for (const auto& member : bo) {
      const json::value* other = ao.if_contains(member.key());
      if (other == nullptr || *other != member.value()) {
        return FindJsonDifference(other, &member.value(), path + "." + std::string(member.key()));
      }
    }
    for (const auto& member : ao) {
      if (!bo.contains(member.key())) {
        return {path + "." + std::string(member.key()), &member.value(), nullptr};
      }
    }
  } else if (a->is_array()) {
    const json::array& aa = a->get_array();
    const json::array& ba = b->get_array();
    for (size_t i = 0; i < std::max(aa.size(), ba.size()); ++i) {
      const json::value* x = i < aa.size() ? &aa[i] : nullptr;
      const json::value* y = i < ba.size() ? &ba[i] : nullptr;
      if (x == nullptr || y == nullptr || *x != *y) {
        return FindJsonDifference(x, y, path + "[" + std::to_string(i) + "]");
      }
    }
  }
  return {std::move(path), a, b};
}

std::string JsonText(const json::value* value) {
  return value == nullptr ? "nothing" : json::serialize(*value);
}

// `text` around `offset`: up to kJsonDifferenceWindow characters on each side, with "..." where
// it was cut.
std::string TextWindow(const std::string& text, size_t offset) {
  const size_t from = offset > kJsonDifferenceWindow ? offset - kJsonDifferenceWindow : 0;
  const size_t to = std::min(text.size(), offset + kJsonDifferenceWindow);
  return (from > 0 ? "..." : "") + text.substr(from, to - from) + (to < text.size() ? "..." : "");
}

}  // namespace

std::string FirstJsonDifferencePath(const json::value& a, const json::value& b) {
  return FindJsonDifference(&a, &b, "").path;
}

std::string DescribeJsonDifference(std::string_view name, const json::value* a,
                                   const json::value* b, std::string_view a_says,
                                   std::string_view b_says) {
  const std::string a_whole = JsonText(a);
  const std::string b_whole = JsonText(b);
  const std::string says_a(a_says);
  const std::string says_b(b_says);
  if (a_whole.size() <= kJsonShownWhole && b_whole.size() <= kJsonShownWhole) {
    return says_a + " " + a_whole + ", " + says_b + " " + b_whole;
  }
  const JsonDifferenceAt at = FindJsonDifference(a, b, "");
  const std::string a_text = JsonText(at.a);
  const std::string b_text = JsonText(at.b);
  const std::string where = at.path.empty() ? "" : " at " + std::string(name) + at.path;
  if (a_text.size() <= kJsonShownWhole && b_text.size() <= kJsonShownWhole) {
    return "differs" + where + ": " + says_a + " " + a_text + ", " + says_b + " " + b_text;
  }
  const auto mismatch = std::mismatch(a_text.begin(), a_text.end(), b_text.begin(), b_text.end());
  const size_t offset = static_cast<size_t>(mismatch.first - a_text.begin());
  return "differs" + where + ", first at character " + std::to_string(offset) + " of " +
         std::to_string(a_text.size()) + " and " + std::to_string(b_text.size()) + ": " + says_a +
         " " + TextWindow(a_text, offset) + ", " + says_b + " " + TextWindow(b_text, offset);
}

}  // namespace esign
