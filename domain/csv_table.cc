#include "domain/csv_table.h"

#include <set>

namespace esign {
namespace {

// Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
bool IsUtf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto byte = [&](size_t at) { return static_cast<unsigned char>(text[at]); };
    const unsigned char lead = byte(i);
    size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (lead < 0x80) {
      ++i;
      continue;
    }
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 2;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 3;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    } else {
      return false;
    }
    if (i + length >= text.size()) return false;  // the sequence runs past the end
    if (byte(i + 1) < low || byte(i + 1) > high) return false;
    for (size_t k = 2; k <= length; ++k) {
      if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return false;
    }
    i += length + 1;
  }
  return true;
}

std::unexpected<Error> Refused(size_t line, const std::string& issue) {
  return Fail(ErrorCode::kValidationFailed, "the CSV cannot be read", "csv",
              "line " + std::to_string(line) + ": " + issue);
}

}  // namespace

Result<CsvTable> ParseCsv(std::string_view text, const CsvLimits& limits) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  if (!IsUtf8(text)) return Refused(1, "the text is not UTF-8");
  CsvTable table;
  std::vector<std::string> record;
  std::string cell;
  size_t line = 1;         // of the character being read
  size_t record_line = 1;  // where the record being read began
  size_t i = 0;
  bool quoted_cell = false;
  // Ends the record being read: the header first, then records of the header's width.
  const auto end_record = [&]() -> Status {
    const bool blank = record.empty() && cell.empty() && !quoted_cell;
    record.push_back(std::move(cell));
    cell.clear();
    quoted_cell = false;
    if (blank) {
      record.clear();
      return {};
    }
    if (table.header.empty()) {
      if (record.size() > limits.max_columns) {
        return Refused(record_line, "more than " + std::to_string(limits.max_columns) + " columns");
      }
      std::set<std::string_view> seen;
      for (const std::string& name : record) {
        if (name.empty()) return Refused(record_line, "a header cell is empty");
        if (!seen.insert(name).second) return Refused(record_line, "column " + name + " repeats");
      }
      table.header = std::move(record);
    } else {
      if (record.size() != table.header.size()) {
        return Refused(record_line, std::to_string(record.size()) + " cells where the header has " +
                                        std::to_string(table.header.size()));
      }
      if (table.records.size() == limits.max_records) {
        return Refused(record_line, "more than " + std::to_string(limits.max_records) + " records");
      }
      table.records.push_back(std::move(record));
    }
    record.clear();
    return {};
  };
  while (i < text.size()) {
    const char c = text[i];
    if (cell.empty() && !quoted_cell && c == '"') {
      // A quoted cell: up to the quote that is not doubled.
      quoted_cell = true;
      ++i;
      while (true) {
        if (i == text.size()) return Refused(record_line, "a quoted cell is not closed");
        const char q = text[i];
        if (q == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            cell.push_back('"');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        if (q == '\n') ++line;
        cell.push_back(q);
        ++i;
        if (cell.size() > limits.max_cell_bytes) return Refused(record_line, "a cell is too long");
      }
      if (i < text.size() && text[i] != ',' && text[i] != '\r' && text[i] != '\n') {
        return Refused(line, "a quoted cell is followed by something else than , or a line break");
      }
      continue;
    }
    if (c == ',') {
      record.push_back(std::move(cell));
      cell.clear();
      quoted_cell = false;
      if (record.size() > limits.max_columns) {
        return Refused(record_line, "more than " + std::to_string(limits.max_columns) + " columns");
      }
      ++i;
      continue;
    }
    if (c == '\r' || c == '\n') {
      if (c == '\r') {
        if (i + 1 >= text.size() || text[i + 1] != '\n') {
          return Refused(line, "a carriage return without its line feed");
        }
        ++i;
      }
      ++i;
      if (auto ended = end_record(); !ended) return std::unexpected(ended.error());
      ++line;
      record_line = line;
      continue;
    }
    if (c == '"') return Refused(line, "a quote inside a cell that does not start with one");
    cell.push_back(c);
    ++i;
    if (cell.size() > limits.max_cell_bytes) return Refused(record_line, "a cell is too long");
  }
  if (!cell.empty() || quoted_cell || !record.empty()) {
    if (auto ended = end_record(); !ended) return std::unexpected(ended.error());
  }
  if (table.header.empty()) return Refused(1, "there is no header");
  if (table.records.empty()) return Refused(line, "there is no record after the header");
  return table;
}

}  // namespace esign
