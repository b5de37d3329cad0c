// The running service: the data directory's store, the imported templates, the HTTP server.
// Start and Stop from the main thread.
#pragma once

#include <memory>

#include "app/config.h"
#include "domain/result.h"
#include "eventstore/rocksdb_event_store.h"
#include "http/api_handler.h"
#include "http/server.h"

namespace esign::app {

class Service {
 public:
  static Result<std::unique_ptr<Service>> Start(const ServeConfig& config);
  ~Service();

  uint16_t port() const { return server_->port(); }
  // Finishes in-flight requests, then closes the store. Idempotent.
  void Stop();

 private:
  Service() = default;
  std::unique_ptr<eventstore::RocksEventStore> store_;
  http::ApiRoutes routes_;
  std::unique_ptr<http::ApiHandler> handler_;
  std::unique_ptr<http::HttpServer> server_;
};

}  // namespace esign::app
