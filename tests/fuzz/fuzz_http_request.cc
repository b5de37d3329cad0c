// Raw bytes as an HTTP/1.1 request: parsed by Beast's request parser with the server's limits
// (http/server.h), and, when it parses, handled by the service's routes and API handler over the
// in-memory stores (fuzz_service.h). The first byte chooses the Authorization header the request
// carries instead of its own: 0 its own (often none), 1 the client's valid token, 2 a forged one,
// so the fuzzer reaches the handlers and not only the 401 path. Every request gets an answer
// with a status the API documents (docs/api.md); a 500 INTERNAL is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include "fuzz_service.h"
#include "http/server.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace beast_http = boost::beast::http;
  if (size == 0) return 0;
  const esign::http::ServerOptions limits;
  beast_http::request_parser<beast_http::string_body> parser;
  parser.body_limit(limits.body_limit);
  parser.header_limit(limits.header_limit);
  parser.eager(true);
  boost::beast::error_code ec;
  const size_t used = parser.put(boost::asio::buffer(data + 1, size - 1), ec);
  // A request that ends with the input: unfinished bodies read to their end, as a connection's
  // close would end them.
  if (!ec && !parser.is_done() && used == size - 1) parser.put_eof(ec);
  if (ec || !parser.is_done()) return 0;

  esign::http::Request request = parser.release();
  auto& service = esign::fuzz::FuzzService::Instance();
  switch (data[0] % 3) {
    case 1:
      request.set(beast_http::field::authorization, "Bearer " + service.access_token());
      break;
    case 2:
      request.set(beast_http::field::authorization, "Bearer at.e30.AAAA");
      break;
    default:
      break;
  }
  const esign::http::Response response = service.Handle(std::move(request));
  // 501 (a method HTTP does not define) and 503 are documented answers to a request.
  if (response.result_int() == 500) __builtin_trap();
  return 0;
}
