// CSV as RFC 4180 writes it, read into rows of cells: fields separated by commas, records by CRLF
// (a bare LF is accepted too), a field in double quotes may hold commas, line breaks and doubled
// quotes. The text must be UTF-8 (a leading byte order mark is dropped); the first record is the
// header. Used for bulk sends (DESIGN 23), where a spreadsheet's export is the input.
// Pure functions; any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "domain/result.h"

namespace esign {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> records;  // each as long as the header
};

struct CsvLimits {
  size_t max_records = 10'000;  // after the header
  size_t max_columns = 500;
  size_t max_cell_bytes = size_t{64} * 1024;
};

// kValidationFailed (field "csv", the issue naming the line) for text that is not UTF-8, a quote
// that is not closed or is followed by something else than a separator, a record with another
// number of cells than the header, an empty or repeated header cell, no record, or more than the
// limits allow. Empty lines between records are skipped; a last line without its line break is a
// record.
Result<CsvTable> ParseCsv(std::string_view text, const CsvLimits& limits = {});

}  // namespace esign
