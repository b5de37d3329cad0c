// Typed readers of JSON object members, for documents the service stored or received. Each
// answers nothing (or nullptr) when the member is absent or of another type, so a caller decides
// in one place whether that is an error, a default or a corruption.
// Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace esign {

// The member's value, or nullptr when the member is absent or null: the API treats an explicit
// null like an omitted member everywhere except in data values, where null clears a field.
const boost::json::value* Member(const boost::json::object& object, std::string_view key);

// A JSON integer (int64 or a uint64 that fits), never a double such as 1.0.
std::optional<int64_t> AsInteger(const boost::json::value& value);
// A JSON integer that is not negative (uint64, or an int64 >= 0), never a double.
std::optional<uint64_t> AsUnsigned(const boost::json::value& value);

// Any JSON number (integer or double) as a double.
std::optional<double> AsNumber(const boost::json::value& value);
// The member as a double when it is a number.
std::optional<double> NumberMember(const boost::json::object& object, std::string_view key);

// The member's text when it is a string; the view lives as long as `object`.
std::optional<std::string_view> StringMember(const boost::json::object& object,
                                             std::string_view key);
// The member's text when it is a string, else "": for documents where absent means empty.
std::string StringMemberOrEmpty(const boost::json::object& object, std::string_view key);
std::optional<int64_t> IntegerMember(const boost::json::object& object, std::string_view key);
std::optional<uint64_t> UnsignedMember(const boost::json::object& object, std::string_view key);
// A copy of the member when it is an object, else an empty object.
boost::json::object ObjectMemberOrEmpty(const boost::json::object& object, std::string_view key);
const boost::json::object* ObjectMember(const boost::json::object& object, std::string_view key);
const boost::json::array* ArrayMember(const boost::json::object& object, std::string_view key);

}  // namespace esign
