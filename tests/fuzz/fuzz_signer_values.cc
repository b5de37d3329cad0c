// The fields signers fill in (domain/signer_field_rules.h): any bytes, read as
// {"fields": [{"id", "owner", "type", ...rules}], "values": [{field, value}]}, give rules or
// kValidationFailed and then values or kValidationFailed, never a crash, and never a pattern
// that runs long (RE2); every value the check stores passes the check again unchanged. Fields
// with an id seen before are left out, as a contract's ids are unique.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "base/json_read.h"
#include "domain/json_parse.h"
#include "domain/signer_field_rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace esign;
  auto parsed = ParseJson(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!parsed || !parsed->is_object()) return 0;
  const auto* fields = ArrayMember(parsed->get_object(), "fields");
  std::vector<FillableField> fillable;
  for (size_t i = 0; fields != nullptr && i < fields->size() && i < 50; ++i) {
    const auto* item = (*fields)[i].if_object();
    if (item == nullptr) continue;
    auto type = ParseSignerInputType(StringMemberOrEmpty(*item, "type"));
    if (!type) continue;
    Details details;
    auto rules = ReadSignerFieldRules(*type, *item, "fields[0]", details);
    if (rules.has_value() == !details.empty()) __builtin_trap();  // one or the other
    if (!rules) continue;
    // A contract's field ids are unique (fld_1, fld_2, ... as placed).
    const std::string id = StringMemberOrEmpty(*item, "id");
    if (std::any_of(fillable.begin(), fillable.end(),
                    [&](const FillableField& field) { return field.field_id == id; })) {
      continue;
    }
    fillable.push_back(FillableField{StringMemberOrEmpty(*item, "id"),
                                     StringMemberOrEmpty(*item, "owner"), *rules});
  }
  const auto* values = parsed->get_object().if_contains("values");
  auto filled =
      CheckSignerValues(fillable, "ada", values != nullptr ? *values : boost::json::value());
  if (!filled) {
    if (filled.error().code != ErrorCode::kValidationFailed) __builtin_trap();
    return 0;
  }
  for (const auto& value : *filled) {
    for (const auto& field : fillable) {
      if (field.field_id != value.field_id) continue;
      Details details;
      auto again = CheckSignerValue(field.rules, value.value, "v", details);
      if (!again || *again != value.value) __builtin_trap();
      break;
    }
  }
  return 0;
}
