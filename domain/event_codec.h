// One codec for every event's data: each event type is a struct described with Boost.Describe
// (domain/event_data.h), and the three functions here walk that one description to read the
// stored JSON, to write it, and to publish its JSON Schema (2020-12). So the reader, the writer
// and the published schema cannot disagree. A member `sent_at` is the JSON member "sentAt".
//
// Members may be std::string, int64_t, bool, double, std::optional<T> (absent or null), std::vector
// <T>, a described struct, boost::json::object (any object) or boost::json::value (anything).
//
// Reading keeps every event the log holds readable: a member that is absent keeps its default
// (events written before the member existed), members the struct does not know are ignored, and
// only a member of the wrong JSON type makes the data unreadable.
#pragma once

#include <boost/describe.hpp>
#include <boost/json.hpp>
#include <boost/mp11.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "domain/result.h"

namespace esign::event_codec {

// "sent_at" -> "sentAt".
std::string JsonName(std::string_view member_name);

// The JSON names of T's described members, in order; computed once per type.
template <class T>
const std::vector<std::string>& JsonNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>(
        [&](auto member) { out.push_back(JsonName(member.name)); });
    return out;
  }();
  return names;
}

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};
template <class T>
inline constexpr bool kDescribed = boost::describe::has_describe_members<T>::value;

// ---- reading ----------------------------------------------------------------------------------

// Where a value is, as a chain of parts built only when a problem is named (reading allocates
// no path for values that read).
struct PathPart {
  const PathPart* parent = nullptr;
  std::string_view name;  // a member, or empty for an index
  size_t index = 0;
  std::string Text() const {
    std::string out = parent != nullptr ? parent->Text() : "";
    if (parent == nullptr && name.empty()) return out;  // the root
    out += "/";
    out += name.empty() ? std::to_string(index) : std::string(name);
    return out;
  }
};

template <class T>
bool ReadMembers(const boost::json::object& object, T& out, std::string& problem,
                 const PathPart& path);

// Reads `value` into `out`; on a value of the wrong type, sets `problem` to its path and returns
// false.
template <class T>
bool Read(const boost::json::value& value, T& out, std::string& problem, const PathPart& path) {
  auto wrong = [&](std::string_view expected) {
    problem = path.Text() + ": expected " + std::string(expected);
    return false;
  };
  if constexpr (std::is_same_v<T, std::string>) {
    if (!value.is_string()) return wrong("a string");
    out = value.get_string();
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!value.is_bool()) return wrong("a boolean");
    out = value.get_bool();
  } else if constexpr (std::is_same_v<T, int64_t>) {
    if (value.is_int64()) {
      out = value.get_int64();
    } else if (value.is_uint64() && value.get_uint64() <= INT64_MAX) {
      out = static_cast<int64_t>(value.get_uint64());
    } else {
      return wrong("an integer");
    }
  } else if constexpr (std::is_same_v<T, double>) {
    if (!value.is_number()) return wrong("a number");
    out = value.to_number<double>();
  } else if constexpr (std::is_same_v<T, boost::json::value>) {
    out = value;
  } else if constexpr (std::is_same_v<T, boost::json::object>) {
    if (!value.is_object()) return wrong("an object");
    out = value.get_object();
  } else if constexpr (IsOptional<T>::value) {
    if (value.is_null()) {
      out.reset();
      return true;
    }
    typename T::value_type inner{};
    if (!Read(value, inner, problem, path)) return false;
    out = std::move(inner);
  } else if constexpr (IsVector<T>::value) {
    // Contracts from uploads created before fieldValues became a list hold `{}` there.
    if (value.is_object() && value.get_object().empty()) {
      out.clear();
      return true;
    }
    if (!value.is_array()) return wrong("an array");
    const auto& array = value.get_array();
    out.clear();
    out.reserve(array.size());
    for (size_t i = 0; i < array.size(); ++i) {
      typename T::value_type item{};
      if (!Read(array[i], item, problem, PathPart{&path, {}, i})) return false;
      out.push_back(std::move(item));
    }
  } else {
    static_assert(kDescribed<T>, "an event member must be of a type event_codec.h knows");
    if (!value.is_object()) return wrong("an object");
    return ReadMembers(value.get_object(), out, problem, path);
  }
  return true;
}

// The members of a described struct T.
template <class T>
bool ReadMembers(const boost::json::object& object, T& out, std::string& problem,
                 const PathPart& path) {
  const auto& names = JsonNames<T>();
  size_t index = 0;
  bool ok = true;
  boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>(
      [&](auto member) {
        const std::string& name = names[index++];
        if (!ok) return;
        if (const auto* found = object.if_contains(name)) {
          ok = Read(*found, out.*member.pointer, problem, PathPart{&path, name});
        }
      });
  return ok;
}

// The data of an event as T; kCorruption naming the first member of the wrong type.
template <class T>
Result<T> ReadData(const boost::json::object& data) {
  T out{};
  std::string problem;
  if (!ReadMembers(data, out, problem, PathPart{})) {
    return Fail(ErrorCode::kCorruption, std::string(T::kType) + " data at " + problem);
  }
  return out;
}

// The same from serialized data (an event record's).
template <class T>
Result<T> ParseData(std::string_view text) {
  boost::system::error_code ec;
  const boost::json::value parsed = boost::json::parse(text, ec);
  if (ec || !parsed.is_object()) {
    return Fail(ErrorCode::kCorruption, std::string(T::kType) + " data is not a JSON object");
  }
  return ReadData<T>(parsed.get_object());
}

// ---- writing ----------------------------------------------------------------------------------

