#include "domain/json_util.h"

#include <algorithm>

namespace esign {

std::string JoinPath(std::string_view path, std::string_view key) {
  std::string out(path);
  if (!out.empty()) out += '.';
  out += key;
  return out;
}

std::string IndexPath(std::string_view path, size_t index) {
  std::string out(path);
  out += '[';
  out += std::to_string(index);
  out += ']';
  return out;
}

std::string_view KindName(const boost::json::value& value) {
  switch (value.kind()) {
    case boost::json::kind::null:
      return "null";
    case boost::json::kind::bool_:
      return "boolean";
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
      return "integer";
    case boost::json::kind::double_:
      return "number";
    case boost::json::kind::string:
      return "string";
    case boost::json::kind::array:
      return "array";
    case boost::json::kind::object:
      return "object";
  }
  return "unknown";
}

void RejectUnknownMembers(const boost::json::object& object, std::string_view path,
                          std::initializer_list<std::string_view> allowed, Details& details) {
  for (const auto& member : object) {
    if (std::find(allowed.begin(), allowed.end(), member.key()) == allowed.end()) {
      AddDetail(details, JoinPath(path, member.key()), "unknown field");
    }
  }
}

namespace {

void AppendCanonical(const boost::json::value& value, std::string& out) {
  if (value.is_object()) {
    const auto& object = value.get_object();
    std::vector<const boost::json::key_value_pair*> members;
    members.reserve(object.size());
    for (const auto& member : object) members.push_back(&member);
    std::sort(members.begin(), members.end(),
              [](const auto* a, const auto* b) { return a->key() < b->key(); });
    out += '{';
    for (size_t i = 0; i < members.size(); ++i) {
      if (i > 0) out += ',';
      out += boost::json::serialize(boost::json::string_view(members[i]->key()));
      out += ':';
      AppendCanonical(members[i]->value(), out);
    }
    out += '}';
  } else if (value.is_array()) {
    out += '[';
    const auto& array = value.get_array();
    for (size_t i = 0; i < array.size(); ++i) {
      if (i > 0) out += ',';
      AppendCanonical(array[i], out);
    }
    out += ']';
  } else {
    out += boost::json::serialize(value);
  }
}

}  // namespace

std::string CanonicalJson(const boost::json::value& value) {
  std::string out;
  AppendCanonical(value, out);
  return out;
}

boost::json::value TextOrNull(std::string_view text) {
  return text.empty() ? boost::json::value(nullptr) : boost::json::value(text);
}

}  // namespace esign
