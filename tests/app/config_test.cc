// Parsing the command line: serve stays the default with its flags, the two administrative
// commands, their environment equivalents, and usage errors.
#include "app/config.h"
#include "app/memory_budget.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace esign::app {
namespace {

Result<Command> Parse(std::vector<std::string> args) {
  args.insert(args.begin(), "contractd");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return ParseCommandLine(static_cast<int>(argv.size()), argv.data());
}

TEST(ConfigTest, ServeIsTheDefaultWithItsFlags) {
  auto command = Parse({"--listen", "127.0.0.1:9999", "--data-dir", "/tmp/x"});
  ASSERT_TRUE(command);
  EXPECT_EQ(command->name, "serve");
  EXPECT_EQ(command->serve.server.port, 9999);
  EXPECT_EQ(command->serve.data_dir, "/tmp/x");
  EXPECT_EQ(command->serve.token_lifetime_seconds, 3600);
  EXPECT_TRUE(command->serve.demo_client);

  command = Parse({"serve", "--token-lifetime", "60", "--demo-client=false"});
  ASSERT_TRUE(command);
  EXPECT_EQ(command->serve.token_lifetime_seconds, 60);
  EXPECT_FALSE(command->serve.demo_client);
  EXPECT_FALSE(Parse({"serve", "--token-lifetime", "0"}));
  EXPECT_FALSE(Parse({"serve", "--listen", "nonsense"}));
}

TEST(ConfigTest, ClientsCreate) {
  auto command = Parse({"clients", "create", "--data-dir", "/d", "--org", "org_1", "--permissions",
                        "contracts:read, contracts:send,,", "--name", "CRM sync"});
  ASSERT_TRUE(command) << command.error().message;
  EXPECT_EQ(command->name, "clients create");
  EXPECT_EQ(command->data_dir, "/d");
  EXPECT_EQ(command->clients_create.organization_id, "org_1");
  EXPECT_EQ(command->clients_create.name, "CRM sync");
  EXPECT_EQ(command->clients_create.permissions,
            (std::vector<std::string>{"contracts:read", "contracts:send"}));

  for (const auto& missing : std::vector<std::vector<std::string>>{
           {"clients", "create", "--permissions", "p", "--name", "n"},
           {"clients", "create", "--org", "o", "--name", "n"},
           {"clients", "create", "--org", "o", "--permissions", "p"},
           {"clients"},
           {"clients", "drop"},
           {"templates", "export"},
           {"bogus"},
       }) {
    auto result = Parse(missing);
    ASSERT_FALSE(result) << missing.back();
    EXPECT_EQ(result.error().code, ErrorCode::kValidationFailed);
  }
}

TEST(ConfigTest, TemplatesImportTakesFiles) {
  auto command = Parse({"templates", "import", "--data-dir", "/d", "a.json", "b.json"});
  ASSERT_TRUE(command);
  EXPECT_EQ(command->name, "templates import");
  EXPECT_EQ(command->templates_import.files, (std::vector<std::string>{"a.json", "b.json"}));
  EXPECT_FALSE(Parse({"templates", "import", "--data-dir", "/d"}));
}

TEST(ConfigTest, EnvironmentFillsWhatFlagsLeaveOut) {
  ::setenv("CONTRACTD_DATA_DIR", "/from/env", 1);
  ::setenv("CONTRACTD_ORG", "org_env", 1);
  auto command = Parse({"clients", "create", "--permissions", "contracts:read", "--name", "n"});
  auto flagged = Parse({"clients", "create", "--data-dir", "/flag", "--permissions",
                        "contracts:read", "--name", "n"});
  ::unsetenv("CONTRACTD_DATA_DIR");
  ::unsetenv("CONTRACTD_ORG");
  ASSERT_TRUE(command);
  EXPECT_EQ(command->data_dir, "/from/env");
  EXPECT_EQ(command->clients_create.organization_id, "org_env");
  ASSERT_TRUE(flagged);
  EXPECT_EQ(flagged->data_dir, "/flag");
}

TEST(ConfigTest, BooleanFlagsWorkBareWithAValueOrFromTheEnvironment) {
  auto bare = Parse({"serve", "--webhook-allow-loopback", "--listen", "127.0.0.1:9"});
  ASSERT_TRUE(bare) << bare.error().message;
  EXPECT_TRUE(bare->serve.webhook_allow_loopback);
  EXPECT_EQ(bare->serve.server.port, 9);
  auto last = Parse({"serve", "--access-log=false", "--webhook-allow-loopback"});
  ASSERT_TRUE(last) << last.error().message;
  EXPECT_TRUE(last->serve.webhook_allow_loopback);
  EXPECT_FALSE(last->serve.access_log);

  auto spaced = Parse({"serve", "--webhook-allow-loopback", "true", "--access-log", "false",
                       "--demo-client", "no"});
  ASSERT_TRUE(spaced) << spaced.error().message;
  EXPECT_TRUE(spaced->serve.webhook_allow_loopback);
  EXPECT_FALSE(spaced->serve.access_log);
  EXPECT_FALSE(spaced->serve.demo_client);
  EXPECT_FALSE(Parse({"serve", "--webhook-allow-loopback", "maybe"}));
  EXPECT_FALSE(Parse({"serve", "--webhook-allow-loopback=maybe"}));

  auto dispatcher = Parse({"dispatcher", "--kafka-brokers", "k:9092", "--secrets-dir", "/s",
                           "--webhook-allow-loopback"});
  ASSERT_TRUE(dispatcher) << dispatcher.error().message;
  EXPECT_TRUE(dispatcher->dispatcher.webhook_allow_loopback);

  ::setenv("CONTRACTD_WEBHOOK_ALLOW_LOOPBACK", "true", 1);
  ::setenv("CONTRACTD_ACCESS_LOG", "false", 1);
  auto from_env = Parse({"serve"});
  ::unsetenv("CONTRACTD_WEBHOOK_ALLOW_LOOPBACK");
  ::unsetenv("CONTRACTD_ACCESS_LOG");
  ASSERT_TRUE(from_env) << from_env.error().message;
  EXPECT_TRUE(from_env->serve.webhook_allow_loopback);
  EXPECT_FALSE(from_env->serve.access_log);
}

TEST(ConfigTest, DispatcherNeedsTheClusterAndTheSecrets) {
  auto command = Parse({"dispatcher", "--kafka-brokers", "k1:9092,k2:9092", "--secrets-dir",
                        "/srv/contractd/webhook-secrets", "--data-dir", "/srv/d1"});
  ASSERT_TRUE(command) << command.error().message;
  EXPECT_EQ(command->name, "dispatcher");
  EXPECT_EQ(command->dispatcher.kafka_brokers, "k1:9092,k2:9092");
  EXPECT_EQ(command->dispatcher.secrets_dir, "/srv/contractd/webhook-secrets");
  EXPECT_EQ(command->dispatcher.data_dir, "/srv/d1");
  EXPECT_FALSE(command->dispatcher.webhook_allow_loopback);
  for (const auto& bad : std::vector<std::vector<std::string>>{
           {"dispatcher", "--secrets-dir", "/s"},
           {"dispatcher", "--kafka-brokers", "k:9092"},
           {"dispatcher", "--kafka-brokers", "k:9092", "--secrets-dir", "/s", "--listen", "x"},
       }) {
    auto result = Parse(bad);
    ASSERT_FALSE(result) << bad.back();
    EXPECT_EQ(result.error().code, ErrorCode::kValidationFailed);
  }
}

TEST(ConfigTest, ExternalDispatchersNeedAClusterOutsideTheService) {
  auto command = Parse({"--webhook-dispatcher", "external", "--kafka-brokers", "k:9092"});
  ASSERT_TRUE(command) << command.error().message;
  EXPECT_TRUE(command->serve.external_dispatchers);
  EXPECT_FALSE(Parse({})->serve.external_dispatchers);
  // The embedded cluster ends with the service, and the dispatchers' work with it.
  auto embedded = Parse({"--webhook-dispatcher", "external"});
  ASSERT_FALSE(embedded);
  EXPECT_EQ(embedded.error().details.at(0).field, "webhook-dispatcher");
  EXPECT_FALSE(Parse({"--webhook-dispatcher", "elsewhere", "--kafka-brokers", "k:9092"}));
}

TEST(ConfigTest, TheReplicatedLogNeedsAClusterAndAStandbyNeedsTheReplicatedLog) {
  auto writer = Parse({"--replication", "kafka", "--kafka-brokers", "k:9092"});
  ASSERT_TRUE(writer) << writer.error().message;
  EXPECT_TRUE(writer->serve.replicated);
  EXPECT_FALSE(writer->serve.standby);
  EXPECT_EQ(writer->serve.log_shard, "main");
  auto standby = Parse({"--replication", "kafka", "--kafka-brokers", "k:9092", "--standby",
                        "--auto-promote", "--log-shard", "eu-1"});
  ASSERT_TRUE(standby) << standby.error().message;
  EXPECT_TRUE(standby->serve.standby);
  EXPECT_TRUE(standby->serve.auto_promote);
  EXPECT_EQ(standby->serve.log_shard, "eu-1");
  EXPECT_FALSE(Parse({})->serve.replicated);

  const auto field_of = [](const Result<Command>& refused) {
    return refused ? std::string("accepted") : refused.error().details.at(0).field;
  };
  // The embedded cluster ends with the process, and the log with it.
  EXPECT_EQ(field_of(Parse({"--replication", "kafka"})), "replication");
  EXPECT_EQ(field_of(Parse({"--replication", "raft", "--kafka-brokers", "k:9092"})), "replication");
  EXPECT_EQ(field_of(Parse({"--standby", "--kafka-brokers", "k:9092"})), "standby");
  EXPECT_EQ(
      field_of(Parse({"--replication", "kafka", "--kafka-brokers", "k:9092", "--auto-promote"})),
      "auto-promote");
  EXPECT_EQ(field_of(Parse(
                {"--replication", "kafka", "--kafka-brokers", "k:9092", "--log-shard", "EU/1"})),
            "log-shard");
}

TEST(ConfigTest, PromoteNamesTheDataDirectory) {
  auto command = Parse({"promote", "--data-dir", "/srv/b"});
  ASSERT_TRUE(command) << command.error().message;
  EXPECT_EQ(command->name, "promote");
  EXPECT_EQ(command->data_dir, "/srv/b");
}

TEST(ConfigTest, TheClockOffsetIsOptionalAndBounded) {
  EXPECT_FALSE(Parse({})->serve.clock_offset_seconds);
  auto zero = Parse({"--clock-offset", "0"});
  ASSERT_TRUE(zero) << zero.error().message;
  EXPECT_EQ(zero->serve.clock_offset_seconds, 0);
  for (const char* bad : {"-1", "3153600001", "soon"}) {
    auto refused = Parse({"--clock-offset", bad});
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().code, ErrorCode::kValidationFailed) << bad;
  }
}

