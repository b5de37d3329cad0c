#include "eventstore/stored_record.h"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/parse_options.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "base/time_text.h"

namespace esign::eventstore {
namespace {

// The offset of the first byte at or after `from` that a plain string cannot hold unescaped, or
// that ends it: a quote, a backslash or a control character; text.size() when there is none.
// Sixteen bytes at a time where SSE2 is available: record heads are long runs of plain bytes.
size_t FindStringStop(std::string_view text, size_t from) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i last_control = _mm_set1_epi8(0x1f);
  for (; from + 16 <= text.size(); from += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + from));
    // Unsigned: min(byte, 0x1f) == byte exactly for the bytes below 0x20.
    const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(bytes, last_control), bytes);
    const __m128i stops = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)), control);
    const auto mask = static_cast<unsigned>(_mm_movemask_epi8(stops));
    if (mask != 0) return from + static_cast<size_t>(std::countr_zero(mask));
  }
#endif
  for (; from < text.size(); ++from) {
    const auto c = static_cast<unsigned char>(text[from]);
    if (c == '"' || c == '\\' || c < 0x20) return from;
  }
  return from;
}

// A cursor over the canonical layout. Every method returns false, leaving the record to
// ParseRecord, as soon as the text is not exactly what CanonicalBytes writes for an escape-free
// record.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  bool Literal(std::string_view literal) {
    if (text_.substr(at_, literal.size()) != literal) return false;
    at_ += literal.size();
    return true;
  }

  // std::to_string spelling: no sign, no leading zero.
  bool Unsigned(uint64_t& value) {
    const size_t begin = at_;
    value = 0;
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') {
      const auto digit = static_cast<uint64_t>(text_[at_] - '0');
      if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) return false;
      value = value * 10 + digit;
      ++at_;
    }
    const size_t digits = at_ - begin;
    return digits > 0 && (digits == 1 || text_[begin] != '0');
  }

  bool Int(int& value) {
    const bool negative = at_ < text_.size() && text_[at_] == '-';
    if (negative) ++at_;
    uint64_t magnitude = 0;
    if (!Unsigned(magnitude)) return false;
    if (negative && magnitude == 0) return false;  // "-0" is not how 0 is written
    const uint64_t limit = negative ? uint64_t{1} << 31 : (uint64_t{1} << 31) - 1;
    if (magnitude > limit) return false;
    value =
        negative ? static_cast<int>(-static_cast<int64_t>(magnitude)) : static_cast<int>(magnitude);
    return true;
  }

  // A string whose serialized form is its raw bytes: no escape, no control character.
  bool String(std::string_view& value) {
    if (at_ >= text_.size() || text_[at_] != '"') return false;
    const size_t begin = ++at_;
    at_ = FindStringStop(text_, begin);
    if (at_ >= text_.size() || text_[at_] != '"') return false;
    value = text_.substr(begin, at_ - begin);
    ++at_;
    return true;
  }

  // A string holding a time as FormatTimestamp writes it.
  bool Timestamp(int64_t& unix_micros) {
    std::string_view text;
    if (!String(text)) return false;
    const std::optional<int64_t> parsed = ParseFormattedTimestamp(text);
    if (!parsed) return false;
    unix_micros = *parsed;
    return true;
  }

  size_t at() const { return at_; }

 private:
  std::string_view text_;
  size_t at_ = 0;
};

// A record in the canonical layout, read in place: the strings point into the stored bytes.
struct CanonicalView {
  uint64_t position = 0;
  std::string_view stream_id;
  uint64_t version = 0;
  std::string_view event_id;
  std::string_view type;
  int schema_version = 0;
  int64_t recorded_at_us = 0;
  std::string_view client_id;
  std::string_view organization_id;
  std::string_view request_id;
  std::string_view ip;
  std::string_view user_agent;
  std::string_view data;
};

std::optional<CanonicalView> ReadCanonical(std::string_view bytes) {
  CanonicalView view;
  Cursor in(bytes);
  if (!(in.Literal("{\"position\":") && in.Unsigned(view.position) &&
        in.Literal(",\"streamId\":") && in.String(view.stream_id) && in.Literal(",\"version\":") &&
        in.Unsigned(view.version) && in.Literal(",\"eventId\":") && in.String(view.event_id) &&
        in.Literal(",\"type\":") && in.String(view.type) && in.Literal(",\"schemaVersion\":") &&
        in.Int(view.schema_version) && in.Literal(",\"recordedAt\":") &&
        in.Timestamp(view.recorded_at_us) && in.Literal(",\"actor\":{\"clientId\":") &&
        in.String(view.client_id) && in.Literal(",\"organizationId\":") &&
        in.String(view.organization_id) && in.Literal(",\"requestId\":") &&
        in.String(view.request_id) && in.Literal(",\"ip\":") && in.String(view.ip) &&
        in.Literal(",\"userAgent\":") && in.String(view.user_agent) && in.Literal("},\"data\":"))) {
    return std::nullopt;
  }
  view.data = bytes.substr(in.at(), bytes.size() - in.at() - 1);
  if (view.data.size() < 2 || view.data.front() != '{' || view.data.back() != '}' ||
      bytes.back() != '}') {
    return std::nullopt;
  }
  return view;
}

