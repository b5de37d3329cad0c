// Template files (domain/template_importer.h): any bytes are either a valid Template or
// kTemplateInvalid, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "domain/template_importer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto imported = esign::ImportTemplateText(text);
  if (!imported && imported.error().code != esign::ErrorCode::kTemplateInvalid) __builtin_trap();
  return 0;
}
