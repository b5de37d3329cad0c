#include "http/multipart_form.h"

#include <algorithm>
#include <cctype>

#include "domain/text_formats.h"
#include "http/api.h"

namespace esign::http {
namespace {

std::unexpected<Error> Malformed(std::string issue) {
  return Fail(ErrorCode::kValidationFailed, "malformed multipart/form-data body", "body",
              std::move(issue));
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// The value of parameter `key` in a header value such as `form-data; name="file"` (quoted or
// token; a backslash escapes the next character in a quoted value); nothing when absent.
std::optional<std::string> Parameter(std::string_view value, std::string_view key) {
  size_t at = 0;
  while ((at = value.find(';', at)) != std::string_view::npos) {
    ++at;
    std::string_view rest = Trim(value.substr(at));
    const size_t equals = rest.find('=');
    if (equals == std::string_view::npos) continue;
    if (AsciiLower(Trim(rest.substr(0, equals))) != key) continue;
    std::string_view raw = Trim(rest.substr(equals + 1));
    std::string out;
    if (!raw.empty() && raw.front() == '"') {
      for (size_t i = 1; i < raw.size(); ++i) {
        if (raw[i] == '\\' && i + 1 < raw.size()) {
          out += raw[++i];
        } else if (raw[i] == '"') {
          return out;
        } else {
          out += raw[i];
        }
      }
      return std::nullopt;  // unterminated
    }
    return std::string(raw.substr(0, raw.find(';')));
  }
  return std::nullopt;
}

Result<FormPart> ParsePart(std::string_view part) {
  const size_t end = part.find("\r\n\r\n");
  if (end == std::string_view::npos || end > kMaxPartHeaderBytes) {
    return Malformed("each part needs headers of at most " + std::to_string(kMaxPartHeaderBytes) +
                     " bytes and a blank line before its content");
  }
  FormPart out;
  std::string_view headers = part.substr(0, end);
  bool disposition = false;
  while (!headers.empty()) {
    const size_t eol = headers.find("\r\n");
    std::string_view line = headers.substr(0, eol);
    headers = eol == std::string_view::npos ? std::string_view() : headers.substr(eol + 2);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) return Malformed("a part header without a colon");
    const std::string name = AsciiLower(Trim(line.substr(0, colon)));
    const std::string_view value = Trim(line.substr(colon + 1));
    if (name == "content-disposition") {
      if (AsciiLower(value.substr(0, value.find(';'))) != "form-data") {
        return Malformed("a part's Content-Disposition must be form-data");
      }
      auto field = Parameter(value, "name");
      if (!field) return Malformed("a part's Content-Disposition needs a name");
      out.name = *field;
      out.file_name = Parameter(value, "filename").value_or("");
      disposition = true;
    } else if (name == "content-type") {
      out.content_type = MediaTypeOf(value);
    }
  }
  if (!disposition) return Malformed("every part needs a Content-Disposition header");
  out.bytes = part.substr(end + 4);
  return out;
}

}  // namespace

Result<std::vector<FormPart>> ParseMultipartForm(std::string_view content_type,
                                                 std::string_view body) {
  if (MediaTypeOf(content_type) != "multipart/form-data") {
    return Malformed("the Content-Type is not multipart/form-data");
  }
  auto boundary = Parameter(content_type, "boundary");
  if (!boundary || boundary->empty() || boundary->size() > 70) {
    return Malformed("the Content-Type needs a boundary of 1 to 70 characters");
  }
  const std::string delimiter = "--" + *boundary;
  // The first delimiter may follow a preamble; every later one follows a line break.
  size_t at = body.find(delimiter);
  if (at == std::string_view::npos) return Malformed("no part begins with the boundary");
  const std::string next_delimiter = "\r\n" + delimiter;
  std::vector<FormPart> parts;
  for (;;) {
    at += delimiter.size();
    if (body.substr(at, 2) == "--") return parts;  // the closing delimiter
    if (body.substr(at, 2) != "\r\n") return Malformed("a boundary line must end with CRLF");
    at += 2;
    const size_t end = body.find(next_delimiter, at);
    if (end == std::string_view::npos) return Malformed("the body ends before its last boundary");
    if (parts.size() == kMaxParts) {
      return Malformed("at most " + std::to_string(kMaxParts) + " parts");
    }
    auto part = ParsePart(body.substr(at, end - at));
    if (!part) return std::unexpected(part.error());
    parts.push_back(std::move(*part));
    at = end + 2;
  }
}

const FormPart* FindPart(const std::vector<FormPart>& parts, std::string_view name) {
  for (const auto& part : parts) {
    if (part.name == name) return &part;
  }
  return nullptr;
}

}  // namespace esign::http
