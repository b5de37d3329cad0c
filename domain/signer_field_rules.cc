#include "domain/signer_field_rules.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <memory>
#include <utility>

#include "base/json_read.h"
#include "domain/decimal.h"
#include "domain/field_value.h"
#include "domain/text_formats.h"

namespace esign {
namespace {

constexpr std::array kInputTypes{
    std::pair{SignerInputType::kText, std::string_view("text")},
    std::pair{SignerInputType::kNumber, std::string_view("number")},
    std::pair{SignerInputType::kDate, std::string_view("date")},
    std::pair{SignerInputType::kCheckbox, std::string_view("checkbox")},
    std::pair{SignerInputType::kRadio, std::string_view("radio")},
    std::pair{SignerInputType::kDropdown, std::string_view("dropdown")},
    std::pair{SignerInputType::kEmail, std::string_view("email")},
    std::pair{SignerInputType::kPhone, std::string_view("phone")},
    std::pair{SignerInputType::kAttachment, std::string_view("attachment")},
};
constexpr size_t kMaxPhoneDigits = 15;  // E.164
constexpr size_t kMinPhoneDigits = 5;
constexpr int kMaxStepDecimals = 9;

bool HasOptions(SignerInputType type) {
  return type == SignerInputType::kRadio || type == SignerInputType::kDropdown;
}

// The rule members each type takes, besides "default" and "showIf", which all take.
std::vector<std::string_view> MembersOf(SignerInputType type) {
  switch (type) {
    case SignerInputType::kText:
      return {"minLength", "maxLength", "pattern", "patternMessage"};
    case SignerInputType::kNumber:
      return {"min", "max", "step"};
    case SignerInputType::kDate:
      return {"min", "max"};
    case SignerInputType::kRadio:
    case SignerInputType::kDropdown:
      return {"options"};
    default:
      return {};
  }
}

std::unique_ptr<re2::RE2> Compile(std::string_view pattern) {
  re2::RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(int64_t{8} << 20);
  return std::make_unique<re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
}

// A decimal as integer units of 10^-scale; nullopt when it has non-zero digits beyond the scale
// or does not fit.
std::optional<__int128> Scaled(std::string_view decimal, int scale) {
  bool negative = !decimal.empty() && decimal.front() == '-';
  if (negative) decimal.remove_prefix(1);
  const size_t dot = decimal.find('.');
  std::string_view whole = decimal.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? "" : decimal.substr(dot + 1);
  while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  if (static_cast<int>(fraction.size()) > scale || whole.size() > 25) return std::nullopt;
  __int128 units = 0;
  for (char c : whole) units = units * 10 + (c - '0');
  for (int i = 0; i < scale; ++i) {
    units = units * 10 + (i < static_cast<int>(fraction.size()) ? fraction[i] - '0' : 0);
  }
  return negative ? -units : units;
}

int Decimals(std::string_view decimal) {
  const size_t dot = decimal.find('.');
  if (dot == std::string_view::npos) return 0;
  std::string_view fraction = decimal.substr(dot + 1);
  while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  return static_cast<int>(fraction.size());
}

std::optional<std::string> ReadBound(SignerInputType type, const boost::json::object& item,
                                     const std::string& path, std::string_view key,
                                     Details& details) {
  const auto* value = Member(item, key);
  if (value == nullptr) return std::nullopt;
  if (type == SignerInputType::kDate) {
    if (value->is_string() && IsCalendarDate(value->get_string())) {
      return std::string(value->get_string());
    }
    AddDetail(details, JoinPath(path, key), "a date YYYY-MM-DD");
    return std::nullopt;
  }
  auto decimal = DecimalFromJson(*value);
  if (!decimal) AddDetail(details, JoinPath(path, key), "a number");
  return decimal;
}

std::optional<int64_t> ReadLength(const boost::json::object& item, const std::string& path,
                                  std::string_view key, Details& details) {
  const auto* value = Member(item, key);
  if (value == nullptr) return std::nullopt;
  auto number = AsInteger(*value);
  if (!number || *number < 0 || *number > kMaxSignerTextLength) {
    AddDetail(details, JoinPath(path, key),
              "an integer 0.." + std::to_string(kMaxSignerTextLength));
    return std::nullopt;
  }
  return number;
}

std::string PhoneOf(std::string_view text) {
  std::string digits;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      digits += c;
    } else if (c == '+' && i == 0) {
      continue;
    } else if (c != ' ' && c != '-' && c != '.' && c != '(' && c != ')') {
      return "";
    }
  }
  if (digits.size() < kMinPhoneDigits || digits.size() > kMaxPhoneDigits) return "";
  return "+" + digits;
}

}  // namespace

