// multipart/form-data bodies (RFC 7578) as document uploads send them: the boundary from the
// Content-Type, then each part's name, file name, media type and bytes. Bounded: at most
// kMaxParts parts and kMaxPartHeaderBytes of headers per part; anything malformed is
// kValidationFailed naming what. The parts are views into the body: it must outlive them.
// Pure functions; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "domain/result.h"

namespace esign::http {

inline constexpr size_t kMaxParts = 8;
inline constexpr size_t kMaxPartHeaderBytes = 4096;

struct FormPart {
  std::string name;       // Content-Disposition's name
  std::string file_name;  // its filename, when given
  std::string content_type;
  std::string_view bytes;
};

// The parts of `body` sent with `content_type` (which must be multipart/form-data with a
// boundary).
Result<std::vector<FormPart>> ParseMultipartForm(std::string_view content_type,
                                                 std::string_view body);

// The part named `name`; nullptr when there is none.
const FormPart* FindPart(const std::vector<FormPart>& parts, std::string_view name);

}  // namespace esign::http
