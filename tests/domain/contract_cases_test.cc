// The contract aggregate's rules as data (tests/domain/cases/*.json): given commands or events,
// when a command by an actor with some permissions, then events of these types (and optionally
// parts of their data and of the resulting contract), or an error code and detail field.
//
// Case file: {"template": "file.json", "uploads"?: [document.uploaded data, ...], "cases": [{
//   "name": "...", "template"?: "file.json",
//   "given": [{"command": "CreateContract", "body": {...}} | {"event": "type", "data": {...}}],
//   "when": {"command": "...", "body": {...}, "permissions"?: [...], "organizationId"?: "...",
//            "at"?: "RFC 3339" (the decision's time; else one second after the previous step's),
//            "context"?: {"renderedDocumentSha256", "organizationNotifications",
//                         "templateVersionId", "withoutTemplate"}},
//   "then": {"events": ["type", ...], "eventData"?: [{subset}, ...], "state"?: {subset},
//            "status"?: {subset}} | {"error": "CODE", "field"?: "...", "issue"?: "substring",
//            "details"?: n}}]}
// The uploads are the organization's, found by every step (as the command handler finds them);
// a contract made from them decides on its implicit roles (placed_field_rules.h).
// Templates are looked up in tests/domain/templates, then examples/templates. Every successful
// case also checks that replaying the events from their serialized form rebuilds the same state.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "domain/contract.h"
#include "domain/json_parse.h"
#include "domain/json_util.h"
#include "domain/placed_field_rules.h"
#include "domain/template_importer.h"
#include "test_files.h"
#include "tests/support/command_from_json.h"

namespace esign {
namespace {

struct Case {
  std::string file;
  std::string name;
  std::string template_file;
  boost::json::object spec;
  std::vector<UploadedDocument> uploads;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.file << ": " << c.name; }

std::string TestName(const std::string& file, const std::string& name) {
  std::string out = std::filesystem::path(file).stem().string() + "_" + name;
  for (char& c : out) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return out;
}

std::vector<Case> LoadCases() {
  std::vector<Case> cases;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(testing::TestDataPath("cases"))) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    auto parsed = ParseJson(testing::ReadFile(path.string()));
    if (!parsed || !parsed->is_object()) {
      cases.push_back(Case{path.string(), "unreadable_file", "", {}});
      continue;
    }
    const auto& file = parsed->get_object();
    std::string default_template =
        file.contains("template") ? std::string(file.at("template").as_string()) : "";
    std::vector<UploadedDocument> uploads;
    if (const auto* items = file.if_contains("uploads")) {
      for (const auto& item : items->as_array()) {
        uploads.push_back(UploadedDocumentFromJson(item.as_object()));
      }
    }
    for (const auto& item : file.at("cases").as_array()) {
      const auto& spec = item.as_object();
      std::string tmpl = spec.contains("template") ? std::string(spec.at("template").as_string())
                                                   : default_template;
      cases.push_back(Case{path.filename().string(), std::string(spec.at("name").as_string()), tmpl,
                           spec, uploads});
    }
  }
  return cases;
}

const std::vector<Case>& AllCases() {
  static const std::vector<Case> cases = LoadCases();
  return cases;
}

const Template& LoadTemplate(const std::string& file) {
  static std::map<std::string, Template> cache;
  auto it = cache.find(file);
  if (it != cache.end()) return it->second;
  std::string path = testing::TestDataPath("templates/" + file);
  if (!std::filesystem::exists(path)) path = testing::ExampleTemplatePath(file);
  auto imported = ImportTemplateText(testing::ReadFile(path));
  if (!imported) {
    ADD_FAILURE() << "template " << file << ": " << imported.error().message;
    return cache[file];
  }
  return cache.emplace(file, std::move(*imported)).first->second;
}

