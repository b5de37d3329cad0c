#include "domain/organization_contact.h"

#include "domain/text_formats.h"

namespace esign {
namespace {

bool HasControlCharacters(std::string_view text) {
  for (char ch : text) {
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) return true;
  }
  return false;
}

}  // namespace

Result<boost::json::object> OrganizationContactData(std::string_view email, std::string_view name) {
  if (!email.empty() && !IsEmailAddress(email)) {
    return Fail(ErrorCode::kValidationFailed, "not an e-mail address", "email",
                "an address such as contracts@example.com, or empty to remove it");
  }
  if (name.size() > kMaxOrganizationNameLength || HasControlCharacters(name)) {
    return Fail(ErrorCode::kValidationFailed, "invalid organization name", "name",
                "at most 200 characters, no control characters");
  }
  return boost::json::object{{"email", email}, {"name", name}};
}

OrganizationContact OrganizationContactFrom(const boost::json::object& data) {
  OrganizationContact contact;
  const auto* email = data.if_contains("email");
  const auto* name = data.if_contains("name");
  if (name != nullptr && name->is_string()) contact.name = name->as_string();
  if (email != nullptr && email->is_string() && !email->as_string().empty()) {
    contact.owner = OwnerContact{std::string(email->as_string()), contact.name};
  }
  return contact;
}

}  // namespace esign