std::string_view ToString(SignerInputType type) {
  for (const auto& [value, name] : kInputTypes) {
    if (value == type) return name;
  }
  return "text";
}

std::optional<SignerInputType> ParseSignerInputType(std::string_view text) {
  for (const auto& [value, name] : kInputTypes) {
    if (name == text) return value;
  }
  return std::nullopt;
}

const std::vector<std::string_view>& SignerRuleMembers() {
  static const std::vector<std::string_view> members{
      "minLength", "maxLength", "pattern", "patternMessage", "min",
      "max",       "step",      "options", "default",        "showIf"};
  return members;
}

bool AcceptPattern(std::string_view pattern, std::string& why) {
  if (pattern.size() > kMaxPatternLength) {
    why = "at most " + std::to_string(kMaxPatternLength) + " characters";
    return false;
  }
  auto compiled = Compile(pattern);
  if (!compiled->ok()) {
    why = "not a pattern RE2 accepts (" + compiled->error() +
          "); backreferences and lookaround are not supported";
    return false;
  }
  if (compiled->ProgramSize() > kMaxPatternProgram) {
    why = "too complex (RE2 program size " + std::to_string(compiled->ProgramSize()) +
          ", at most " + std::to_string(kMaxPatternProgram) + ")";
    return false;
  }
  return true;
}

std::optional<SignerFieldRules> ReadSignerFieldRules(SignerInputType type,
                                                     const boost::json::object& item,
                                                     const std::string& path, Details& details) {
  const size_t before = details.size();
  const std::vector<std::string_view> allowed = MembersOf(type);
  for (std::string_view member : SignerRuleMembers()) {
    if (member == "default" || member == "showIf" || Member(item, member) == nullptr) continue;
    if (std::find(allowed.begin(), allowed.end(), member) == allowed.end()) {
      AddDetail(details, JoinPath(path, member),
                "not a rule of the " + std::string(ToString(type)) + " type");
    }
  }
  SignerFieldRules rules;
  rules.type = type;
  if (details.size() != before) return std::nullopt;
  rules.min_length = ReadLength(item, path, "minLength", details);
  rules.max_length = ReadLength(item, path, "maxLength", details);
  if (rules.min_length && rules.max_length && *rules.min_length > *rules.max_length) {
    AddDetail(details, JoinPath(path, "minLength"), "more than maxLength");
  }
  if (const auto* pattern = Member(item, "pattern")) {
    std::string why;
    if (!pattern->is_string() || pattern->get_string().empty()) {
      AddDetail(details, JoinPath(path, "pattern"), "a non-empty string (RE2 syntax)");
    } else if (!AcceptPattern(pattern->get_string(), why)) {
      AddDetail(details, JoinPath(path, "pattern"), why);
    } else {
      rules.pattern = std::string(pattern->get_string());
    }
  }
  if (const auto* message = Member(item, "patternMessage")) {
    if (!message->is_string() || CountCharacters(message->get_string()) > kMaxOptionLength) {
      AddDetail(details, JoinPath(path, "patternMessage"),
                "a string of at most " + std::to_string(kMaxOptionLength) + " characters");
    } else {
      rules.pattern_message = std::string(message->get_string());
    }
  }
  rules.minimum = ReadBound(type, item, path, "min", details);
  rules.maximum = ReadBound(type, item, path, "max", details);
  if (rules.minimum && rules.maximum &&
      (type == SignerInputType::kDate ? *rules.minimum > *rules.maximum
                                      : CompareDecimals(*rules.minimum, *rules.maximum) > 0)) {
    AddDetail(details, JoinPath(path, "min"), "more than max");
  }
  if (type == SignerInputType::kNumber && Member(item, "step") != nullptr) {
    rules.step = ReadBound(type, item, path, "step", details);
    if (rules.step &&
        (CompareDecimals(*rules.step, "0") <= 0 || Decimals(*rules.step) > kMaxStepDecimals)) {
      AddDetail(details, JoinPath(path, "step"),
                "a positive number with at most " + std::to_string(kMaxStepDecimals) + " decimals");
      rules.step.reset();
    }
  }
  if (HasOptions(type)) {
    const auto* options = Member(item, "options");
    if (options == nullptr || !options->is_array() || options->get_array().empty() ||
        options->get_array().size() > kMaxOptions) {
      AddDetail(details, JoinPath(path, "options"),
                "1 to " + std::to_string(kMaxOptions) + " distinct strings");
    } else {
      for (const auto& option : options->get_array()) {
        if (!option.is_string() || option.get_string().empty() ||
            CountCharacters(option.get_string()) > kMaxOptionLength ||
            std::find(rules.options.begin(), rules.options.end(), option.get_string()) !=
                rules.options.end()) {
          AddDetail(details, JoinPath(path, "options"),
                    "1 to " + std::to_string(kMaxOptions) +
                        " distinct non-empty strings of at most " +
                        std::to_string(kMaxOptionLength) + " characters");
          break;
        }
        rules.options.emplace_back(option.get_string());
      }
    }
  }
  if (const auto* show_if = Member(item, "showIf")) {
    const auto* object = show_if->if_object();
    auto field = object != nullptr ? StringMember(*object, "field") : std::nullopt;
    const auto* equals = object != nullptr ? Member(*object, "equals") : nullptr;
    if (!field || field->empty() || equals == nullptr || equals->is_null() || equals->is_object() ||
        equals->is_array() || object->size() != 2) {
      AddDetail(details, JoinPath(path, "showIf"),
                "{field, equals}: the id of another field of the same signer and a value");
    } else {
      rules.show_if = ShowIf{std::string(*field), *equals};
    }
  }
  if (details.size() != before) return std::nullopt;
  if (const auto* value = Member(item, "default")) {
    if (type == SignerInputType::kAttachment) {
      AddDetail(details, JoinPath(path, "default"), "an attachment field takes no default");
      return std::nullopt;
    }
    auto stored = CheckSignerValue(rules, *value, JoinPath(path, "default"), details);
    if (!stored) return std::nullopt;
    rules.default_value = std::move(*stored);
  }
  return rules;
}

