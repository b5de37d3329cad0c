#include "domain/event_codec.h"

#include <cctype>

namespace esign::event_codec {

std::string JsonName(std::string_view member_name) {
  std::string out;
  out.reserve(member_name.size());
  bool upper = false;
  for (const char c : member_name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out.push_back(upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    upper = false;
  }
  return out;
}

boost::json::object StringSchema(std::string_view json_name) {
  boost::json::object schema{{"type", "string"}};
  if (json_name.size() > 2 && json_name.ends_with("At")) schema["format"] = "date-time";
  return schema;
}

boost::json::object NullableSchema(boost::json::object schema) {
  if (const auto* type = schema.if_contains("type"); type != nullptr && type->is_string()) {
    schema["type"] = boost::json::array{*type, "null"};
    return schema;
  }
  if (schema.empty()) return schema;  // anything, null included
  return {{"anyOf", boost::json::array{std::move(schema), boost::json::object{{"type", "null"}}}}};
}

}  // namespace esign::event_codec
