#include "base/json_pick.h"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/parse_options.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

namespace esign {
namespace {

namespace json = boost::json;

// The entry of `keys` equal to `key`, or nullptr: the picked object's keys are views of the pick's.
const std::string_view* Find(const std::vector<std::string_view>& keys, std::string_view key) {
  const auto found = std::find(keys.begin(), keys.end(), key);
  return found == keys.end() ? nullptr : &*found;
}

// Depth 0 is outside the document, 1 inside the object, 2 inside one of its members' values.
class PickHandler {
 public:
  static constexpr size_t max_object_size = std::numeric_limits<size_t>::max();
  static constexpr size_t max_array_size = std::numeric_limits<size_t>::max();
  static constexpr size_t max_key_size = std::numeric_limits<size_t>::max();
  static constexpr size_t max_string_size = std::numeric_limits<size_t>::max();

  explicit PickHandler(const JsonPick& pick) : pick_(pick) {}

  // The picked members, once the whole text parsed; nothing unless it was one object.
  std::optional<json::object> Take() {
    if (!top_is_object_) return std::nullopt;
    if (nested_is_object_) picked_[pick_.nested] = std::move(nested_);
    return std::move(picked_);
  }

  using ec_t = boost::system::error_code;
  bool on_document_begin(ec_t&) { return true; }
  bool on_document_end(ec_t&) { return true; }
  bool on_object_begin(ec_t&) {
    if (depth_ == 0) top_is_object_ = true;
    if (depth_ == 1 && at_nested_) {
      in_nested_ = nested_is_object_ = true;
      nested_ = json::object();
    } else {
      Put(json::object());
    }
    ++depth_;
    return true;
  }
  bool on_object_end(size_t, ec_t&) { return End(); }
  bool on_array_begin(ec_t&) {
    Put(json::array());
    ++depth_;
    return true;
  }
  bool on_array_end(size_t, ec_t&) { return End(); }
  // Keys and strings arrive in parts when they hold escapes; only those read are gathered.
  bool on_key_part(json::string_view part, size_t, ec_t&) { return Gather(KeyCounts(), part); }
  bool on_key(json::string_view part, size_t, ec_t&) {
    if (depth_ == 1) {
      const std::string_view key = Whole(part);
      member_ = Find(pick_.members, key);
      at_nested_ = !pick_.nested.empty() && key == pick_.nested;
    } else if (KeyCounts()) {
      nested_member_ = Find(pick_.nested_members, Whole(part));
    }
    partial_.clear();
    return true;
  }
  bool on_string_part(json::string_view part, size_t, ec_t&) { return Gather(Wanted(), part); }
  bool on_string(json::string_view part, size_t, ec_t&) {
    // A string not asked for still counts as a value: it may be the nested member's.
    if (!Wanted()) return Put(nullptr);
    Put(json::string(Whole(part)));
    partial_.clear();
    return true;
  }
  bool on_number_part(json::string_view, ec_t&) { return true; }
  bool on_int64(int64_t value, json::string_view, ec_t&) { return Put(value); }
  bool on_uint64(uint64_t value, json::string_view, ec_t&) { return Put(value); }
  bool on_double(double value, json::string_view, ec_t&) { return Put(value); }
  bool on_bool(bool value, ec_t&) { return Put(value); }
  bool on_null(ec_t&) { return Put(nullptr); }
  bool on_comment_part(json::string_view, ec_t&) { return true; }
  bool on_comment(json::string_view, ec_t&) { return true; }

 private:
  bool Gather(bool read, json::string_view part) {
    if (read) partial_.append(part.data(), part.size());
    return true;
  }
  // The token's text: `last` itself when it came whole (the usual case), else the parts gathered
  // and `last`. Valid until partial_ changes; the caller clears it once used.
  std::string_view Whole(json::string_view last) {
    if (partial_.empty()) return {last.data(), last.size()};
    partial_.append(last.data(), last.size());
    return partial_;
  }
  // Keys of the object, and of the nested object, are read; any deeper are not.
  bool KeyCounts() const { return depth_ == 1 || (depth_ == 2 && in_nested_); }
  // The value being read is a member asked for.
  bool Wanted() const {
    if (depth_ == 1) return member_ != nullptr;
    return depth_ == 2 && in_nested_ && nested_member_ != nullptr;
  }
  // A value (a scalar, or the start of an array or object) at the current place.
  bool Put(json::value value) {
    if (depth_ == 1 && at_nested_) {
      nested_is_object_ = false;  // the nested member holds something else this time
    } else if (Wanted()) {
      if (depth_ == 1) {
        picked_[*member_] = std::move(value);
      } else {
        nested_[*nested_member_] = std::move(value);
      }
    }
    return true;
  }
  bool End() {
    if (--depth_ == 1) in_nested_ = false;
    return true;
  }

  const JsonPick& pick_;
  int depth_ = 0;
  bool top_is_object_ = false;
  // Of the key read last at depth 1: the member of the pick it names (or nullptr), and whether it
  // is the nested member.
  const std::string_view* member_ = nullptr;
  bool at_nested_ = false;
  bool in_nested_ = false;                           // inside the nested member's object
  bool nested_is_object_ = false;                    // the nested member's last value is an object
  const std::string_view* nested_member_ = nullptr;  // of the key read last in it
  std::string partial_;                              // a key or string read in parts
  json::object picked_;
  json::object nested_;
};

}  // namespace

std::optional<json::object> PickJsonMembers(std::string_view text, const JsonPick& pick) {
  json::basic_parser<PickHandler> parser(json::parse_options(), pick);
  boost::system::error_code ec;
  const size_t used = parser.write_some(false, text.data(), text.size(), ec);
  if (ec || used != text.size()) return std::nullopt;
  return parser.handler().Take();
}

}  // namespace esign