boost::json::object SignerAttachmentToJson(const SignerAttachment& attachment) {
  return {{"sha256", attachment.sha256},
          {"name", attachment.name},
          {"mediaType", attachment.media_type},
          {"size", attachment.size}};
}

std::optional<boost::json::value> CheckSignerValue(const SignerFieldRules& rules,
                                                   const boost::json::value& value,
                                                   const std::string& path, Details& details,
                                                   const std::vector<SignerAttachment>& uploaded) {
  auto refuse = [&](std::string issue) -> std::optional<boost::json::value> {
    AddDetail(details, path, std::move(issue));
    return std::nullopt;
  };
  switch (rules.type) {
    case SignerInputType::kAttachment: {
      const boost::json::value* sha256 = &value;
      if (const auto* object = value.if_object(); object != nullptr && object->size() == 1) {
        sha256 = object->if_contains("sha256");
      }
      const auto found =
          sha256 == nullptr || !sha256->is_string()
              ? uploaded.end()
              : std::find_if(uploaded.begin(), uploaded.end(), [&](const SignerAttachment& a) {
                  return a.sha256 == sha256->get_string();
                });
      if (found == uploaded.end()) {
        return refuse("the sha256 of a file uploaded to this signing session");
      }
      return boost::json::value(SignerAttachmentToJson(*found));
    }
    case SignerInputType::kCheckbox:
      if (!value.is_bool()) return refuse("true or false");
      return value;
    case SignerInputType::kNumber: {
      auto decimal = DecimalFromJson(value);
      if (!decimal) return refuse("a number");
      if (rules.minimum && CompareDecimals(*decimal, *rules.minimum) < 0) {
        return refuse("at least " + *rules.minimum);
      }
      if (rules.maximum && CompareDecimals(*decimal, *rules.maximum) > 0) {
        return refuse("at most " + *rules.maximum);
      }
      if (rules.step) {
        const int scale = std::max(Decimals(*rules.step), Decimals(rules.minimum.value_or("0")));
        auto units = Scaled(*decimal, scale);
        auto base = Scaled(rules.minimum.value_or("0"), scale);
        auto step = Scaled(*rules.step, scale);
        if (!units || !base || !step || *step == 0 || (*units - *base) % *step != 0) {
          return refuse("a multiple of " + *rules.step + " from " + rules.minimum.value_or("0"));
        }
      }
      return boost::json::value(*decimal);
    }
    default:
      break;
  }
  if (!value.is_string()) return refuse("a string");
  const std::string_view text = value.get_string();
  switch (rules.type) {
    case SignerInputType::kDate:
      if (!IsCalendarDate(text)) return refuse("a date YYYY-MM-DD");
      if (rules.minimum && text < *rules.minimum) return refuse("on or after " + *rules.minimum);
      if (rules.maximum && text > *rules.maximum) return refuse("on or before " + *rules.maximum);
      return value;
    case SignerInputType::kRadio:
    case SignerInputType::kDropdown:
      if (std::find(rules.options.begin(), rules.options.end(), text) == rules.options.end()) {
        return refuse("one of the field's options");
      }
      return value;
    case SignerInputType::kEmail:
      if (!IsEmailAddress(text)) return refuse("an e-mail address");
      return value;
    case SignerInputType::kPhone: {
      std::string phone = PhoneOf(text);
      if (phone.empty()) {
        return refuse(
            "a phone number: 5 to 15 digits, optionally with + first and spaces, "
            "dashes, dots or parentheses between");
      }
      return boost::json::value(phone);
    }
    default:
      break;
  }
  const int64_t length = CountCharacters(text);
  const int64_t max_length = rules.max_length.value_or(kMaxSignerTextLength);
  if (length > max_length) return refuse("at most " + std::to_string(max_length) + " characters");
  if (rules.min_length && length < *rules.min_length) {
    return refuse("at least " + std::to_string(*rules.min_length) + " characters");
  }
  if (!rules.pattern.empty() &&
      !re2::RE2::FullMatch(re2::StringPiece(text.data(), text.size()), *Compile(rules.pattern))) {
    return refuse(rules.pattern_message.empty() ? "does not match the field's pattern"
                                                : rules.pattern_message);
  }
  return value;
}