TEST(ConfigTest, MailFlagsAreCheckedBeforeAnythingStarts) {
  auto mail = Parse({"--smtp-url", "smtps://mail.example.com", "--smtp-user", "alice",
                     "--smtp-password-file", "/run/secret", "--mail-from", "c@acme.example"});
  ASSERT_TRUE(mail) << mail.error().message;
  EXPECT_EQ(mail->serve.smtp_url, "smtps://mail.example.com");
  EXPECT_EQ(mail->serve.mail_from, "c@acme.example");
  EXPECT_EQ(mail->serve.mail_limit_per_organization, 1000);
  EXPECT_EQ(mail->serve.mail_limit_per_recipient, 60);
  auto limits = Parse({"--mail-limit-per-organization", "0", "--mail-limit-per-recipient", "5"});
  ASSERT_TRUE(limits) << limits.error().message;
  EXPECT_EQ(limits->serve.mail_limit_per_organization, 0);
  EXPECT_EQ(limits->serve.mail_limit_per_recipient, 5);
  for (const auto& [args, field] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--smtp-url", "http://mail.example.com"}, "smtp-url"},
           {{"--mail-from", "not an address"}, "mail-from"},
           {{"--mail-from", "adm\xC3\xADn@acme.example"}, "mail-from"},
           {{"--mail-limit-per-organization=-1"}, "mail-limit-per-organization"},
           {{"--mail-limit-per-recipient=-1"}, "mail-limit-per-recipient"},
           {{"--smtp-user", "alice"}, "smtp-user"},
           {{"--smtp-password-file", "/run/secret"}, "smtp-user"}}) {
    auto refused = Parse(args);
    ASSERT_FALSE(refused) << args[0];
    EXPECT_EQ(refused.error().code, ErrorCode::kValidationFailed) << args[0];
    EXPECT_EQ(refused.error().details.at(0).field, field) << args[0];
  }
}

