// A response as the bytes that go on the wire, in one buffer: the status line, the header fields
// in their order, the blank line and the body. The same bytes Beast's serializer sends for a
// response whose body is not chunked, without its buffer-sequence machinery, which cost more
// instructions than the rest of the write of a small answer. Chunked responses are left to Beast.
// Pure function; safe from any thread.
#pragma once

#include <string>

#include "http/request_handler.h"

namespace esign::http {

// Whether WireBytes can give `response` as Beast would send it.
bool HasPlainWireForm(const Response& response);

// `response` as sent; only for a response with HasPlainWireForm.
std::string WireBytes(const Response& response);

}  // namespace esign::http