template <class T>
boost::json::value Write(const T& in) {
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool> ||
                std::is_same_v<T, int64_t> || std::is_same_v<T, double> ||
                std::is_same_v<T, boost::json::value> || std::is_same_v<T, boost::json::object>) {
    return boost::json::value(in);
  } else if constexpr (IsOptional<T>::value) {
    return in ? Write(*in) : boost::json::value();
  } else if constexpr (IsVector<T>::value) {
    boost::json::array array;
    array.reserve(in.size());
    for (const auto& item : in) array.push_back(Write(item));
    return array;
  } else {
    static_assert(kDescribed<T>, "an event member must be of a type event_codec.h knows");
    boost::json::object object;
    const auto& names = JsonNames<T>();
    object.reserve(names.size());
    size_t index = 0;
    boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>(
        [&](auto member) {
          const std::string& name = names[index++];
          const auto& field = in.*member.pointer;
          if constexpr (IsOptional<std::remove_cvref_t<decltype(field)>>::value) {
            if (!field) return;  // absent, not null
          }
          object[name] = Write(field);
        });
    return object;
  }
}

// The data of an event, as stored.
template <class T>
boost::json::object WriteData(const T& data) {
  return Write(data).get_object();
}

// ---- the published schema ---------------------------------------------------------------------

// A string member whose JSON name ends in "At" is an RFC 3339 time.
boost::json::object StringSchema(std::string_view json_name);
// {"anyOf": [schema, {"type": "null"}]}, or the type list with "null" added.
boost::json::object NullableSchema(boost::json::object schema);

template <class T>
boost::json::object Schema(std::string_view json_name = {}) {
  if constexpr (std::is_same_v<T, std::string>) {
    return StringSchema(json_name);
  } else if constexpr (std::is_same_v<T, bool>) {
    return {{"type", "boolean"}};
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return {{"type", "integer"}};
  } else if constexpr (std::is_same_v<T, double>) {
    return {{"type", "number"}};
  } else if constexpr (std::is_same_v<T, boost::json::value>) {
    return {};
  } else if constexpr (std::is_same_v<T, boost::json::object>) {
    return {{"type", "object"}};
  } else if constexpr (IsOptional<T>::value) {
    return NullableSchema(Schema<typename T::value_type>(json_name));
  } else if constexpr (IsVector<T>::value) {
    return {{"type", "array"}, {"items", Schema<typename T::value_type>()}};
  } else {
    static_assert(kDescribed<T>, "an event member must be of a type event_codec.h knows");
    boost::json::object properties;
    boost::json::array required;
    const auto& names = JsonNames<T>();
    size_t index = 0;
    boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>(
        [&](auto member) {
          const std::string& name = names[index++];
          using Member = std::remove_cvref_t<decltype(std::declval<T>().*member.pointer)>;
          properties[name] = Schema<Member>(name);
          if constexpr (!IsOptional<Member>::value) required.emplace_back(name);
        });
    boost::json::object schema{{"type", "object"}, {"properties", std::move(properties)}};
    if (!required.empty()) schema["required"] = std::move(required);
    return schema;
  }
}

}  // namespace esign::event_codec

namespace esign::event_codec {

// What Visit did with an event.
enum class Visited { kYes, kUnknownType, kUnreadable };

// Reads `data` as the struct of List whose kType is `type` and calls visit(const T&) with it.
template <class List, class F>
Visited Visit(std::string_view type, const boost::json::object& data, F&& visit) {
  Visited result = Visited::kUnknownType;
  boost::mp11::mp_for_each<boost::mp11::mp_transform<boost::mp11::mp_identity, List>>(
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (result != Visited::kUnknownType || T::kType != type) return;
        auto read = ReadData<T>(data);
        if (!read) {
          result = Visited::kUnreadable;
          return;
        }
        result = Visited::kYes;
        visit(*read);
      });
  return result;
}

}  // namespace esign::event_codec

namespace esign::event_codec {

// True when List has a struct whose kType is `type`.
template <class List>
bool Lists(std::string_view type) {
  bool found = false;
  boost::mp11::mp_for_each<boost::mp11::mp_transform<boost::mp11::mp_identity, List>>(
      [&](auto tag) { found = found || decltype(tag)::type::kType == type; });
  return found;
}

// Visit over the serialized data of an event record: data that is not a JSON object is
// kUnreadable, like data of the wrong shape. The data of a type List does not have is not even
// parsed (a projection that reads a few types sees every event of the log).
template <class List, class F>
Visited VisitText(std::string_view type, std::string_view data, F&& visit) {
  if (!Lists<List>(type)) return Visited::kUnknownType;
  boost::system::error_code ec;
  const boost::json::value parsed = boost::json::parse(data, ec);
  if (ec || !parsed.is_object()) return Visited::kUnreadable;
  return Visit<List>(type, parsed.get_object(), std::forward<F>(visit));
}

}  // namespace esign::event_codec

namespace esign::event_codec {

// The data of an event of type T::kType, read as T; nothing for another type or unreadable data.
template <class T>
std::optional<T> As(std::string_view type, const boost::json::object& data) {
  if (type != T::kType) return std::nullopt;
  auto read = ReadData<T>(data);
  return read ? std::optional<T>(std::move(*read)) : std::nullopt;
}

template <class T>
std::optional<T> AsText(std::string_view type, std::string_view data) {
  if (type != T::kType) return std::nullopt;
  boost::system::error_code ec;
  const boost::json::value parsed = boost::json::parse(data, ec);
  if (ec || !parsed.is_object()) return std::nullopt;
  return As<T>(type, parsed.get_object());
}

// Lambdas for several types as one visitor of Visit.
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace esign::event_codec
