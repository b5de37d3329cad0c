// The seam between the server and the service: a handler receives a parsed request and answers
// it exactly once through the `respond` callback, from any thread. A handler that must block
// (RocksDB sync, rendering) posts the work elsewhere; the server's I/O threads never block.
#pragma once

#include <functional>

#include <boost/beast/http.hpp>

namespace esign::http {

using Request = boost::beast::http::request<boost::beast::http::string_body>;
using Response = boost::beast::http::response<boost::beast::http::string_body>;
using Respond = std::function<void(Response)>;

// What the connection knows about a request beyond its bytes.
struct RequestContext {
  std::string remote_ip;
};

class RequestHandler {
 public:
  virtual ~RequestHandler() = default;
  virtual void Handle(Request request, const RequestContext& context, Respond respond) = 0;
};

}  // namespace esign::http
