// The text rules of the rendered contract, kept apart from cairo and pango so they can be tested
// alone: how a stored field or cell value reads on paper, how placeholders are filled, and the
// PDF date the document carries. Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>

namespace esign {

// Printed where a placeholder or cell has no value, so the reader sees a blank to fill.
inline constexpr std::string_view kMissingValue = "________";

// A stored value as printed: strings as stored, numbers in decimal, booleans "Yes"/"No"; null
// or an empty string print kMissingValue.
std::string DisplayValue(const boost::json::value& value);

// The paragraph with every {{key}} replaced by DisplayValue of field_values[key], kMissingValue
// when absent. Text with malformed placeholders is printed as written (the importer rejects such
// templates, so this only guards against hand-built ones).
std::string SubstitutePlaceholders(std::string_view text, const boost::json::object& field_values);

// The ISO 8601 date cairo writes into the PDF's /CreationDate and /ModDate: the first 19
// characters of an RFC 3339 timestamp plus "Z" (our timestamps are UTC), or the epoch when the
// timestamp is malformed, so that the document never carries the clock.
std::string PdfMetadataDate(std::string_view rfc3339);

}  // namespace esign
