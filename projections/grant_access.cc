#include "projections/grant_access.h"

#include <boost/json/basic_parser_impl.hpp>
#include <limits>
#include <optional>

#include "projections/contract_index.h"
#include "projections/json_event_handler.h"

namespace esign::projections {
namespace {

using boost::json::error_code;
using boost::json::string_view;

// Events of the JSON parser: keeps the top-level "version" and "roles" and stops the parse once
// it has both (returning false with a code set ends it).
class GrantAccessHandler : public JsonEventHandlerBase {
 public:
  bool Complete() const { return version_ && roles_; }
  GrantAccess Access() const { return {*version_, static_cast<uint8_t>(*roles_)}; }

  bool on_object_begin(error_code&) { return Enter(); }
  bool on_object_end(size_t, error_code&) { return Leave(); }
  bool on_array_begin(error_code&) { return Enter(); }
  bool on_array_end(size_t, error_code&) { return Leave(); }
  bool on_key_part(string_view part, size_t, error_code&) {
    key_.append(part.data(), part.size());
    return true;
  }
  bool on_key(string_view last, size_t, error_code&) {
    key_.append(last.data(), last.size());
    member_ = depth_ != 1         ? Member::kOther
              : key_ == "version" ? Member::kVersion
              : key_ == "roles"   ? Member::kRoles
                                  : Member::kOther;
    key_.clear();
    return true;
  }
  bool on_string_part(string_view, size_t, error_code&) { return true; }
  bool on_string(string_view, size_t, error_code&) { return Value(); }
  bool on_int64(int64_t value, string_view, error_code& ec) {
    return value >= 0 ? Number(static_cast<uint64_t>(value), ec) : Value();
  }
  bool on_uint64(uint64_t value, string_view, error_code& ec) { return Number(value, ec); }
  bool on_double(double, string_view, error_code&) { return Value(); }
  bool on_bool(bool, error_code&) { return Value(); }
  bool on_null(error_code&) { return Value(); }

 private:
  enum class Member { kOther, kVersion, kRoles };

  bool Enter() {
    ++depth_;
    member_ = Member::kOther;
    return true;
  }
  bool Leave() {
    --depth_;
    return true;
  }
  bool Value() {
    member_ = Member::kOther;
    return true;
  }
  bool Number(uint64_t value, error_code& ec) {
    if (member_ == Member::kVersion) version_ = value;
    if (member_ == Member::kRoles && value <= std::numeric_limits<uint8_t>::max()) roles_ = value;
    member_ = Member::kOther;
    if (!Complete()) return true;
    ec = boost::json::error::extra_data;  // any code: the rest is not needed
    return false;
  }

  int depth_ = 0;
  Member member_ = Member::kOther;
  std::string key_;
  std::optional<uint64_t> version_;
  std::optional<uint64_t> roles_;
};

}  // namespace

Result<GrantAccess> ReadGrantAccess(std::string_view grant_row) {
  boost::json::basic_parser<GrantAccessHandler> parser{boost::json::parse_options{}};
  error_code ec;
  parser.write_some(false, grant_row.data(), grant_row.size(), ec);
  if (parser.handler().Complete()) return parser.handler().Access();
  Result<IndexEntry> entry = DecodeIndexEntry(grant_row);
  if (!entry) return Fail(entry.error());
  return GrantAccess{entry->version, entry->roles};
}

}  // namespace esign::projections
