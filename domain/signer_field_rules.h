// What a signer fills in (DESIGN section 21): the input types of a field, the rules a request
// sets on one, and the one check of a signer's values that every signing route uses, so that the
// same value gets the same answer everywhere, with the field named.
//
// Values are stored normalized: text, e-mail and the chosen option as strings; numbers as their
// exact decimal string ("1250.50", decimal.h); dates "YYYY-MM-DD"; checkboxes as booleans; phone
// numbers as "+" and digits. Patterns are RE2 (linear time, no backreferences), matched against
// the whole value; a pattern RE2 refuses, or one whose program is larger than kMaxPatternProgram,
// is refused where it is given.
// Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/json_util.h"
#include "domain/result.h"

namespace esign {

enum class SignerInputType {
  kText,
  kNumber,
  kDate,
  kCheckbox,
  kRadio,
  kDropdown,
  kEmail,
  kPhone,
  kAttachment
};
std::string_view ToString(SignerInputType type);
std::optional<SignerInputType> ParseSignerInputType(std::string_view text);

inline constexpr int64_t kMaxSignerTextLength = 1000;
inline constexpr size_t kMaxPatternLength = 500;
inline constexpr int kMaxPatternProgram = 10000;  // RE2's program size, a measure of its cost
inline constexpr size_t kMaxOptions = 100;
inline constexpr int64_t kMaxOptionLength = 200;

// The field is shown (so required and stored) only while `field` of the same signer has the
// value `equals` (compared as stored).
struct ShowIf {
  std::string field;
  boost::json::value equals;
};

// A file a signer uploaded to their signing session (signer.attachment_uploaded): what an
// attachment field stores once signed, {sha256, name, mediaType, size}, the bytes a blob.
struct SignerAttachment {
  std::string sha256;  // of the bytes stored
  std::string name;
  std::string media_type;  // application/pdf, image/png or image/jpeg
  int64_t size = 0;
};
boost::json::object SignerAttachmentToJson(const SignerAttachment& attachment);

inline constexpr int64_t kMaxAttachmentBytes = int64_t{10} * 1024 * 1024;
inline constexpr size_t kMaxAttachmentsPerSession = 5;
inline constexpr int64_t kMaxAttachmentNameLength = 200;

struct SignerFieldRules {
  SignerInputType type = SignerInputType::kText;
  bool required = true;
  std::optional<int64_t> min_length;   // text
  std::optional<int64_t> max_length;   // text; kMaxSignerTextLength when absent
  std::string pattern;                 // text; RE2, the whole value
  std::string pattern_message;         // shown with a value the pattern refuses
  std::optional<std::string> minimum;  // number: an exact decimal; date: YYYY-MM-DD
  std::optional<std::string> maximum;
  std::optional<std::string> step;   // number: a positive decimal; values are min (or 0) + k * step
  std::vector<std::string> options;  // radio and dropdown
  std::optional<boost::json::value> default_value;  // as stored
  std::optional<ShowIf> show_if;
};

boost::json::object SignerFieldRulesToJson(const SignerFieldRules& rules);
SignerFieldRules SignerFieldRulesFromJson(SignerInputType type, const boost::json::object& object);

// The members of a field request that set rules: "minLength", "maxLength", "pattern",
// "patternMessage", "min", "max", "step", "options", "default", "showIf".
const std::vector<std::string_view>& SignerRuleMembers();

// The rules of a field of `type` as a request sets them on `item` (a field object), members that
// do not apply to the type refused; problems go to `details` under `path`. `required` is read by
// the caller.
std::optional<SignerFieldRules> ReadSignerFieldRules(SignerInputType type,
                                                     const boost::json::object& item,
                                                     const std::string& path, Details& details);

// Whether RE2 takes the pattern within the limits above; `why` says what is wrong otherwise.
bool AcceptPattern(std::string_view pattern, std::string& why);

// The one check of a value: its stored form, or nullopt after adding one detail at `path`. An
// attachment field's value is the sha256 of a file of `uploaded` (the signer's session's), given
// as a string or {sha256}; it is stored as the whole SignerAttachment.
std::optional<boost::json::value> CheckSignerValue(
    const SignerFieldRules& rules, const boost::json::value& value, const std::string& path,
    Details& details, const std::vector<SignerAttachment>& uploaded = {});

// A field a signer fills, as the signing check sees it.
struct FillableField {
  std::string field_id;
  std::string owner;  // the participant who fills it
  SignerFieldRules rules;
  bool read_only = false;
};

struct FilledValue {
  std::string field_id;
  boost::json::value value;  // as stored
};

// The values a signer (`signer`) gives with `complete`: [{field, value}]. Refused, each with its
// path (kValidationFailed): not an array of {field, value}, or more entries than `fields`; a
// field that is not one of `fields`, another signer's, read-only, hidden (its showIf not met) or
// given twice; a value the field's rules refuse; a visible required field without a value (path
// "fieldValues", naming it), or a required checkbox left unticked. The answer holds the visible
// fields' values in the order of `fields`, defaults filled in.
Result<std::vector<FilledValue>> CheckSignerValues(
    const std::vector<FillableField>& fields, std::string_view signer,
    const boost::json::value& field_values, const std::vector<SignerAttachment>& uploaded = {});

}  // namespace esign