TEST(ConfigTest, UploadFlagsAreBounded) {
  auto defaults = Parse({});
  ASSERT_TRUE(defaults) << defaults.error().message;
  EXPECT_EQ(defaults->serve.document_limit, 25ull << 20);
  EXPECT_EQ(defaults->serve.document_uploads_per_hour, 100);
  auto set = Parse({"--document-limit", "1048576", "--document-uploads-per-hour", "5"});
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(set->serve.document_limit, 1048576u);
  EXPECT_EQ(set->serve.document_uploads_per_hour, 5);
  for (const auto& [args, field] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--document-limit", "1023"}, "document-limit"},
           {{"--document-limit", "104857601"}, "document-limit"},
           {{"--document-uploads-per-hour", "0"}, "document-uploads-per-hour"},
           {{"--document-uploads-per-hour", "100001"}, "document-uploads-per-hour"}}) {
    auto refused = Parse(args);
    ASSERT_FALSE(refused) << args[1];
    EXPECT_EQ(refused.error().code, ErrorCode::kValidationFailed) << args[1];
    EXPECT_EQ(refused.error().details.at(0).field, field) << args[1];
  }
}

TEST(ConfigTest, TheMemoryBudgetIsBoundedAndDividedWithRoomForTheRest) {
  auto defaults = Parse({});
  ASSERT_TRUE(defaults) << defaults.error().message;
  EXPECT_EQ(defaults->serve.memory_budget_mb, 1024u);
  auto set = Parse({"--memory-budget-mb", "512"});
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(set->serve.memory_budget_mb, 512u);
  for (const std::string value : {"255", "1048577", "0"}) {
    auto refused = Parse({"--memory-budget-mb", value});
    ASSERT_FALSE(refused) << value;
    EXPECT_EQ(refused.error().code, ErrorCode::kValidationFailed) << value;
    EXPECT_EQ(refused.error().details.at(0).field, "memory-budget-mb") << value;
  }

  const size_t budget = size_t{1024} << 20;
  const MemoryShares shares = SplitMemoryBudget(budget);
  EXPECT_EQ(shares.storage_bytes, size_t{512} << 20);
  EXPECT_EQ(shares.write_buffer_bytes, size_t{256} << 20);
  EXPECT_LT(shares.write_buffer_bytes, shares.storage_bytes);  // memtables are inside the cache
  const size_t held =
      shares.storage_bytes + shares.ledger_node_bytes +
      shares.stream_versions * kStreamVersionBytes + shares.contract_states * kContractStateBytes +
      shares.relay_controllers * kRelayControllerBytes + shares.relay_in_flight_bytes;
  // What grows with the data takes about two thirds; a third is left for the rest.
  EXPECT_LE(held, budget * 7 / 10);
  EXPECT_GE(shares.stream_versions, 200'000u);
  EXPECT_GE(shares.contract_states, 32'768u);
  EXPECT_GE(shares.relay_controllers, 100'000u);
}

TEST(ConfigTest, TimestampAuthorityFlagsAreCheckedBeforeAnythingStarts) {
  auto none = Parse({});
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_TRUE(none->serve.tsa_url.empty());
  auto tsa = Parse({"--tsa-url", "https://tsa.example.com/", "--tsa-ca-file", "/etc/tsa.pem"});
  ASSERT_TRUE(tsa) << tsa.error().message;
  EXPECT_EQ(tsa->serve.tsa_url, "https://tsa.example.com/");
  EXPECT_EQ(tsa->serve.tsa_ca_file, "/etc/tsa.pem");
  EXPECT_EQ(tsa->serve.tsa_timeout_ms, 5000);
  auto quick = Parse({"--tsa-url", "http://tsa.example.com/", "--tsa-timeout-ms", "100"});
  ASSERT_TRUE(quick) << quick.error().message;
  EXPECT_EQ(quick->serve.tsa_timeout_ms, 100);
  for (const auto& [args, field] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--tsa-url", "ftp://tsa.example.com"}, "tsa-url"},
           {{"--tsa-ca-file", "/etc/tsa.pem"}, "tsa-ca-file"},
           {{"--tsa-timeout-ms", "99"}, "tsa-timeout-ms"},
           {{"--tsa-timeout-ms", "60001"}, "tsa-timeout-ms"}}) {
    auto refused = Parse(args);
    ASSERT_FALSE(refused) << args[0];
    EXPECT_EQ(refused.error().code, ErrorCode::kValidationFailed) << args[0];
    EXPECT_EQ(refused.error().details.at(0).field, field) << args[0];
  }
}

TEST(ConfigTest, OrganizationsSetNeedsTheOrganizationAndAnAddress) {
  auto set = Parse({"organizations", "set", "--org", "org_a", "--email", ""});
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(set->name, "organizations set");
  EXPECT_EQ(set->organizations_set.email, "");
  EXPECT_FALSE(Parse({"organizations", "set", "--email", "a@b.example"}));
  EXPECT_FALSE(Parse({"organizations", "set", "--org", "org_a"}));
  EXPECT_FALSE(Parse({"organizations", "remove"}));
}

TEST(ConfigTest, HelpForEachCommand) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--help"},
                                                                {"clients", "create", "--help"},
                                                                {"templates", "import", "-h"},
                                                                {"dispatcher", "--help"}}) {
    auto command = Parse(args);
    ASSERT_TRUE(command);
    EXPECT_EQ(command->name, "help");
    EXPECT_NE(command->usage.find("usage: contractd"), std::string::npos);
  }
}

