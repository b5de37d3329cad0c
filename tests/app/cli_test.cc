// The administrative command line end to end: `clients create` and `templates import` with no
// server running (the command opens the store), with a server running (through its admin
// socket), after a server was killed (stale socket), and the demo client of a first start.
#include <signal.h>
#include <sys/stat.h>

#include <fstream>

#include "base/base64.h"
#include "tests/app/contractd_fixture.h"

namespace esign::testing {
namespace {

using namespace std::chrono_literals;

class ContractdCliTest : public ContractdFixture {
 protected:
  // `organizations set` on the demo organization with `flags`, then the first start (which makes
  // the demo client) and a stop.
  void FirstStartAfterSetting(const std::vector<std::string>& flags) {
    std::vector<std::string> args{"organizations",    "set",   "--data-dir",
                                  data_dir_.string(), "--org", "org_demo"};
    args.insert(args.end(), flags.begin(), flags.end());
    ASSERT_EQ(RunContractd(args).exit_code, 0);
    auto server = StartServer();
    ASSERT_NE(port_, 0);
    StopServer(*server);
    ASSERT_NE(server->output().find("DEMO CLIENT"), std::string::npos) << server->output();
  }

  // A copy of an example template under another name, so that importing it changes the log.
  std::string TemplateFile(const std::string& name) {
    std::ifstream in(std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/mutual-nda.json");
    std::stringstream text;
    text << in.rdbuf();
    auto value = boost::json::parse(text.str());
    value.as_object()["name"] = name;
    std::filesystem::create_directories(data_dir_.string() + "-files");
    const std::string path = data_dir_.string() + "-files/nda.json";
    std::ofstream(path) << boost::json::serialize(value);
    return path;
  }
  void TearDown() override {
    std::filesystem::remove_all(data_dir_.string() + "-files");
    ContractdFixture::TearDown();
  }

  std::string TemplateName(const std::string& token) {
    auto response = HttpClient(port_).Get("/api/v1/templates/tpl_mutual_nda",
                                          {{"Authorization", "Bearer " + token}});
    EXPECT_EQ(response.status, 200) << response.body;
    return response.status == 200 ? std::string(response.Json().at("name").as_string()) : "";
  }
};

TEST_F(ContractdCliTest, CreatesAClientWithoutAServerThatTheServerThenAccepts) {
  const auto created = CreateClient("org_acme", "contracts:read,templates:read", "Acme CRM");
  const Credentials credentials = ParseCreated(created);
  auto printed = boost::json::parse(created.out).as_object();
  EXPECT_TRUE(credentials.client_id.starts_with("cli_"));
  EXPECT_TRUE(credentials.client_secret.starts_with("cs_"));
  EXPECT_EQ(printed.at("organizationId"), "org_acme");
  EXPECT_EQ(printed.at("permissions"),
            boost::json::parse(R"(["contracts:read","templates:read"])"));
  EXPECT_FALSE(std::filesystem::exists(data_dir_ / "admin.sock"));

  auto server = StartServer();
  ASSERT_NE(port_, 0);
  // A client existed already: no demo client.
  EXPECT_EQ(server->output().find("DEMO CLIENT"), std::string::npos) << server->output();
  const std::string token = TokenFor(credentials);
  EXPECT_FALSE(token.empty());
  EXPECT_FALSE(TemplateName(token).empty());
  StopServer(*server);
  EXPECT_FALSE(std::filesystem::exists(data_dir_ / "admin.sock"));
  EXPECT_EQ(CountEvents("client.created"), 1u);
}

TEST_F(ContractdCliTest, CreatesAClientThroughTheRunningServersAdminSocket) {
  auto server = StartServer();
  ASSERT_NE(port_, 0);
  struct stat info {};
  ASSERT_EQ(::stat((data_dir_ / "admin.sock").c_str(), &info), 0);
  EXPECT_TRUE(S_ISSOCK(info.st_mode));
  EXPECT_EQ(info.st_mode & 0777, 0600u);

  const Credentials credentials = ParseCreated(CreateClient("org_live", "contracts:create"));
  // Usable at once: the server's directory has it when the command returns.
  const std::string token = TokenFor(credentials);
  auto introspected = HttpClient(port_).Post(
      "/api/v1/auth/introspect", boost::json::serialize(boost::json::object{{"token", token}}),
      {{"Authorization", "Bearer " + token}});
  EXPECT_EQ(introspected.Json().at("organizationId"), "org_live");
  EXPECT_EQ(introspected.Json().at("scope"), "contracts:create");

  // Refusals through the socket: exit 2, the reason on stderr, nothing on stdout.
  for (const auto& bad :
       {CreateClient("org_live", "contracts:read,contracts:destroy"),
        CreateClient("org live", "contracts:read"), CreateClient("org_live", " , ")}) {
    EXPECT_EQ(bad.exit_code, 2) << bad.err;
    EXPECT_TRUE(bad.out.empty()) << bad.out;
    EXPECT_FALSE(bad.err.empty());
  }
  StopServer(*server);
  // The demo client and the one created here; nothing from the refusals.
  EXPECT_EQ(CountEvents("client.created"), 2u);
}

TEST_F(ContractdCliTest, UsageErrorsExitWith2AndWriteNothing) {
  const std::string dir = data_dir_.string();
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"clients", "create", "--data-dir", dir, "--org", "o", "--permissions",
            "contracts:read"},
           {"clients", "create", "--data-dir", dir, "--org", "o", "--name", "n"},
           {"clients", "create", "--data-dir", dir, "--permissions", "contracts:read", "--name",
            "n"},
           {"clients", "create", "--data-dir", dir, "--org", "o", "--permissions", "nope", "--name",
            "n"},
           {"clients", "create", "--data-dir", dir, "--bogus"},
           {"clients", "remove"},
           {"templates", "import", "--data-dir", dir},
           {"templates", "import", "--data-dir", dir, dir + "/missing.json"},
       }) {
    const auto result = RunContractd(args);
    EXPECT_EQ(result.exit_code, 2) << args[1] << " " << result.err;
    EXPECT_FALSE(result.err.empty());
    EXPECT_TRUE(result.out.empty());
  }
  EXPECT_EQ(CountEvents("client.created"), 0u);
}