boost::json::object SignerFieldRulesToJson(const SignerFieldRules& rules) {
  boost::json::object out;
  if (rules.min_length) out["minLength"] = *rules.min_length;
  if (rules.max_length) out["maxLength"] = *rules.max_length;
  if (!rules.pattern.empty()) out["pattern"] = rules.pattern;
  if (!rules.pattern_message.empty()) out["patternMessage"] = rules.pattern_message;
  if (rules.minimum) out["min"] = *rules.minimum;
  if (rules.maximum) out["max"] = *rules.maximum;
  if (rules.step) out["step"] = *rules.step;
  if (!rules.options.empty()) {
    boost::json::array options;
    for (const auto& option : rules.options) options.emplace_back(option);
    out["options"] = std::move(options);
  }
  if (rules.default_value) out["default"] = *rules.default_value;
  if (rules.show_if) {
    out["showIf"] = {{"field", rules.show_if->field}, {"equals", rules.show_if->equals}};
  }
  return out;
}

SignerFieldRules SignerFieldRulesFromJson(SignerInputType type, const boost::json::object& object) {
  SignerFieldRules rules;
  rules.type = type;
  rules.min_length = IntegerMember(object, "minLength");
  rules.max_length = IntegerMember(object, "maxLength");
  rules.pattern = StringMemberOrEmpty(object, "pattern");
  rules.pattern_message = StringMemberOrEmpty(object, "patternMessage");
  for (auto [key, member] : {std::pair{"min", &rules.minimum}, std::pair{"max", &rules.maximum},
                             std::pair{"step", &rules.step}}) {
    if (auto text = StringMember(object, key)) *member = std::string(*text);
  }
  if (const auto* options = ArrayMember(object, "options")) {
    for (const auto& option : *options) {
      if (option.is_string()) rules.options.emplace_back(option.get_string());
    }
  }
  if (const auto* value = Member(object, "default")) rules.default_value = *value;
  if (const auto* show_if = ObjectMember(object, "showIf")) {
    const auto* equals = Member(*show_if, "equals");
    rules.show_if = ShowIf{StringMemberOrEmpty(*show_if, "field"),
                           equals != nullptr ? *equals : boost::json::value()};
  }
  return rules;
}

