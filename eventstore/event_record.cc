#include "eventstore/event_record.h"

#include <boost/json.hpp>

#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace esign::eventstore {
namespace {

namespace json = boost::json;

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kSecondsPerDay = 86'400;

// The separator before the last key. Inside a serialized string every quote is escaped, so the
// first occurrence of this text is the top-level key.
constexpr std::string_view kDataKey = ",\"data\":";

struct CivilDate {
  int64_t year;
  unsigned month;
  unsigned day;
};

// Days since 1970-01-01 to a proleptic Gregorian date and back, after H. Hinnant's
// civil_from_days and days_from_civil, which hold for every int64 day count we can format.
CivilDate CivilFromDays(int64_t days) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto day_of_era = static_cast<unsigned>(days - era * 146097);
  const unsigned year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const unsigned day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const unsigned shifted_month = (5 * day_of_year + 2) / 153;
  const unsigned day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
  const unsigned month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
  return CivilDate{static_cast<int64_t>(year_of_era) + era * 400 + (month <= 2 ? 1 : 0), month,
                   day};
}

int64_t DaysFromCivil(CivilDate date) {
  const int64_t year = date.year - (date.month <= 2 ? 1 : 0);
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const auto year_of_era = static_cast<unsigned>(year - era * 400);
  const unsigned day_of_year =
      (153 * (date.month > 2 ? date.month - 3 : date.month + 9) + 2) / 5 + date.day - 1;
  const unsigned day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + static_cast<int64_t>(day_of_era) - 719468;
}

int64_t FloorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0);
}