TEST(ConfigTest, TheHelpListsEveryCommandThenTheServeFlags) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--help"}, {"help"}, {"-h"}}) {
    auto command = Parse(args);
    ASSERT_TRUE(command) << command.error().message;
    EXPECT_EQ(command->name, "help");
    const std::string& usage = command->usage;
    size_t previous = 0;
    for (const char* name : {"serve", "clients create", "templates import", "organizations set",
                             "providers add", "backup", "promote", "dispatcher", "version"}) {
      const size_t at = usage.find(std::string("  ") + name + " ");
      EXPECT_NE(at, std::string::npos) << name << "\n" << usage;
      EXPECT_GT(at, previous) << name;
      previous = at;
    }
    EXPECT_GT(usage.find("--listen"), previous) << usage;
  }
}

TEST(ConfigTest, EachGroupAndCommandHasItsHelp) {
  auto group = Parse({"clients", "--help"});
  ASSERT_TRUE(group) << group.error().message;
  EXPECT_EQ(group->name, "help");
  EXPECT_NE(group->usage.find("clients create"), std::string::npos) << group->usage;
  EXPECT_EQ(group->usage.find("templates import"), std::string::npos) << group->usage;

  for (const auto& args : std::vector<std::vector<std::string>>{{"clients", "create", "--help"},
                                                                {"help", "clients", "create"}}) {
    auto command = Parse(args);
    ASSERT_TRUE(command) << command.error().message;
    EXPECT_EQ(command->name, "help");
    EXPECT_NE(command->usage.find("--permissions"), std::string::npos) << command->usage;
  }
  for (const auto& args : std::vector<std::vector<std::string>>{{"organizations", "--help"},
                                                                {"backup", "--help"},
                                                                {"promote", "--help"},
                                                                {"providers", "add", "-h"},
                                                                {"serve", "--help"},
                                                                {"help", "backup"}}) {
    auto command = Parse(args);
    ASSERT_TRUE(command) << args[0] << ": " << command.error().message;
    EXPECT_EQ(command->name, "help") << args[0];
    EXPECT_NE(command->usage.find("usage: contractd"), std::string::npos) << command->usage;
  }
}

TEST(ConfigTest, AnUnknownCommandIsAnsweredWithTheListOfCommands) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"foo"}, {"clients", "remove"}, {"help", "foo"}, {"version", "--bogus"}}) {
    auto command = Parse(args);
    if (args.front() == "version") {
      // --version and version take nothing else into account.
      ASSERT_TRUE(command);
      EXPECT_EQ(command->name, "version");
      continue;
    }
    ASSERT_FALSE(command) << args.front();
    EXPECT_NE(command.error().message.find("unknown command '"), std::string::npos)
        << command.error().message;
    EXPECT_NE(command.error().message.find("  clients create "), std::string::npos)
        << command.error().message;
    EXPECT_NE(command.error().message.find("  dispatcher "), std::string::npos);
  }
  auto bare_group = Parse({"clients"});
  ASSERT_FALSE(bare_group);
  EXPECT_NE(bare_group.error().message.find("clients create"), std::string::npos)
      << bare_group.error().message;
}

TEST(ConfigTest, VersionIsACommandAndAFlag) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--version"}, {"version"}}) {
    auto command = Parse(args);
    ASSERT_TRUE(command);
    EXPECT_EQ(command->name, "version");
  }
}

}  // namespace
}  // namespace esign::app