TEST_F(ContractdCliTest, HelpListsTheCommandsAndEachCommandHasItsOwn) {
  for (const char* help : {"--help", "help"}) {
    const auto overview = RunContractd({help});
    EXPECT_EQ(overview.exit_code, 0) << overview.err;
    for (const char* name : {"  serve ", "  clients create ", "  templates import ",
                             "  organizations set ", "  providers add ", "  backup ", "  promote ",
                             "  dispatcher ", "  version ", "--listen"}) {
      EXPECT_NE(overview.out.find(name), std::string::npos) << name << "\n" << overview.out;
    }
  }
  const auto group = RunContractd({"clients", "--help"});
  EXPECT_EQ(group.exit_code, 0) << group.err;
  EXPECT_NE(group.out.find("clients create"), std::string::npos) << group.out;
  const auto create = RunContractd({"clients", "create", "--help"});
  EXPECT_EQ(create.exit_code, 0) << create.err;
  EXPECT_NE(create.out.find("--permissions"), std::string::npos) << create.out;

  const auto unknown = RunContractd({"foo"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(unknown.out.empty()) << unknown.out;
  EXPECT_NE(unknown.err.find("unknown command 'foo'"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("  clients create "), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("  backup "), std::string::npos) << unknown.err;
}

TEST_F(ContractdCliTest, VersionNamesTheCommitOfTheBuild) {
  for (const char* version : {"--version", "version"}) {
    const auto printed = RunContractd({version});
    EXPECT_EQ(printed.exit_code, 0) << printed.err;
    std::smatch match;
    ASSERT_TRUE(std::regex_match(
        printed.out, match,
        std::regex(R"(contractd [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{7,}|unknown)\)\n)")))
        << printed.out;
    // Built from this checkout: the commit is its HEAD (when git can tell).
    const auto head = RunProgram("/usr/bin/env", {"git", "-C", SOURCE_DIR, "rev-parse", "HEAD"});
    if (head.exit_code == 0 && match[1] != "unknown") {
      EXPECT_TRUE(head.out.starts_with(match[1].str())) << head.out << " " << printed.out;
    }
  }
}

TEST_F(ContractdCliTest, AnOrganizationsAddressIsCheckedAndSetOnce) {
  const std::string dir = data_dir_.string();
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"organizations", "set", "--data-dir", dir, "--org", "org_a", "--email", "nope"},
           {"organizations", "set", "--data-dir", dir, "--org", "not an id", "--email",
            "a@acme.example"},
           {"organizations", "set", "--data-dir", dir, "--org", "org_a", "--email",
            "a@acme.example", "--name", std::string(201, 'n')},
       }) {
    const auto result = RunContractd(args);
    EXPECT_EQ(result.exit_code, 2) << args[5] << " " << result.err;
    EXPECT_FALSE(result.err.empty());
  }
  EXPECT_EQ(CountEvents("organization.contact_set"), 0u);
  const std::vector<std::string> set = {
      "organizations", "set",     "--data-dir",         dir,      "--org",
      "org_a",         "--email", "legal@acme.example", "--name", "Acme"};
  EXPECT_EQ(RunContractd(set).exit_code, 0);
  EXPECT_EQ(RunContractd(set).exit_code, 0);  // the same again appends nothing
  EXPECT_EQ(CountEvents("organization.contact_set"), 1u);
}