// True when `expected` is contained in `actual`: objects member by member, arrays element by
// element (same length), numbers by value.
bool Contains(const boost::json::value& actual, const boost::json::value& expected,
              const std::string& path, std::string& why) {
  if (expected.is_object()) {
    if (!actual.is_object()) {
      why = path + ": expected an object, got " + boost::json::serialize(actual);
      return false;
    }
    for (const auto& [key, value] : expected.get_object()) {
      const auto* member = actual.get_object().if_contains(key);
      if (member == nullptr) {
        if (value.is_null()) continue;
        why = JoinPath(path, key) + ": missing";
        return false;
      }
      if (!Contains(*member, value, JoinPath(path, key), why)) return false;
    }
    return true;
  }
  if (expected.is_array()) {
    if (!actual.is_array() || actual.get_array().size() != expected.get_array().size()) {
      why = path + ": expected " + boost::json::serialize(expected) + ", got " +
            boost::json::serialize(actual);
      return false;
    }
    for (size_t i = 0; i < expected.get_array().size(); ++i) {
      if (!Contains(actual.get_array()[i], expected.get_array()[i], IndexPath(path, i), why)) {
        return false;
      }
    }
    return true;
  }
  bool equal = expected.is_number() && actual.is_number()
                   ? expected.to_number<double>() == actual.to_number<double>()
                   : expected == actual;
  if (!equal) {
    why = path + ": expected " + boost::json::serialize(expected) + ", got " +
          boost::json::serialize(actual);
  }
  return equal;
}

std::string Describe(const Error& error) {
  std::string out = std::string(ToString(error.code)) + " " + error.message;
  for (const auto& d : error.details) out += "\n  " + d.field + ": " + d.issue;
  return out;
}

// Runs one case: the fixture keeps the clock and id counters.
class CaseRunner {
 public:
  explicit CaseRunner(const Case& c) : case_(c), tmpl_(LoadTemplate(c.template_file)) {}