EventRecord ToRecord(const CanonicalView& view) {
  EventRecord record;
  record.position = GlobalPosition(view.position);
  record.stream_id.assign(view.stream_id);
  record.version = StreamVersion(view.version);
  record.event_id.assign(view.event_id);
  record.type.assign(view.type);
  record.schema_version = view.schema_version;
  record.recorded_at_us = view.recorded_at_us;
  record.actor.client_id.assign(view.client_id);
  record.actor.organization_id.assign(view.organization_id);
  record.actor.request_id.assign(view.request_id);
  record.actor.ip.assign(view.ip);
  record.actor.user_agent.assign(view.user_agent);
  record.data.assign(view.data);
  return record;
}

// Validates without building a DOM: only the top-level kind is recorded.
struct ShapeHandler {
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  bool top_is_object = false;
  int depth = 0;

  using ec_t = boost::system::error_code;
  bool on_document_begin(ec_t&) { return true; }
  bool on_document_end(ec_t&) { return true; }
  bool on_object_begin(ec_t&) {
    if (depth++ == 0) top_is_object = true;
    return true;
  }
  bool on_object_end(std::size_t, ec_t&) {
    --depth;
    return true;
  }
  bool on_array_begin(ec_t&) {
    ++depth;
    return true;
  }
  bool on_array_end(std::size_t, ec_t&) {
    --depth;
    return true;
  }
  bool on_key_part(boost::json::string_view, std::size_t, ec_t&) { return true; }
  bool on_key(boost::json::string_view, std::size_t, ec_t&) { return true; }
  bool on_string_part(boost::json::string_view, std::size_t, ec_t&) { return true; }
  bool on_string(boost::json::string_view, std::size_t, ec_t&) { return true; }
  bool on_number_part(boost::json::string_view, ec_t&) { return true; }
  bool on_int64(std::int64_t, boost::json::string_view, ec_t&) { return true; }
  bool on_uint64(std::uint64_t, boost::json::string_view, ec_t&) { return true; }
  bool on_double(double, boost::json::string_view, ec_t&) { return true; }
  bool on_bool(bool, ec_t&) { return true; }
  bool on_null(ec_t&) { return true; }
  bool on_comment_part(boost::json::string_view, ec_t&) { return true; }
  bool on_comment(boost::json::string_view, ec_t&) { return true; }
};

boost::json::parse_options ReadBackOptions() {
  // As ParseRecord reads records: strings as stored, nesting up to 256.
  boost::json::parse_options options;
  options.allow_invalid_utf8 = true;
  options.max_depth = 256;
  return options;
}

// Whether `text` is one JSON value that is an object; the parser's error, if any, in `ec`.
bool IsOneObject(std::string_view text, const boost::json::parse_options& options,
                 boost::system::error_code& ec) {
  boost::json::basic_parser<ShapeHandler> parser(options);
  const size_t used = parser.write_some(false, text.data(), text.size(), ec);
  return !ec && used == text.size() && parser.handler().top_is_object;
}

}  // namespace

Result<EventRecord> ParseStoredRecord(std::string_view bytes) {
  if (std::optional<CanonicalView> view = ReadCanonical(bytes)) return ToRecord(*view);
  return ParseRecord(bytes);
}

Result<GlobalPosition> StoredRecordPosition(std::string_view bytes) {
  if (std::optional<CanonicalView> view = ReadCanonical(bytes)) {
    return GlobalPosition(view->position);
  }
  Result<EventRecord> record = ParseRecord(bytes);
  if (!record) return Fail(record.error());
  return record->position;
}

Status CheckEventData(std::string_view data) {
  if (data.empty()) return {};
  // ParseRecord finds `data` between the head and the record's closing brace: it must be one
  // object with nothing around it, not even white space.
  if (data.front() != '{' || data.back() != '}') {
    return Fail(ErrorCode::kValidationFailed, "event data must be a JSON object", "data",
                "must start with '{' and end with '}'");
  }
  boost::system::error_code ec;
  if (!IsOneObject(data, ReadBackOptions(), ec)) {
    return Fail(ErrorCode::kValidationFailed, "event data must be a JSON object", "data",
                ec ? ec.message() : "not a single JSON object");
  }
  return {};
}

bool IsStrictJsonObject(std::string_view text) {
  boost::system::error_code ec;
  return IsOneObject(text, boost::json::parse_options(), ec);
}

}  // namespace esign::eventstore
