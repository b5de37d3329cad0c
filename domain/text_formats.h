// Formats of text values the domain accepts: calendar dates, timestamps, e-mail addresses,
// client-chosen identifiers and SHA-256 digests. Pure functions; safe from any thread.
#pragma once

#include <string_view>

namespace esign {

// ISO 8601 calendar date "YYYY-MM-DD" naming a real day (leap years included), years 1000-9999.
bool IsCalendarDate(std::string_view text);

// RFC 3339 timestamp: "YYYY-MM-DDTHH:MM:SS", optional fraction, then "Z" or "+HH:MM"/"-HH:MM".
bool IsTimestamp(std::string_view text);

// A plausible address: one "@", a non-empty local part of visible ASCII without spaces, a dotted
// domain whose labels are ASCII letters, digits and hyphens. Internationalized addresses (a
// non-ASCII local part, or a domain not written as punycode "xn--...") are refused: mail carries
// them only with SMTPUTF8, end to end, which the service does not speak. Deliverability is not
// ours to judge.
bool IsEmailAddress(std::string_view text);

// ASCII letters in lower case; every other byte as it is.
std::string AsciiLower(std::string_view text);
// The detail of a refused address.
inline constexpr std::string_view kEmailAddressRule =
    "must be an e-mail address in ASCII (internationalized addresses cannot be mailed; write the "
    "domain as punycode)";

// ^[A-Za-z0-9_-]{1,64}$: client-chosen identifiers such as a participantId.
bool IsClientIdentifier(std::string_view text);

// 64 lowercase hexadecimal digits.
bool IsSha256Hex(std::string_view text);

}  // namespace esign
