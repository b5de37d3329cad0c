#include "eventstore/event_record.h"

#include <boost/json.hpp>

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/json_pick.h"
#include "base/json_read.h"
#include "base/time_text.h"

namespace esign::eventstore {
namespace {

namespace json = boost::json;

// The separator before the last key. Inside a serialized string every quote is escaped, so the
// first occurrence of this text is the top-level key.
constexpr std::string_view kDataKey = ",\"data\":";

// Boost.JSON's serializer escapes only the quote, the backslash and the bytes below 0x20, so a
// string without them serializes as itself between quotes. Copying it directly gives the same
// bytes (they are hashed into the ledger) without the serializer's temporary string.
bool SerializesAsItself(std::string_view value) {
  return std::none_of(value.begin(), value.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\';
  });
}

void AppendString(std::string& out, std::string_view key, std::string_view value) {
  out += '"';
  out += key;
  out += "\":";
  if (SerializesAsItself(value)) {
    out += '"';
    out += value;
    out += '"';
    return;
  }
  out += json::serialize(json::string_view(value.data(), value.size()));
}

void AppendNumber(std::string& out, std::string_view key, auto value) {
  out += '"';
  out += key;
  out += "\":";
  out += std::to_string(value);
}

// A batch of appends shares one recorded-at time, so the text of the last one is kept.
const std::string& TimestampText(int64_t recorded_at_us) {
  thread_local int64_t last_us = 0;
  thread_local std::string last_text = FormatTimestamp(0);
  if (recorded_at_us != last_us) {
    last_text = FormatTimestamp(recorded_at_us);
    last_us = recorded_at_us;
  }
  return last_text;
}

// Everything before the data value, through `"data":`.
std::string CanonicalHead(const EventRecord& record) {
  std::string out;
  // The field names and numbers take under 200 bytes; room for the data too, which
  // CanonicalBytes appends next.
  const Actor& actor = record.actor;
  out.reserve(200 + record.stream_id.size() + record.event_id.size() + record.type.size() +
              actor.client_id.size() + actor.organization_id.size() + actor.request_id.size() +
              actor.ip.size() + actor.user_agent.size() + record.data.size());
  out += '{';
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
  AppendString(out, "recordedAt", TimestampText(record.recorded_at_us));
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

std::optional<int> IntField(const json::object& object, std::string_view key) {
  const std::optional<int64_t> number = IntegerMember(object, key);
  if (!number || *number < std::numeric_limits<int>::min() ||
      *number > std::numeric_limits<int>::max()) {
    return std::nullopt;
  }
  return static_cast<int>(*number);
}

std::optional<Actor> ActorField(const json::object& object) {
  const json::object* fields = ObjectMember(object, "actor");
  if (fields == nullptr) return std::nullopt;
  const auto client_id = StringMember(*fields, "clientId");
  const auto organization_id = StringMember(*fields, "organizationId");
  const auto request_id = StringMember(*fields, "requestId");
  const auto ip = StringMember(*fields, "ip");
  const auto user_agent = StringMember(*fields, "userAgent");
  if (!client_id || !organization_id || !request_id || !ip || !user_agent) return std::nullopt;
  return Actor{std::string(*client_id), std::string(*organization_id), std::string(*request_id),
               std::string(*ip), std::string(*user_agent)};
}

// Every field but `data`, from the head of the record closed into an object of its own.
Result<EventRecord> ParseHead(std::string_view head) {
  std::string closed(head);
  closed += '}';
  const std::optional<json::value> parsed = ParseJson(closed);
  if (!parsed || !parsed->is_object()) return Corrupt("not a JSON object");
  const json::object& object = parsed->get_object();

  const auto position = UnsignedMember(object, "position");
  const auto stream_id = StringMember(object, "streamId");
  const auto version = UnsignedMember(object, "version");
  const auto event_id = StringMember(object, "eventId");
  const auto type = StringMember(object, "type");
  const auto schema_version = IntField(object, "schemaVersion");
  const auto recorded_at = StringMember(object, "recordedAt");
  auto actor = ActorField(object);
  if (!position || !stream_id || !version || !event_id || !type || !schema_version ||
      !recorded_at || !actor) {
    return Corrupt("missing or mistyped field");
  }
  const std::optional<int64_t> recorded_at_us = ParseFormattedTimestamp(*recorded_at);
  if (!recorded_at_us) return Corrupt("bad recordedAt");

  EventRecord record;
  record.position = GlobalPosition(*position);
  record.stream_id = std::string(*stream_id);
  record.version = StreamVersion(*version);
  record.event_id = std::string(*event_id);
  record.type = std::string(*type);
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

std::optional<std::string> StringInData(const EventRecord& record, std::string_view key) {
  // Without parsing the whole data: the relay and the controller look-ups ask this of every event.
  const std::optional<json::object> picked = PickJsonMembers(record.data, {.members = {key}});
  if (!picked) return std::nullopt;
  const std::optional<std::string_view> member = StringMember(*picked, key);
  if (!member) return std::nullopt;
  return std::string(*member);
}

}  // namespace esign::eventstore
