#include "base/json_read.h"

#include <limits>

namespace esign {

const boost::json::value* Member(const boost::json::object& object, std::string_view key) {
  const boost::json::value* found = object.if_contains(key);
  if (found == nullptr || found->is_null()) return nullptr;
  return found;
}

std::optional<int64_t> AsInteger(const boost::json::value& value) {
  if (value.is_int64()) return value.get_int64();
  if (value.is_uint64() && value.get_uint64() <= uint64_t{std::numeric_limits<int64_t>::max()}) {
    return static_cast<int64_t>(value.get_uint64());
  }
  return std::nullopt;
}

std::optional<double> AsNumber(const boost::json::value& value) {
  if (value.is_double()) return value.get_double();
  if (value.is_int64()) return static_cast<double>(value.get_int64());
  if (value.is_uint64()) return static_cast<double>(value.get_uint64());
  return std::nullopt;
}

std::optional<double> NumberMember(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  if (value == nullptr) return std::nullopt;
  return AsNumber(*value);
}

std::optional<uint64_t> AsUnsigned(const boost::json::value& value) {
  if (value.is_uint64()) return value.get_uint64();
  if (value.is_int64() && value.get_int64() >= 0) return static_cast<uint64_t>(value.get_int64());
  return std::nullopt;
}

std::optional<std::string_view> StringMember(const boost::json::object& object,
                                             std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  if (value == nullptr || !value->is_string()) return std::nullopt;
  const boost::json::string& text = value->get_string();
  return std::string_view(text.data(), text.size());
}

std::string StringMemberOrEmpty(const boost::json::object& object, std::string_view key) {
  return std::string(StringMember(object, key).value_or(std::string_view()));
}

std::optional<int64_t> IntegerMember(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  if (value == nullptr) return std::nullopt;
  return AsInteger(*value);
}

std::optional<uint64_t> UnsignedMember(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  if (value == nullptr) return std::nullopt;
  return AsUnsigned(*value);
}

const boost::json::object* ObjectMember(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  return value != nullptr ? value->if_object() : nullptr;
}

boost::json::object ObjectMemberOrEmpty(const boost::json::object& object, std::string_view key) {
  const boost::json::object* member = ObjectMember(object, key);
  return member != nullptr ? *member : boost::json::object();
}

const boost::json::array* ArrayMember(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  return value != nullptr ? value->if_array() : nullptr;
}

}  // namespace esign
