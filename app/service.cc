#include "app/service.h"

#include <filesystem>
#include <iostream>

#include "commands/template_commands.h"

namespace esign::app {

Result<std::unique_ptr<Service>> Service::Start(const ServeConfig& config) {
  std::unique_ptr<Service> service(new Service());
  std::error_code ec;
  std::filesystem::create_directories(config.data_dir, ec);
  if (ec) {
    return Fail(ErrorCode::kStorage,
                "cannot create data directory " + config.data_dir + ": " + ec.message());
  }
  eventstore::RocksStoreOptions store_options;
  store_options.data_dir = config.data_dir;
  auto store = eventstore::RocksEventStore::Open(store_options);
  if (!store) return std::unexpected(store.error());
  service->store_ = std::move(*store);

  const std::string templates_dir =
      config.templates_dir.empty() ? ESIGN_EXAMPLE_TEMPLATES_DIR : config.templates_dir;
  auto imported = commands::ImportTemplateDirectory(*service->store_, templates_dir,
                                                    eventstore::Actor{.client_id = "contractd"});
  if (!imported) return std::unexpected(imported.error());
  for (const auto& t : *imported) {
    std::cerr << "contractd: template " << t.template_id << " from " << t.file
              << (t.changed ? " imported" : " unchanged") << std::endl;
  }

  http::ApiHandlerOptions handler_options;
  handler_options.access_log = http::StderrAccessLog();
  service->handler_ =
      std::make_unique<http::ApiHandler>(service->routes_, nullptr, std::move(handler_options));
  auto server = http::HttpServer::Start(config.server, *service->handler_);
  if (!server) return std::unexpected(server.error());
  service->server_ = std::move(*server);
  service->handler_->SetReady(true);
  return service;
}

Service::~Service() { Stop(); }

void Service::Stop() {
  if (handler_) handler_->SetReady(false);
  if (server_) server_->Stop();
  if (handler_) handler_->Drain();
  if (store_) store_->Close();
}

}  // namespace esign::app
