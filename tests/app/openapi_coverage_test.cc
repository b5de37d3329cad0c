// The OpenAPI document against the service's real route table: every routed operation is
// described, and every described operation is routed (with the same operation id and
// authentication).
#include <boost/json.hpp>
#include <filesystem>

#include <gtest/gtest.h>

#include "app/service.h"
#include "http/openapi_routes.h"

namespace esign::app {
namespace {

TEST(OpenApiCoverageTest, EveryRouteIsDescribedAndEveryDescriptionRouted) {
  const auto data_dir =
      std::filesystem::temp_directory_path() / ("openapi-" + std::to_string(::getpid()));
  std::filesystem::remove_all(data_dir);
  ServeConfig config;
  config.data_dir = data_dir.string();
  config.server.port = 0;
  config.demo_client = false;
  config.access_log = false;
  auto service = Service::Start(config);
  ASSERT_TRUE(service) << service.error().message;
  const auto differences = http::CompareRoutesWithDocument(
      (*service)->routes(), boost::json::parse(http::OpenApiDocumentText()));
  EXPECT_TRUE(differences.empty()) << [&] {
    std::string all;
    for (const auto& d : differences) all += d + "\n";
    return all;
  }();
  (*service)->Stop();
  service->reset();
  std::filesystem::remove_all(data_dir);
}

}  // namespace
}  // namespace esign::app