TEST_F(ContractdCliTest, AnOrganizationsFrameOriginsAndBrandingAreCheckedAndSetOnce) {
  const std::string dir = data_dir_.string();
  const auto logo = data_dir_.parent_path() / ("logo-" + std::to_string(::getpid()) + ".png");
  {
    // A 1 x 1 PNG.
    std::ofstream out(logo, std::ios::binary);
    out << *Base64Decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+"
        "M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");
  }
  const std::vector<std::string> base = {"organizations", "set",  "--data-dir", dir,
                                         "--org",         "org_b"};
  const auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args = base;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  for (const auto& args : {base, with({"--frame-origin", "http://app.example.com"}),
                           with({"--accent-color", "#ffff00"}), with({"--logo", "/nonexistent"}),
                           with({"--frame-origin", "https://*.example.com"})}) {
    const auto result = RunContractd(args);
    EXPECT_EQ(result.exit_code, 2) << args.back() << " " << result.err;
    EXPECT_FALSE(result.err.empty());
  }
  EXPECT_EQ(CountEvents("organization.settings_set"), 0u);
  const auto set =
      with({"--frame-origin", "https://App.Example.com", "--frame-origin", "http://localhost:3000",
            "--accent-color", "#0B6E4F", "--logo", logo.string()});
  const auto done = RunContractd(set);
  ASSERT_EQ(done.exit_code, 0) << done.err;
  const auto json = boost::json::parse(done.out);
  EXPECT_EQ(boost::json::serialize(json.at("frameOrigins")),
            R"(["https://app.example.com","http://localhost:3000"])");
  EXPECT_EQ(json.at("accentColor"), "#0b6e4f");
  EXPECT_EQ(json.at("logoSha256").as_string().size(), 64u);
  EXPECT_EQ(RunContractd(set).exit_code, 0);  // the same again appends nothing
  EXPECT_EQ(CountEvents("organization.settings_set"), 1u);
  const auto cleared = RunContractd(with({"--frame-origin", "none", "--logo", ""}));
  ASSERT_EQ(cleared.exit_code, 0) << cleared.err;
  EXPECT_TRUE(boost::json::parse(cleared.out).at("frameOrigins").as_array().empty());
  EXPECT_EQ(boost::json::parse(cleared.out).at("accentColor"), "#0b6e4f");
  EXPECT_EQ(CountEvents("organization.settings_set"), 2u);
  std::filesystem::remove(logo);
}

TEST_F(ContractdCliTest, AStaleSocketOfAKilledServerDoesNotStandInTheWay) {
  auto server = StartServer();
  ASSERT_NE(port_, 0);
  server->Signal(SIGKILL);
  server->Wait(20s);
  ASSERT_TRUE(std::filesystem::exists(data_dir_ / "admin.sock"));

  const Credentials credentials = ParseCreated(CreateClient("org_after", "contracts:read"));
  auto restarted = StartServer();
  ASSERT_NE(port_, 0);
  EXPECT_FALSE(TokenFor(credentials).empty());
  EXPECT_EQ(RunContractd({"clients", "create", "--data-dir", data_dir_.string(), "--org", "o",
                          "--permissions", "contracts:read", "--name", "through the new socket"})
                .exit_code,
            0);
  StopServer(*restarted);
  EXPECT_EQ(CountEvents("client.created"), 3u);  // the demo client and two
}

TEST_F(ContractdCliTest, ImportsTemplatesWithAndWithoutAServer) {
  const std::string dir = data_dir_.string();
  const std::string file = TemplateFile("NDA, offline edition");
  auto first = RunContractd({"templates", "import", "--data-dir", dir, file});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(boost::json::parse(first.out),
            boost::json::parse(R"({"templateId":"tpl_mutual_nda","file":"nda.json",)"
                               R"("changed":true})"));
  auto again = RunContractd({"templates", "import", "--data-dir", dir, file});
  EXPECT_EQ(boost::json::parse(again.out).at("changed"), false);

  const Credentials credentials = ParseCreated(CreateClient("org_t", "templates:read"));
  // --templates points at an empty directory, so the start imports nothing over the file above.
  std::filesystem::create_directories(dir + "-files/none");
  auto server = StartServer({"--templates", dir + "-files/none"});
  ASSERT_NE(port_, 0);
  const std::string token = TokenFor(credentials);
  EXPECT_EQ(TemplateName(token), "NDA, offline edition");

  auto live =
      RunContractd({"templates", "import", "--data-dir", dir, TemplateFile("NDA, live edition")});
  ASSERT_EQ(live.exit_code, 0) << live.err;
  EXPECT_EQ(boost::json::parse(live.out).at("changed"), true);
  EXPECT_EQ(TemplateName(token), "NDA, live edition");

  std::ofstream(dir + "-files/broken.json") << R"({"templateId":"tpl_x"})";
  auto broken =
      RunContractd({"templates", "import", "--data-dir", dir, dir + "-files/broken.json"});
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_NE(broken.err.find("broken.json"), std::string::npos) << broken.err;
  EXPECT_TRUE(broken.out.empty());
  EXPECT_EQ(TemplateName(token), "NDA, live edition");
  StopServer(*server);
  EXPECT_EQ(CountEvents("template.imported"), 2u);
}

