#include "http/signing_request.h"

#include "base/json_read.h"
#include "domain/field_value.h"
#include "domain/json_util.h"
#include "http/api.h"

namespace esign::http {

BodyReader::BodyReader(const boost::json::object& body,
                       std::initializer_list<std::string_view> known)
    : body_(body) {
  RejectUnknownMembers(body, "", known, details_);
}

std::string BodyReader::Text(std::string_view key, bool required, size_t max_characters) {
  const auto* value = Member(body_, key);
  if (value == nullptr || value->is_null()) {
    if (required) AddDetail(details_, std::string(key), "required");
    return "";
  }
  if (!value->is_string()) {
    AddDetail(details_, std::string(key), "must be a string");
    return "";
  }
  std::string text(value->get_string());
  if (required && text.find_first_not_of(" \t\r\n") == std::string::npos) {
    AddDetail(details_, std::string(key), "required");
  } else if (static_cast<size_t>(CountCharacters(text)) > max_characters) {
    AddDetail(details_, std::string(key),
              "at most " + std::to_string(max_characters) + " characters");
  }
  return text;
}

std::optional<int64_t> BodyReader::Integer(std::string_view key) {
  const auto* value = Member(body_, key);
  if (value == nullptr || value->is_null()) return std::nullopt;
  auto number = AsInteger(*value);
  if (!number) AddDetail(details_, std::string(key), "must be an integer");
  return number;
}

std::optional<bool> BodyReader::Boolean(std::string_view key) {
  const auto* value = Member(body_, key);
  if (value == nullptr || value->is_null()) return std::nullopt;
  if (!value->is_bool()) {
    AddDetail(details_, std::string(key), "must be a boolean");
    return std::nullopt;
  }
  return value->get_bool();
}

void BodyReader::Problem(std::string field, std::string issue) {
  AddDetail(details_, std::move(field), std::move(issue));
}

Status BodyReader::Finish(std::string_view message) const {
  if (details_.empty()) return {};
  return Fail(Error{ErrorCode::kValidationFailed, std::string(message), details_});
}

Status RequireNoMembers(const ApiRequest& request, std::string_view message) {
  if (request.http.body().empty()) return {};
  auto body = ParseJsonObjectBody(request);
  if (!body) return Fail(body.error());
  return BodyReader(*body, {}).Finish(message);
}

}  // namespace esign::http
