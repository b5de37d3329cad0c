#include "domain/field_value.h"

#include "base/json_read.h"
#include "domain/decimal.h"
#include "domain/text_formats.h"

namespace esign {
namespace {

bool CheckRange(const FieldDef& def, const std::string& decimal, const std::string& path,
                Details& details) {
  if (def.minimum && CompareDecimals(decimal, *def.minimum) < 0) {
    AddDetail(details, path, "must be at least " + *def.minimum);
    return false;
  }
  if (def.maximum && CompareDecimals(decimal, *def.maximum) > 0) {
    AddDetail(details, path, "must be at most " + *def.maximum);
    return false;
  }
  return true;
}

std::optional<boost::json::value> NormalizeText(const FieldDef& def,
                                                const boost::json::value& value,
                                                const std::string& path, Details& details) {
  if (!value.is_string()) {
    AddDetail(details, path, "must be a string");
    return std::nullopt;
  }
  std::string_view text = value.get_string();
  if (def.type == FieldType::kString && text.find_first_of("\r\n") != std::string_view::npos) {
    AddDetail(details, path, "must be a single line (use a text field for several lines)");
    return std::nullopt;
  }
  int64_t length = CountCharacters(text);
  int64_t max = def.max_length.value_or(def.type == FieldType::kString ? kDefaultStringMaxLength
                                                                       : kDefaultTextMaxLength);
  if (def.min_length && length < *def.min_length) {
    AddDetail(details, path, "must be at least " + std::to_string(*def.min_length) + " characters");
    return std::nullopt;
  }
  if (length > max) {
    AddDetail(details, path, "must be at most " + std::to_string(max) + " characters");
    return std::nullopt;
  }
  return value;
}

}  // namespace

int64_t CountCharacters(std::string_view utf8) {
  int64_t count = 0;
  for (unsigned char c : utf8) {
    if ((c & 0xC0) != 0x80) ++count;
  }
  return count;
}

std::optional<boost::json::value> NormalizeFieldValue(const FieldDef& def,
                                                      const boost::json::value& value,
                                                      const std::string& path, Details& details) {
  switch (def.type) {
    case FieldType::kString:
    case FieldType::kText:
      return NormalizeText(def, value, path, details);
    case FieldType::kInteger: {
      auto number = AsInteger(value);
      if (!number) {
        AddDetail(details, path, "must be an integer");
        return std::nullopt;
      }
      if (!CheckRange(def, std::to_string(*number), path, details)) return std::nullopt;
      return boost::json::value(*number);
    }
    case FieldType::kDecimal: {
      auto decimal = DecimalFromJson(value);
      if (!decimal) {
        AddDetail(details, path, "must be a decimal: a number or a string like \"1250.50\"");
        return std::nullopt;
      }
      if (!CheckRange(def, *decimal, path, details)) return std::nullopt;
      return boost::json::value(boost::json::string(*decimal));
    }
    case FieldType::kBoolean:
      if (!value.is_bool()) {
        AddDetail(details, path, "must be a boolean");
        return std::nullopt;
      }
      return value;
    case FieldType::kDate:
      if (!value.is_string() || !IsCalendarDate(value.get_string())) {
        AddDetail(details, path, "must be a calendar date YYYY-MM-DD");
        return std::nullopt;
      }
      return value;
    case FieldType::kEmail:
      if (!value.is_string() || !IsEmailAddress(value.get_string())) {
        AddDetail(details, path, std::string(kEmailAddressRule));
        return std::nullopt;
      }
      return value;
    case FieldType::kEnum: {
      if (value.is_string()) {
        for (const auto& option : def.options) {
          if (option == value.get_string()) return value;
        }
      }
      std::string options;
      for (const auto& option : def.options) {
        if (!options.empty()) options += ", ";
        options += option;
      }
      AddDetail(details, path, "must be one of: " + options);
      return std::nullopt;
    }
  }
  AddDetail(details, path, "unsupported field type");
  return std::nullopt;
}

}  // namespace esign
