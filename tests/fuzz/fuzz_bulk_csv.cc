// A bulk send's CSV (domain/csv_table.h, domain/bulk_send.h): any bytes, read as RFC 4180 and
// mapped onto the example NDA's fields and roles, are rows or a VALIDATION_FAILED naming "csv",
// never a crash. Every row read has its participants array, and a record's cells all had a place.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "domain/bulk_send.h"
#include "domain/template_importer.h"

namespace {

const esign::TemplateVersion& Nda() {
  static const esign::Template nda = [] {
    std::ifstream in(std::string(SOURCE_DIR) + "/examples/templates/mutual-nda.json");
    std::stringstream text;
    text << in.rdbuf();
    auto imported = esign::ImportTemplateText(text.str());
    if (!imported) __builtin_trap();
    return *imported;
  }();
  return *nda.PublishedVersion();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace esign;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto table = ParseCsv(text, CsvLimits{.max_records = 100, .max_columns = 50});
  if (!table) {
    if (table.error().code != ErrorCode::kValidationFailed) __builtin_trap();
    return 0;
  }
  if (table->header.empty() || table->records.empty()) __builtin_trap();
  for (const auto& record : table->records) {
    if (record.size() != table->header.size()) __builtin_trap();
  }
  auto rows = RowsFromCsv(*table, Nda());
  if (!rows) {
    if (rows.error().code != ErrorCode::kValidationFailed) __builtin_trap();
    return 0;
  }
  if (rows->size() != table->records.size()) __builtin_trap();
  for (const auto& row : *rows) {
    if (!row.is_object() || !row.as_object().contains("participants")) __builtin_trap();
  }
  return 0;
}
