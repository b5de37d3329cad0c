// Test support: contract histories made by the real domain. ContractScript decides commands with
// the domain's Decide (DecisionContext, the example templates) on the state replayed from the
// store, and appends the events to "contract-<id>" as a command handler would. Contract ids are
// "ctr_000001", "ctr_000002", ... so creation order is id order, like the service's time-ordered
// ids.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "domain/contract.h"
#include "domain/template_importer.h"
#include "domain/template_json.h"
#include "eventstore/event_store.h"
#include "eventstore/rocksdb_event_store.h"
#include "tests/support/command_from_json.h"
#include "tests/support/temp_dir.h"

namespace esign::projections::testing {

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline std::string ExampleTemplate(const std::string& name) {
  return ReadFile(std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/" + name);
}

using esign::testing::TempDir;

inline eventstore::RocksStoreOptions SmallRocksOptions(const std::string& dir) {
  eventstore::RocksStoreOptions options;
  options.data_dir = dir;
  options.block_cache_bytes = size_t{8} << 20;
  options.write_buffer_bytes = size_t{4} << 20;
  return options;
}

// A machine client of an organization with every contract permission.
inline Actor Client(std::string client_id, std::string organization_id) {
  return Actor{std::move(client_id),
               std::move(organization_id),
               {"contracts:create", "contracts:update", "contracts:send", "evidence:write"}};
}

// Who takes part in a services agreement besides the individual client signatory.
struct Parties {
  std::string signer_org = "org_c";  // provider_company: an organization signer
  std::string viewer_org = "org_b";  // an organization with a view participant
  std::string copy_org = "org_d";    // an organization receiving a copy only
  std::string signer_email = "client@c.example";
  std::string signer_name = "Clara Client";
};

// A services-agreement creation body with complete data.
inline std::string ServicesBody(const std::string& title, const Parties& parties,
                                bool send_now = false) {
  boost::json::array participants = {boost::json::object{{"name", parties.signer_name},
                                                         {"email", parties.signer_email},
                                                         {"action", "sign"},
                                                         {"recipientType", "individual"},
                                                         {"executionChannel", "platform_hosted"},
                                                         {"templateRoleId", "client_signatory"}},
                                     boost::json::object{{"name", "Provider " + parties.signer_org},
                                                         {"organizationId", parties.signer_org},
                                                         {"action", "sign"},
                                                         {"recipientType", "organization"},
                                                         {"executionChannel", "provider_managed"},
                                                         {"templateRoleId", "provider_company"}}};
  if (!parties.viewer_org.empty()) {
    participants.push_back(boost::json::object{{"name", "Viewer " + parties.viewer_org},
                                               {"organizationId", parties.viewer_org},
                                               {"action", "view"},
                                               {"recipientType", "organization"}});
  }
  if (!parties.copy_org.empty()) {
    participants.push_back(boost::json::object{{"name", "Copy " + parties.copy_org},
                                               {"organizationId", parties.copy_org},
                                               {"action", "receive_copy"},
                                               {"recipientType", "organization"}});
  }
  boost::json::object body = {
      {"title", title},
      {"templateId", "tpl_services_agreement"},
      {"sendNow", send_now},
      {"data", boost::json::parse(
                   R"({"parties": {"clientName": "C", "clientAddress": "A", "providerName": "P",
                           "providerRegistrationNumber": "R", "billingEmail": "b@p.example"},
               "engagement": {"effectiveDate": "2026-03-01",
                              "scopeOfServices": "Twenty characters at least.",
                              "currency": "EUR", "totalFee": "10.00", "paymentTermsDays": 30,
                              "governingLaw": "Germany",
                              "paymentMilestones": [{"description": "All",
                                                     "dueDate": "2026-03-01",
                                                     "amount": "10.00"}]}})")},
      {"participants", std::move(participants)}};
  return boost::json::serialize(body);
}

class ContractScript {
 public:
  explicit ContractScript(eventstore::EventStore& store) : store_(store) {}

  // Appends a template.imported event for an example template file and keeps the template for
  // the decisions.
  void ImportTemplate(const std::string& file) {
    Result<Template> tmpl = ImportTemplateText(ExampleTemplate(file));
    ASSERT_TRUE(tmpl) << tmpl.error().message;
    eventstore::NewEvent event;
    event.event_id = NextEventId();
    event.type = "template.imported";
    event.data = boost::json::serialize(TemplateToJson(*tmpl));
    auto appended = store_.Append("template-" + tmpl->template_id,
                                  eventstore::ExpectedVersion::Any(), {std::move(event)});
    ASSERT_TRUE(appended) << appended.error().message;
    const std::string id = tmpl->template_id;
    templates_[id] = std::make_unique<Template>(std::move(*tmpl));
  }