Result<std::vector<FilledValue>> CheckSignerValues(const std::vector<FillableField>& fields,
                                                   std::string_view signer,
                                                   const boost::json::value& field_values,
                                                   const std::vector<SignerAttachment>& uploaded) {
  Details details;
  std::vector<std::optional<boost::json::value>> given(fields.size());
  std::vector<std::string> paths(fields.size());
  std::vector<bool> refused(fields.size());
  if (!field_values.is_null() && !field_values.is_array()) {
    return Fail(ErrorCode::kValidationFailed, "invalid field values", "fieldValues",
                "an array of {field, value}");
  }
  const boost::json::array none;
  const auto& items = field_values.is_array() ? field_values.get_array() : none;
  // One value per field at most: a longer list is refused whole, before any detail is made.
  if (items.size() > fields.size()) {
    return Fail(ErrorCode::kValidationFailed, "invalid field values", "fieldValues",
                std::to_string(items.size()) + " values for " + std::to_string(fields.size()) +
                    " fields: at most one per field");
  }
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string path = IndexPath("fieldValues", i);
    const auto* item = items[i].if_object();
    auto id = item != nullptr ? StringMember(*item, "field") : std::nullopt;
    const auto* value = item != nullptr ? Member(*item, "value") : nullptr;
    if (!id || value == nullptr || item->size() != 2) {
      AddDetail(details, path, "{field, value}");
      continue;
    }
    auto found = std::find_if(fields.begin(), fields.end(),
                              [&](const FillableField& f) { return f.field_id == *id; });
    const std::string at = JoinPath(path, "field");
    if (found == fields.end()) {
      AddDetail(details, at, "no field " + std::string(*id) + " in this contract");
      continue;
    }
    if (found->owner != signer) {
      AddDetail(details, at, "field " + std::string(*id) + " is another signer's");
      continue;
    }
    if (found->read_only) {
      AddDetail(details, at, "field " + std::string(*id) + " is read-only");
      continue;
    }
    const auto index = static_cast<size_t>(found - fields.begin());
    if (given[index]) {
      AddDetail(details, at, "field " + std::string(*id) + " is given twice");
      continue;
    }
    auto stored =
        CheckSignerValue(found->rules, *value, JoinPath(path, "value"), details, uploaded);
    paths[index] = path;
    if (!stored) {
      refused[index] = true;  // named once, by its value
      continue;
    }
    given[index] = std::move(*stored);
  }
  // Defaults stand in for values not given; then visibility follows the values (a field is
  // visible when its showIf field holds the value named; showIf names a field of the signer's).
  std::vector<std::optional<boost::json::value>> effective = given;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!effective[i] && fields[i].owner == signer) effective[i] = fields[i].rules.default_value;
  }
  auto visible = [&](size_t i) {
    const auto& show_if = fields[i].rules.show_if;
    if (!show_if) return true;
    for (size_t j = 0; j < fields.size(); ++j) {
      if (fields[j].field_id == show_if->field && fields[j].owner == signer) {
        return effective[j].has_value() && *effective[j] == show_if->equals;
      }
    }
    return false;
  };
  std::vector<FilledValue> out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].owner != signer || fields[i].read_only) continue;
    if (!visible(i)) {
      if (given[i]) {
        AddDetail(details, JoinPath(paths[i], "field"),
                  "field " + fields[i].field_id + " is hidden: " + fields[i].rules.show_if->field +
                      " does not hold the value that shows it");
      }
      continue;
    }
    const bool unticked = fields[i].rules.type == SignerInputType::kCheckbox &&
                          effective[i] == boost::json::value(false);
    if (fields[i].rules.required && unticked) {
      AddDetail(details, given[i] ? JoinPath(paths[i], "value") : "fieldValues",
                "field " + fields[i].field_id + " is required: it must be ticked");
    } else if (effective[i]) {
      out.push_back(FilledValue{fields[i].field_id, *effective[i]});
    } else if (fields[i].rules.required && !refused[i]) {
      AddDetail(details, "fieldValues", "field " + fields[i].field_id + " is required");
    }
  }
  if (!details.empty()) {
    return std::unexpected(
        Error{ErrorCode::kValidationFailed, "invalid field values", std::move(details)});
  }
  return out;
}

}  // namespace esign