TEST_F(ContractdCliTest, PrintsTheDemoClientOnTheFirstStartOnly) {
  auto first = StartServer();
  ASSERT_NE(port_, 0);
  const std::string& out = first->output();
  ASSERT_NE(out.find("DEMO CLIENT"), std::string::npos) << out;
  std::smatch match;
  ASSERT_TRUE(
      std::regex_search(out, match,
                        std::regex(R"(curl -s -X POST http://127\.0\.0\.1:(\d+)/api/v1/auth/)"
                                   R"(machine-token .* -d '(\{.*\})')")))
      << out;
  EXPECT_EQ(std::stoi(match[1]), port_);
  const auto body = boost::json::parse(match[2].str()).as_object();
  const Credentials demo{std::string(body.at("clientId").as_string()),
                         std::string(body.at("clientSecret").as_string())};
  const std::string token = TokenFor(demo);
  auto introspected = HttpClient(port_).Post(
      "/api/v1/auth/introspect", boost::json::serialize(boost::json::object{{"token", token}}),
      {{"Authorization", "Bearer " + token}});
  EXPECT_EQ(introspected.Json().at("organizationId"), "org_demo");
  EXPECT_EQ(introspected.Json().at("scope"),
            "contracts:read contracts:create contracts:update contracts:send templates:read "
            "templates:write signing:manage evidence:write webhooks:manage organization:manage");
  // Its organization has a name for its mails and documents to say.
  auto organization =
      HttpClient(port_).Get("/api/v1/organization", {{"Authorization", "Bearer " + token}});
  ASSERT_EQ(organization.status, 200) << organization.body;
  EXPECT_EQ(organization.Json().at("name"), "Demo organization") << organization.body;
  StopServer(*first);

  auto second = StartServer();
  ASSERT_NE(port_, 0);
  EXPECT_FALSE(TokenFor(demo).empty());
  // No demo client again, but the command line that makes a client like it, which works as
  // printed.
  std::smatch hint;
  const std::string second_out = second->output();
  ASSERT_TRUE(
      std::regex_search(second_out, hint,
                        std::regex(R"(\ncontractd clients create --data-dir (\S+) )"
                                   R"(--org (\S+) --permissions (\S+) --name '([^']+)'\n)")))
      << second_out;
  EXPECT_EQ(hint[1].str(), data_dir_.string());
  EXPECT_EQ(hint[2].str(), "org_demo");
  const auto made =
      RunContractd({"clients", "create", "--data-dir", hint[1].str(), "--org", hint[2].str(),
                    "--permissions", hint[3].str(), "--name", hint[4].str()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  EXPECT_EQ(boost::json::parse(made.out).at("permissions").as_array().size(), 10u) << made.out;
  StopServer(*second);
  EXPECT_EQ(second->output().find("DEMO CLIENT"), std::string::npos) << second->output();
  EXPECT_EQ(CountEvents("client.created"), 2u);  // the demo client, and the one made as printed
  EXPECT_EQ(CountEvents("organization.contact_set"), 1u);
}

TEST_F(ContractdCliTest, TheDemoOrganizationKeepsTheContactGivenBeforeTheFirstStart) {
  // An address without a name: the first start names it and keeps the address.
  FirstStartAfterSetting({"--email", "legal@demo.example"});
  std::vector<boost::json::object> contacts;
  for (const auto& event : StoredEvents()) {
    if (event.type == "organization.contact_set") {
      contacts.push_back(boost::json::parse(event.data).as_object());
    }
  }
  ASSERT_EQ(contacts.size(), 2u);
  EXPECT_EQ(contacts[1].at("email"), "legal@demo.example");
  EXPECT_EQ(contacts[1].at("name"), "Demo organization");
}

TEST_F(ContractdCliTest, TheDemoOrganizationKeepsANameGivenBeforeTheFirstStart) {
  FirstStartAfterSetting({"--name", "Acme GmbH"});
  EXPECT_EQ(CountEvents("organization.contact_set"), 1u);
}

TEST_F(ContractdCliTest, NoDemoClientWhenTurnedOff) {
  auto server = StartServer({"--demo-client=false"});
  ASSERT_NE(port_, 0);
  StopServer(*server);
  EXPECT_EQ(server->output().find("DEMO CLIENT"), std::string::npos);
  EXPECT_EQ(CountEvents("client.created"), 0u);
}

}  // namespace
}  // namespace esign::testing