  // Creates a contract; returns its id ("" after a failure, which is reported).
  std::string Create(const Actor& actor, const std::string& body, const std::string& now) {
    auto command =
        esign::testing::CommandFromJson("CreateContract", boost::json::parse(body).as_object());
    EXPECT_TRUE(command) << command.error().message;
    if (!command) return "";
    char id[32];
    std::snprintf(id, sizeof(id), "ctr_%06d", ++contracts_);
    const auto& create = std::get<CreateContract>(*command);
    const Template* tmpl = FindTemplate(std::string(create.template_id.as_string()));
    if (Status ran = Decide(actor, id, *command, now, tmpl); !ran) {
      ADD_FAILURE() << ran.error().message;
      return "";
    }
    return id;
  }

  // Decides a command on the contract's current state and appends the events.
  Status Run(const Actor& actor, const std::string& contract_id, const Command& command,
             const std::string& now) {
    Result<ContractState> state = Load(contract_id);
    if (!state) return Fail(state.error());
    return Decide(actor, contract_id, command, now, FindTemplate(state->template_id));
  }

  Status RunJson(const Actor& actor, const std::string& contract_id, const std::string& name,
                 const std::string& body, const std::string& now) {
    auto command = esign::testing::CommandFromJson(name, boost::json::parse(body).as_object());
    if (!command) return Fail(command.error());
    return Run(actor, contract_id, *command, now);
  }

  Result<ContractState> Load(const std::string& contract_id) const {
    auto records = store_.ReadStream("contract-" + contract_id, StreamVersion(1), 100000);
    if (!records) return Fail(records.error());
    std::vector<DomainEvent> events;
    for (const auto& record : *records) {
      events.push_back(DomainEvent{record.type, boost::json::parse(record.data).as_object()});
    }
    return Replay(events);
  }

  // The log size after the last append of this script: what a handler would wait for.
  uint64_t last_size() const { return last_size_; }

  // The participant id of the first participant with this name.
  std::string ParticipantId(const std::string& contract_id, const std::string& name) const {
    Result<ContractState> state = Load(contract_id);
    if (!state) return "";
    for (const auto& p : state->participants) {
      if (p.name == name) return p.participant_id;
    }
    return "";
  }

 private:
  const Template* FindTemplate(const std::string& id) const {
    const auto it = templates_.find(id);
    return it == templates_.end() ? nullptr : it->second.get();
  }

  std::string NextEventId() { return "evt_" + std::to_string(++events_); }

  Status Decide(const Actor& actor, const std::string& contract_id, const Command& command,
                const std::string& now, const Template* tmpl) {
    Result<ContractState> state = Load(contract_id);
    if (!state) return Fail(state.error());
    DecisionContext context;
    context.actor = actor;
    context.tmpl = tmpl;
    context.now = now;
    context.contract_id = contract_id;
    for (int i = 0; i < 8; ++i)
      context.participant_ids.push_back("prt_" + std::to_string(++participants_));
    Result<std::vector<DomainEvent>> events = esign::Decide(*state, command, context);
    if (!events) return Fail(events.error());
    std::vector<eventstore::NewEvent> records;
    for (const DomainEvent& event : *events) {
      eventstore::NewEvent record;
      record.event_id = NextEventId();
      record.type = event.type;
      record.data = boost::json::serialize(event.data);
      record.actor = eventstore::Actor{actor.client_id, actor.organization_id,
                                       "req_" + std::to_string(events_), "192.0.2.7", "script"};
      records.push_back(std::move(record));
    }
    auto appended = store_.Append(
        "contract-" + contract_id,
        eventstore::ExpectedVersion::Exactly(StreamVersion(state->version)), std::move(records));
    if (!appended) return Fail(appended.error());
    last_size_ = appended->first_position.value() + appended->count;
    return {};
  }

  eventstore::EventStore& store_;
  std::map<std::string, std::unique_ptr<Template>> templates_;
  int contracts_ = 0;
  int events_ = 0;
  int participants_ = 0;
  uint64_t last_size_ = 0;
};

}  // namespace esign::projections::testing
