#include "documents/pdf_layout.h"

#include <cctype>

#include "domain/placeholders.h"

namespace esign {

std::string DisplayValue(const boost::json::value& value) {
  switch (value.kind()) {
    case boost::json::kind::string: {
      const auto& text = value.get_string();
      return text.empty() ? std::string(kMissingValue) : std::string(text);
    }
    case boost::json::kind::int64:
      return std::to_string(value.get_int64());
    case boost::json::kind::uint64:
      return std::to_string(value.get_uint64());
    case boost::json::kind::bool_:
      return value.get_bool() ? "Yes" : "No";
    case boost::json::kind::null:
      return std::string(kMissingValue);
    default:
      // Doubles and containers are not stored by the domain (decimals are exact strings); print
      // them as JSON rather than lose them.
      return boost::json::serialize(value);
  }
}

std::string SubstitutePlaceholders(std::string_view text, const boost::json::object& field_values) {
  auto pieces = SplitPlaceholders(text);
  if (!pieces) return std::string(text);
  std::string out;
  for (const auto& piece : *pieces) {
    if (!piece.is_placeholder) {
      out += piece.text;
      continue;
    }
    const auto* value = field_values.if_contains(piece.text);
    out += value != nullptr ? DisplayValue(*value) : std::string(kMissingValue);
  }
  return out;
}

std::string PdfMetadataDate(std::string_view rfc3339) {
  static constexpr std::string_view kPattern = "dddd-dd-ddTdd:dd:dd";
  bool ok = rfc3339.size() >= kPattern.size();
  for (size_t i = 0; ok && i < kPattern.size(); ++i) {
    const auto c = static_cast<unsigned char>(rfc3339[i]);
    ok = kPattern[i] == 'd' ? std::isdigit(c) != 0 : rfc3339[i] == kPattern[i];
  }
  if (!ok) return "1970-01-01T00:00:00Z";
  return std::string(rfc3339.substr(0, kPattern.size())) + "Z";
}

}  // namespace esign
