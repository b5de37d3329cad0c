// What the webhook delivery end-to-end tests share: a receiver process (tests/webhooks/receiver),
// which verifies every signature with the standardwebhooks npm package, an implementation
// independent of the service, and a fixture with a contractd and a client that manages webhooks.
#pragma once

#include <boost/json.hpp>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "tests/app/contractd_fixture.h"
#include "webhooks/endpoint.h"

namespace esign::testing {

using boost::beast::http::verb;
using boost::json::object;

inline constexpr auto kWait = std::chrono::seconds(40);
inline const std::string kEndpoints = "/api/v1/webhooks/endpoints";

// A receiver process and a client for its control routes.
class Receiver {
 public:
  Receiver() {
    process_ = std::make_unique<ChildProcess>(std::vector<std::string>{
        NODE_EXECUTABLE, std::string(SOURCE_DIR) + "/tests/webhooks/receiver/receiver.mjs"});
    auto line = process_->WaitForLine("receiver listening on", std::chrono::seconds(30));
    EXPECT_TRUE(line) << process_->output();
    if (line) port_ = static_cast<uint16_t>(std::stoi(line->substr(line->rfind(' ') + 1)));
  }
  ~Receiver() {
    process_->Signal(SIGTERM);
    process_->Wait(std::chrono::seconds(10));
  }
  std::string Url(const std::string& path = "/hooks") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  void Secrets(const std::vector<std::string>& secrets) {
    boost::json::array list(secrets.begin(), secrets.end());
    EXPECT_EQ(HttpClient(port_)
                  .Post("/_secrets", boost::json::serialize(object{{"secrets", list}}))
                  .status,
              200);
  }
  void Behave(const std::string& json) {
    EXPECT_EQ(HttpClient(port_).Post("/_behave", json).status, 200);
  }
  boost::json::array Received() {
    auto response = HttpClient(port_).Get("/_received");
    return response.Json().is_array() ? response.Json().as_array() : boost::json::array{};
  }
  // Waits until `done` holds for what arrived; what arrived then.
  boost::json::array WaitUntil(const std::function<bool(const boost::json::array&)>& done) {
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    boost::json::array received;
    while (std::chrono::steady_clock::now() < deadline) {
      received = Received();
      if (done(received)) return received;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << "the receiver did not get what was expected: "
                  << boost::json::serialize(received);
    return received;
  }

 private:
  std::unique_ptr<ChildProcess> process_;
  uint16_t port_ = 0;
};

// Deliveries of a contract that arrived with a status below 300.
inline std::vector<object> Accepted(const boost::json::array& received,
                                    const std::string& contract_id) {
  std::vector<object> of;
  for (const auto& r : received) {
    const auto& o = r.as_object();
    if (o.at("status").to_number<int64_t>() < 300 &&
        o.at("body").at("data").at("contractId").as_string() == contract_id) {
      of.push_back(o);
    }
  }
  return of;
}

// Every delivery verified, and each event delivered under one webhook-id only; `events` distinct
// events in all.
inline void ExpectOneWebhookIdPerEvent(const boost::json::array& received, size_t events) {
  std::map<std::string, std::set<std::string>> webhook_ids_of_event;
  for (const auto& r : received) {
    EXPECT_TRUE(r.at("verified").as_bool());
    webhook_ids_of_event[std::string(r.at("body").at("data").at("eventId").as_string())].insert(
        std::string(r.at("id").as_string()));
  }
  EXPECT_EQ(webhook_ids_of_event.size(), events);
  for (const auto& [event, ids] : webhook_ids_of_event) EXPECT_EQ(ids.size(), 1u) << event;
}

// Waits until every contract has at least `events` accepted deliveries; what arrived then.
inline boost::json::array WaitForEvents(Receiver& receiver,
                                        const std::vector<std::string>& contracts, size_t events) {
  return receiver.WaitUntil([&](const boost::json::array& r) {
    for (const auto& id : contracts) {
      if (Accepted(r, id).size() < events) return false;
    }
    return true;
  });
}

class DeliveryEndToEndTest : public ContractdFixture {
 protected:
  void Start() {
    server_ = StartServer({"--webhook-allow-loopback", "true", "--access-log", "false"});
    token_ = TokenFor(ParseCreated(CreateClient(
        "org_w",
        "contracts:read,contracts:create,contracts:update,contracts:send,webhooks:manage")));
  }
  void TearDown() override {
    if (server_) StopServer(*server_);
    ContractdFixture::TearDown();
  }

  HttpResult Call(verb method, const std::string& target, const std::string& body = "") {
    return HttpClient(port_).Send(method, target, body, {{"Authorization", "Bearer " + token_}});
  }

  // An endpoint at the receiver's `path` for every lifecycle event, or for `types`; its id and
  // secret.
  std::pair<std::string, std::string> AddEndpointAt(Receiver& receiver, const std::string& path,
                                                    const std::vector<std::string_view>& types = {
                                                        webhooks::kWebhookEventTypes.begin(),
                                                        webhooks::kWebhookEventTypes.end()}) {
    const object request{{"url", receiver.Url(path)},
                         {"eventTypes", boost::json::array(types.begin(), types.end())}};
    auto created = Call(verb::post, kEndpoints, boost::json::serialize(request));
    EXPECT_EQ(created.status, 201) << created.body;
    if (created.status != 201) return {};
    return {std::string(created.Json().at("id").as_string()),
            std::string(created.Json().at("secret").as_string())};
  }

  // An endpoint for every lifecycle event at the receiver, which learns its secret.
  std::string AddEndpoint(Receiver& receiver) {
    auto [id, secret] = AddEndpointAt(receiver, "/hooks");
    receiver.Secrets({secret});
    return id;
  }

  std::string CreateAndSend() {
    std::ifstream file(std::string(SOURCE_DIR) + "/examples/requests/create-nda.json");
    std::stringstream body;
    body << file.rdbuf();
    auto created = Call(verb::post, "/api/v1/contracts", body.str());
    EXPECT_EQ(created.status, 201) << created.body;
    if (created.status != 201) return "";
    const std::string id(created.Json().at("id").as_string());
    EXPECT_EQ(Call(verb::post, "/api/v1/contracts/" + id + "/send").status, 200);
    return id;
  }

  // Waits until the service has disabled the endpoint (after a 410); whether it did.
  bool WaitUntilDisabled(const std::string& endpoint_id) {
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    while (Call(verb::get, kEndpoints + "/" + endpoint_id).Json().at("enabled").as_bool()) {
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return true;
  }

  boost::json::array Deliveries(const std::string& endpoint_id) {
    auto listed = Call(verb::get, kEndpoints + "/" + endpoint_id + "/deliveries");
    EXPECT_EQ(listed.status, 200) << listed.body;
    return listed.Json().at("items").as_array();
  }

  std::unique_ptr<ChildProcess> server_;
  std::string token_;
};

}  // namespace esign::testing
