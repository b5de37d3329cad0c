// JsonEventHandlerBase: what every handler of Boost.JSON's event parser (basic_parser) here shares:
// no size limits of its own (rows are written by the service) and no interest in the document's
// bounds, number fragments or comments. A handler derives from it and adds the events it reads.
#pragma once

#include <boost/json/error.hpp>
#include <boost/json/string_view.hpp>
#include <cstddef>
#include <limits>

namespace esign::projections {

struct JsonEventHandlerBase {
  static constexpr size_t max_object_size = std::numeric_limits<size_t>::max();
  static constexpr size_t max_array_size = std::numeric_limits<size_t>::max();
  static constexpr size_t max_key_size = std::numeric_limits<size_t>::max();
  static constexpr size_t max_string_size = std::numeric_limits<size_t>::max();

  bool on_document_begin(boost::json::error_code&) { return true; }
  bool on_document_end(boost::json::error_code&) { return true; }
  bool on_number_part(boost::json::string_view, boost::json::error_code&) { return true; }
  bool on_comment_part(boost::json::string_view, boost::json::error_code&) { return true; }
  bool on_comment(boost::json::string_view, boost::json::error_code&) { return true; }
};

}  // namespace esign::projections
