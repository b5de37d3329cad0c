#include "domain/json_parse.h"

#include <boost/json/basic_parser_impl.hpp>
#include <string>

#include "domain/decimal.h"

namespace esign {
namespace {

// Builds the value like Boost's own parser handler, and checks each double against its text.
struct ExactHandler {
  static constexpr std::size_t max_object_size = boost::json::object::max_size();
  static constexpr std::size_t max_array_size = boost::json::array::max_size();
  static constexpr std::size_t max_key_size = boost::json::string::max_size();
  static constexpr std::size_t max_string_size = boost::json::string::max_size();

  boost::json::value_stack stack;
  std::string number_text;
  std::string inexact_number;

  bool on_document_begin(boost::json::error_code&) { return true; }
  bool on_document_end(boost::json::error_code&) { return true; }
  bool on_object_begin(boost::json::error_code&) { return true; }
  bool on_object_end(std::size_t n, boost::json::error_code&) {
    stack.push_object(n);
    return true;
  }
  bool on_array_begin(boost::json::error_code&) { return true; }
  bool on_array_end(std::size_t n, boost::json::error_code&) {
    stack.push_array(n);
    return true;
  }
  bool on_key_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    stack.push_chars(s);
    return true;
  }
  bool on_key(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    stack.push_key(s);
    return true;
  }
  bool on_string_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    stack.push_chars(s);
    return true;
  }
  bool on_string(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    stack.push_string(s);
    return true;
  }
  bool on_number_part(boost::json::string_view s, boost::json::error_code&) {
    number_text.append(s.data(), s.size());
    return true;
  }
  bool on_int64(int64_t i, boost::json::string_view, boost::json::error_code&) {
    number_text.clear();
    stack.push_int64(i);
    return true;
  }
  bool on_uint64(uint64_t u, boost::json::string_view, boost::json::error_code&) {
    number_text.clear();
    stack.push_uint64(u);
    return true;
  }
  bool on_double(double d, boost::json::string_view s, boost::json::error_code& ec) {
    number_text.append(s.data(), s.size());
    if (!NumberLiteralEqualsDouble(number_text, d)) {
      inexact_number = number_text;
      ec = boost::json::error::exception;  // any error stops the parse
      return false;
    }
    number_text.clear();
    stack.push_double(d);
    return true;
  }
  bool on_bool(bool b, boost::json::error_code&) {
    stack.push_bool(b);
    return true;
  }
  bool on_null(boost::json::error_code&) {
    stack.push_null();
    return true;
  }
  bool on_comment_part(boost::json::string_view, boost::json::error_code&) { return true; }
  bool on_comment(boost::json::string_view, boost::json::error_code&) { return true; }
};

// "at line 3, column 14 (offset 41)": lines end at LF; lines and columns count from 1, columns in
// characters (a UTF-8 sequence is one), the offset in bytes from 0.
std::string Location(std::string_view text, size_t offset) {
  size_t line = 1;
  size_t column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++column;
    }
  }
  return "at line " + std::to_string(line) + ", column " + std::to_string(column) + " (offset " +
         std::to_string(offset) + ")";
}

}  // namespace

Result<boost::json::value> ParseJson(std::string_view text) {
  boost::json::parse_options options;
  options.max_depth = 64;
  boost::json::basic_parser<ExactHandler> parser(options);
  parser.handler().stack.reset();
  boost::json::error_code ec;
  size_t used = parser.write_some(false, text.data(), text.size(), ec);
  if (!ec && used < text.size()) ec = boost::json::error::extra_data;
  if (ec) {
    if (!parser.handler().inexact_number.empty()) {
      return Fail(ErrorCode::kValidationFailed, "a number cannot be represented exactly", "body",
                  "number " + parser.handler().inexact_number +
                      " exceeds the precision of a JSON number here; send it as a string");
    }
    // The parser stops at the byte where the text went wrong (at the end for a body that ends
    // too early, at the second value for extra data), and says how far it got.
    const std::string issue = ec.message() + " " + Location(text, used);
    return Fail(ErrorCode::kValidationFailed, "the body is not valid JSON: " + issue, "body",
                issue);
  }
  return parser.handler().stack.release();
}

}  // namespace esign