  void Run() {
    const auto& spec = case_.spec;
    if (const auto* given = spec.if_contains("given")) {
      for (const auto& step : given->as_array()) {
        Given(step.as_object());
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
    const auto& when = spec.at("when").as_object();
    const auto& then = spec.at("then").as_object();
    auto command = esign::testing::CommandFromJson(when.at("command").as_string(), Body(when));
    Result<std::vector<DomainEvent>> decided =
        command ? Decide(state_, *command, Context(when))
                : Result<std::vector<DomainEvent>>(std::unexpected(command.error()));
    if (const auto* code = then.if_contains("error")) {
      ExpectError(decided, then, std::string(code->as_string()));
      return;
    }
    ASSERT_TRUE(decided.has_value()) << Describe(decided.error());
    ExpectEvents(*decided, then);
    for (const auto& event : *decided) {
      EXPECT_FALSE(event.data.contains("contractId") == false ||
                   event.data.at("contractId").as_string().empty())
          << event.type << " lacks contractId";
      events_.push_back(event);
      state_ = Apply(std::move(state_), event);
    }
    if (const auto* expected = then.if_contains("state")) {
      std::string why;
      EXPECT_TRUE(Contains(ContractToJson(state_), *expected, "state", why)) << why;
    }
    if (const auto* expected = then.if_contains("status")) {
      std::string why;
      EXPECT_TRUE(Contains(ContractStatusToJson(state_), *expected, "status", why)) << why;
    }
    ExpectReplayRebuildsState();
  }

 private:
  static boost::json::object Body(const boost::json::object& step) {
    const auto* body = step.if_contains("body");
    return body != nullptr && body->is_object() ? body->get_object() : boost::json::object();
  }

  DecisionContext Context(const boost::json::object& step) {
    DecisionContext context;
    ++clock_;
    char now[32];
    std::snprintf(now, sizeof(now), "2026-01-15T10:%02d:%02dZ", clock_ / 60, clock_ % 60);
    context.now = now;
    if (const auto* at = step.if_contains("at")) context.now = std::string(at->as_string());
    context.actor.client_id = "cli_test";
    context.actor.organization_id = "org_acme";
    context.actor.permissions = {"contracts:create", "contracts:read", "contracts:update",
                                 "contracts:send", "evidence:write"};
    if (const auto* permissions = step.if_contains("permissions")) {
      context.actor.permissions.clear();
      for (const auto& p : permissions->as_array()) {
        context.actor.permissions.emplace(p.as_string());
      }
    }
    if (const auto* org = step.if_contains("organizationId")) {
      context.actor.organization_id = std::string(org->as_string());
    }
    context.tmpl = &tmpl_;
    context.uploads = case_.uploads;
    if (state_.from_uploads()) {
      uploads_version_ = UploadsTemplateVersion(state_);
      context.template_version = &uploads_version_;
    }
    context.contract_id = "ctr_test";
    for (int i = 0; i < 10; ++i) context.participant_ids.push_back("prt_" + std::to_string(++ids_));
    if (const auto* extra = step.if_contains("context")) {
      const auto& o = extra->as_object();
      if (const auto* sha = o.if_contains("renderedDocumentSha256")) {
        context.rendered_document_sha256 = std::string(sha->as_string());
      }
      if (const auto* org = o.if_contains("organizationNotifications")) {
        context.organization_notifications = org->as_object();
      }
      if (const auto* version = o.if_contains("templateVersionId")) {
        context.template_version = tmpl_.FindVersion(version->as_string());
      }
      if (o.contains("withoutTemplate")) context.tmpl = nullptr;
    }
    return context;
  }

  void Given(const boost::json::object& step) {
    if (const auto* type = step.if_contains("event")) {
      DomainEvent event{std::string(type->as_string()), step.contains("data")
                                                            ? step.at("data").as_object()
                                                            : boost::json::object()};
      events_.push_back(event);
      state_ = Apply(std::move(state_), event);
      return;
    }
    auto command = esign::testing::CommandFromJson(step.at("command").as_string(), Body(step));
    ASSERT_TRUE(command.has_value()) << Describe(command.error());
    auto decided = Decide(state_, *command, Context(step));
    ASSERT_TRUE(decided.has_value())
        << "given " << step.at("command").as_string() << ": " << Describe(decided.error());
    for (const auto& event : *decided) {
      events_.push_back(event);
      state_ = Apply(std::move(state_), event);
    }
  }

  void ExpectError(const Result<std::vector<DomainEvent>>& decided, const boost::json::object& then,
                   const std::string& code) {
    if (decided.has_value()) {
      std::string types;
      for (const auto& e : *decided) types += e.type + " ";
      ADD_FAILURE() << "expected " << code << ", got events: " << types;
      return;
    }
    const Error& error = decided.error();
    EXPECT_EQ(ToString(error.code), code) << Describe(error);
    if (const auto* field = then.if_contains("field")) {
      bool found = std::any_of(error.details.begin(), error.details.end(),
                               [&](const ErrorDetail& d) { return d.field == field->as_string(); });
      EXPECT_TRUE(found) << "no detail for " << field->as_string() << "\n" << Describe(error);
    }
    if (const auto* issue = then.if_contains("issue")) {
      bool found = std::any_of(error.details.begin(), error.details.end(), [&](const auto& d) {
        return d.issue.find(issue->as_string()) != std::string::npos;
      });
      EXPECT_TRUE(found) << "no issue containing " << issue->as_string() << "\n" << Describe(error);
    }
    if (const auto* count = then.if_contains("details")) {
      EXPECT_EQ(static_cast<int64_t>(error.details.size()), count->to_number<int64_t>())
          << Describe(error);
    }
  }

  void ExpectEvents(const std::vector<DomainEvent>& decided, const boost::json::object& then) {
    std::vector<std::string> actual;
    for (const auto& e : decided) actual.push_back(e.type);
    std::vector<std::string> expected;
    for (const auto& t : then.at("events").as_array()) expected.emplace_back(t.as_string());
    EXPECT_EQ(actual, expected);
    if (const auto* data = then.if_contains("eventData")) {
      const auto& items = data->as_array();
      for (size_t i = 0; i < items.size() && i < decided.size(); ++i) {
        std::string why;
        EXPECT_TRUE(Contains(decided[i].data, items[i], decided[i].type, why)) << why;
      }
    }
  }

  // The log alone rebuilds the state: serialize every event, parse it back, replay.
  void ExpectReplayRebuildsState() {
    std::vector<DomainEvent> replayed;
    for (const auto& event : events_) {
      auto parsed = ParseJson(boost::json::serialize(DomainEventToJson(event)));
      ASSERT_TRUE(parsed.has_value());
      replayed.push_back(DomainEventFromJson(parsed->as_object()));
    }
    ContractState rebuilt = Replay(replayed);
    EXPECT_EQ(CanonicalJson(ContractToJson(rebuilt)), CanonicalJson(ContractToJson(state_)));
    EXPECT_EQ(rebuilt.version, events_.size());
  }

  const Case& case_;
  const Template& tmpl_;
  ContractState state_;
  TemplateVersion uploads_version_;  // a contract from uploads: its implicit roles
  std::vector<DomainEvent> events_;
  int clock_ = 0;
  int ids_ = 0;
};

class ContractCaseTest : public ::testing::TestWithParam<Case> {};

TEST_P(ContractCaseTest, Holds) {
  ASSERT_FALSE(GetParam().spec.empty()) << "cannot read " << GetParam().file;
  CaseRunner(GetParam()).Run();
}

INSTANTIATE_TEST_SUITE_P(Cases, ContractCaseTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return TestName(info.param.file, info.param.name);
                         });

}  // namespace
}  // namespace esign