std::optional<int64_t> Digits(std::string_view text, size_t begin, size_t count) {
  int64_t value = 0;
  for (size_t i = begin; i < begin + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

// The inverse of FormatTimestamp, for its own output only: anything it would not have written,
// such as February 30 or a missing fraction, is rejected by formatting the result again.
std::optional<int64_t> ParseTimestamp(std::string_view text) {
  // "YYYY-MM-DDTHH:MM:SS.ffffffZ"
  if (text.size() != 27) return std::nullopt;
  const auto year = Digits(text, 0, 4);
  const auto month = Digits(text, 5, 2);
  const auto day = Digits(text, 8, 2);
  const auto hour = Digits(text, 11, 2);
  const auto minute = Digits(text, 14, 2);
  const auto second = Digits(text, 17, 2);
  const auto micros = Digits(text, 20, 6);
  if (!year || !month || !day || !hour || !minute || !second || !micros) return std::nullopt;
  if (*month < 1 || *month > 12 || *day < 1 || *day > 31) return std::nullopt;
  const int64_t days =
      DaysFromCivil(CivilDate{*year, static_cast<unsigned>(*month), static_cast<unsigned>(*day)});
  const int64_t seconds = days * kSecondsPerDay + *hour * 3600 + *minute * 60 + *second;
  const int64_t unix_micros = seconds * kMicrosPerSecond + *micros;
  if (FormatTimestamp(unix_micros) != text) return std::nullopt;
  return unix_micros;
}

void AppendString(std::string& out, std::string_view key, std::string_view value) {
  out += '"';
  out += key;
  out += "\":";
  out += json::serialize(json::string_view(value.data(), value.size()));
}

void AppendNumber(std::string& out, std::string_view key, auto value) {
  out += '"';
  out += key;
  out += "\":";
  out += std::to_string(value);
}

// Everything before the data value, through `"data":`.
std::string CanonicalHead(const EventRecord& record) {
  std::string out = "{";
  AppendNumber(out, "position", record.position.value());
  out += ',';
  AppendString(out, "streamId", record.stream_id);
  out += ',';
  AppendNumber(out, "version", record.version.value());
  out += ',';
  AppendString(out, "eventId", record.event_id);
  out += ',';
  AppendString(out, "type", record.type);
  out += ',';
  AppendNumber(out, "schemaVersion", record.schema_version);
  out += ',';
  AppendString(out, "recordedAt", FormatTimestamp(record.recorded_at_us));
  out += ",\"actor\":{";
  AppendString(out, "clientId", record.actor.client_id);
  out += ',';
  AppendString(out, "organizationId", record.actor.organization_id);
  out += ',';
  AppendString(out, "requestId", record.actor.request_id);
  out += ',';
  AppendString(out, "ip", record.actor.ip);
  out += ',';
  AppendString(out, "userAgent", record.actor.user_agent);
  out += '}';
  out += kDataKey;
  return out;
}

std::unexpected<Error> Corrupt(std::string_view why) {
  return Fail(ErrorCode::kCorruption, "event record: " + std::string(why));
}

// Strings are taken as stored, valid UTF-8 or not, so that every record CanonicalBytes wrote can
// be read back; inputs are checked where they enter the service.
json::parse_options ParseOptions() {
  json::parse_options options;
  options.allow_invalid_utf8 = true;
  options.max_depth = 256;
  return options;
}

std::optional<json::value> ParseJson(std::string_view text) {
  boost::system::error_code ec;
  json::value value = json::parse(json::string_view(text.data(), text.size()), ec,
                                  json::storage_ptr(), ParseOptions());
  if (ec) return std::nullopt;
  return value;
}

std::optional<std::string> StringField(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(json::string_view(key.data(), key.size()));
  if (value == nullptr || !value->is_string()) return std::nullopt;
  const json::string& text = value->get_string();
  return std::string(text.data(), text.size());
}

std::optional<uint64_t> UnsignedField(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(json::string_view(key.data(), key.size()));
  if (value == nullptr) return std::nullopt;
  if (value->is_uint64()) return value->get_uint64();
  if (value->is_int64() && value->get_int64() >= 0)
    return static_cast<uint64_t>(value->get_int64());
  return std::nullopt;
}

std::optional<int> IntField(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(json::string_view(key.data(), key.size()));
  if (value == nullptr || !value->is_int64()) return std::nullopt;
  const int64_t number = value->get_int64();
  if (number < std::numeric_limits<int>::min() || number > std::numeric_limits<int>::max()) {
    return std::nullopt;
  }
  return static_cast<int>(number);
}

std::optional<Actor> ActorField(const json::object& object) {
  const json::value* value = object.if_contains("actor");
  if (value == nullptr || !value->is_object()) return std::nullopt;
  const json::object& fields = value->get_object();
  auto client_id = StringField(fields, "clientId");
  auto organization_id = StringField(fields, "organizationId");
  auto request_id = StringField(fields, "requestId");
  auto ip = StringField(fields, "ip");
  auto user_agent = StringField(fields, "userAgent");
  if (!client_id || !organization_id || !request_id || !ip || !user_agent) return std::nullopt;
  return Actor{std::move(*client_id), std::move(*organization_id), std::move(*request_id),
               std::move(*ip), std::move(*user_agent)};
}

// Every field but `data`, from the head of the record closed into an object of its own.
Result<EventRecord> ParseHead(std::string_view head) {
  std::string closed(head);
  closed += '}';
  const std::optional<json::value> parsed = ParseJson(closed);
  if (!parsed || !parsed->is_object()) return Corrupt("not a JSON object");
  const json::object& object = parsed->get_object();

  const auto position = UnsignedField(object, "position");
  auto stream_id = StringField(object, "streamId");
  const auto version = UnsignedField(object, "version");
  auto event_id = StringField(object, "eventId");
  auto type = StringField(object, "type");
  const auto schema_version = IntField(object, "schemaVersion");
  const auto recorded_at = StringField(object, "recordedAt");
  auto actor = ActorField(object);
  if (!position || !stream_id || !version || !event_id || !type || !schema_version ||
      !recorded_at || !actor) {
    return Corrupt("missing or mistyped field");
  }
  const std::optional<int64_t> recorded_at_us = ParseTimestamp(*recorded_at);
  if (!recorded_at_us) return Corrupt("bad recordedAt");

  EventRecord record;
  record.position = GlobalPosition(*position);
  record.stream_id = std::move(*stream_id);
  record.version = StreamVersion(*version);
  record.event_id = std::move(*event_id);
  record.type = std::move(*type);
  record.schema_version = *schema_version;
  record.recorded_at_us = *recorded_at_us;
  record.actor = std::move(*actor);
  return record;
}

}  // namespace

std::string CanonicalBytes(const EventRecord& record) {
  std::string out = CanonicalHead(record);
  // An empty `data` would make the leaf unparseable for ever; it can only mean "no data".
  out += record.data.empty() ? std::string_view("{}") : std::string_view(record.data);
  out += '}';
  return out;
}

Result<EventRecord> ParseRecord(std::string_view bytes) {
  const size_t data_key = bytes.find(kDataKey);
  if (data_key == std::string_view::npos || bytes.size() < data_key + kDataKey.size() + 3) {
    return Corrupt("no data");
  }
  const size_t data_begin = data_key + kDataKey.size();
  const std::string_view data = bytes.substr(data_begin, bytes.size() - data_begin - 1);
  if (bytes.back() != '}' || data.front() != '{' || data.back() != '}') {
    return Corrupt("data is not an object at the end of the record");
  }
  // Parsed on its own, so trailing keys or text after the data object are rejected.
  const std::optional<json::value> parsed_data = ParseJson(data);
  if (!parsed_data || !parsed_data->is_object()) return Corrupt("data is not a JSON object");

  Result<EventRecord> record = ParseHead(bytes.substr(0, data_key));
  if (!record) return record;
  // Only the exact canonical form is a record: this rejects reordered, repeated or extra keys,
  // white space and alternative spellings of the same numbers or strings.
  if (CanonicalHead(*record) != bytes.substr(0, data_begin)) return Corrupt("not canonical");
  record->data = std::string(data);
  return record;
}

std::string FormatTimestamp(int64_t unix_micros) {
  const int64_t seconds = FloorDiv(unix_micros, kMicrosPerSecond);
  const int64_t micros = unix_micros - seconds * kMicrosPerSecond;
  const int64_t days = FloorDiv(seconds, kSecondsPerDay);
  const int64_t second_of_day = seconds - days * kSecondsPerDay;
  const CivilDate date = CivilFromDays(days);
  char text[64];
  std::snprintf(text, sizeof text, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%06lldZ",
                static_cast<long long>(date.year), date.month, date.day,
                static_cast<long long>(second_of_day / 3600),
                static_cast<long long>(second_of_day / 60 % 60),
                static_cast<long long>(second_of_day % 60), static_cast<long long>(micros));
  return text;
}

std::optional<std::string> StringInData(const EventRecord& record, std::string_view key) {
  boost::system::error_code ec;
  const boost::json::value data = boost::json::parse(record.data, ec);
  if (ec || !data.is_object()) return std::nullopt;
  const auto* member = data.as_object().if_contains(key);
  if (member == nullptr || !member->is_string()) return std::nullopt;
  return std::string(member->as_string());
}

}  // namespace esign::eventstore
