// Readers of rendered messages for the mail tests: header section, lines, decoders.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/base64.h"

namespace esign::mail::testing {

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

inline std::vector<std::string> SplitCrlf(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const size_t end = text.find("\r\n");
    lines.emplace_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 2);
  }
  return lines;
}

inline std::string HeaderSection(std::string_view mime) {
  return std::string(mime.substr(0, mime.find("\r\n\r\n") + 2));
}

// The unfolded value of the first header `name` (with its colon), e.g. "Subject:".
inline std::string Header(std::string_view mime, std::string_view name) {
  const std::vector<std::string> lines = SplitCrlf(HeaderSection(mime));
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].starts_with(name)) continue;
    std::string value = lines[i].substr(name.size());
    while (i + 1 < lines.size() && lines[i + 1].starts_with(' ')) value += lines[++i];
    return value.starts_with(' ') ? value.substr(1) : value;
  }
  return "";
}

// The text of RFC 2047 "B" encoded-words separated by folding white space.
inline std::string DecodeEncodedWords(std::string_view value) {
  std::string text;
  while (true) {
    const size_t start = value.find("=?UTF-8?B?");
    if (start == std::string_view::npos) break;
    const size_t end = value.find("?=", start + 10);
    text += Base64Decode(value.substr(start + 10, end - start - 10)).value_or("<bad base64>");
    value.remove_prefix(end + 2);
  }
  return text;
}

inline std::string DecodeQuotedPrintable(std::string_view body) {
  std::string text;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '=') {
      text += body[i];
    } else if (body.substr(i + 1, 2) == "\r\n") {
      i += 2;
    } else {
      text += static_cast<char>(std::stoi(std::string(body.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    }
  }
  return text;
}

}  // namespace esign::mail::testing
