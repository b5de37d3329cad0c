// Reading the signing family's request bodies: known members only, each with its type, every
// problem named by its field (400 VALIDATION_FAILED).
#pragma once

#include <boost/json.hpp>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "domain/json_util.h"
#include "domain/result.h"

namespace esign::http {

struct ApiRequest;

// An operation whose body may be omitted or be {}: kValidationFailed (`message`, each member
// named) for one with members or that is not a JSON object.
Status RequireNoMembers(const ApiRequest& request, std::string_view message);

class BodyReader {
 public:
  BodyReader(const boost::json::object& body, std::initializer_list<std::string_view> known);

  // A string member; `required` adds a detail when absent or empty; at most `max_characters`.
  std::string Text(std::string_view key, bool required, size_t max_characters);
  std::optional<int64_t> Integer(std::string_view key);
  std::optional<bool> Boolean(std::string_view key);
  void Problem(std::string field, std::string issue);

  // The collected problems as one error, or success.
  Status Finish(std::string_view message) const;

 private:
  const boost::json::object& body_;
  Details details_;
};

}  // namespace esign::http
