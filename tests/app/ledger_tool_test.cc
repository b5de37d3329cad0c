// contract-ledger end to end: a data directory written by contractd (a client, a contract, and
// two contracts sent and reminded, one of them voided) and a signed tree head over it, then
// every subcommand run as a child process on it, or on a copy with one byte changed.
#include <pty.h>
#include <stdio.h>
#include <sys/wait.h>

#include <boost/json.hpp>
#include <fstream>
#include <functional>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "documents/service_certificate.h"
#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"
#include "eventstore/ledger_key.h"
#include "eventstore/proof_bundle.h"
#include "eventstore/store_keys.h"
#include "eventstore/tree_head.h"
#include "tests/app/contractd_fixture.h"
#include "tests/app/raw_db.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

std::string Quote(const std::string& arg) { return "'" + arg + "'"; }

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

size_t Lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

// Runs contract-ledger with `args`; stdout captured, stderr through the file `err`.
CommandResult RunLedger(const std::vector<std::string>& args, const std::filesystem::path& err) {
  std::string line = Quote(LEDGER_BINARY);
  for (const std::string& arg : args) line += " " + Quote(arg);
  line += " 2>" + Quote(err.string());
  ShellResult run = RunShell(line);
  CommandResult result;
  result.exit_code = run.exit_code;
  result.out = std::move(run.out);
  result.err = ReadText(err);
  return result;
}

class LedgerToolTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = std::filesystem::temp_directory_path() / ("ledger-" + std::to_string(::getpid()));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
    data_dir_ = root_ / "data";
    auto created = RunContractd({"clients", "create", "--data-dir", data_dir_.string(), "--org",
                                 "org_a", "--permissions",
                                 "contracts:read,contracts:create,contracts:update,contracts:send",
                                 "--name", "ledger test"});
    ASSERT_EQ(created.exit_code, 0) << created.err;
    auto credentials = boost::json::parse(created.out).as_object();

    ChildProcess server(std::vector<std::string>{CONTRACTD_BINARY, "serve", "--data-dir",
                                                 data_dir_.string(), "--listen", "127.0.0.1:0"});
    auto line = server.WaitForLine("listening on", std::chrono::seconds(60));
    ASSERT_TRUE(line) << server.output();
    std::smatch match;
    ASSERT_TRUE(std::regex_search(*line, match, std::regex(R"(127\.0\.0\.1:(\d+))")));
    HttpClient client(static_cast<uint16_t>(std::stoi(match[1])));
    auto token = client.Post("/api/v1/auth/machine-token",
                             boost::json::serialize(boost::json::object{
                                 {"clientId", credentials.at("clientId")},
                                 {"clientSecret", credentials.at("clientSecret")}}));
    ASSERT_EQ(token.status, 200) << token.body;
    const std::map<std::string, std::string> auth{
        {"Authorization", "Bearer " + std::string(token.Json().at("accessToken").as_string())}};
    const std::string body =
        R"({"title":"Ledger","templateId":"tpl_mutual_nda","data":{"parties":{
"partyAName":"Acme GmbH","partyAAddress":"Hauptstrasse 1, Berlin","partyBName":"Globex Ltd",
"partyBAddress":"1 High Street, London"},"terms":{"effectiveDate":"2026-12-01",
"purpose":"Evaluating a joint venture","termMonths":24,"confidentialityYears":5,
"governingLaw":"England and Wales"}},"participants":[{"action":"sign",
"recipientType":"individual","executionChannel":"platform_hosted","name":"Ada Lovelace",
"email":"ada@acme.example"}]})";
    // Two contracts sent and reminded, one of them voided, so the replay covers the due timers
    // and the lifecycle's ends; written first, so that the last event stays the data update the
    // tests below change.
    boost::json::object sendable = boost::json::parse(body).as_object();
    sendable["participants"] = boost::json::parse(
        R"([{"action":"sign","recipientType":"individual","executionChannel":"platform_hosted",
"name":"Ada Lovelace","email":"ada@acme.example","templateRoleId":"party_a_signatory"},
{"action":"sign","recipientType":"individual","executionChannel":"integrator_managed",
"name":"Grace Hopper","email":"grace@globex.example","templateRoleId":"party_b_signatory"}])");
    sendable["sendNow"] = true;
    for (const bool voiding : {true, false}) {
      auto sent = client.Post("/api/v1/contracts", boost::json::serialize(sendable), auth);
      ASSERT_EQ(sent.status, 201) << sent.body;
      ASSERT_EQ(sent.Json().at("status").as_string(), "sent");
      const std::string path = "/api/v1/contracts/" + std::string(sent.Json().at("id").as_string());
      auto reminded = client.Post(path + "/remind", "{}", auth);
      ASSERT_EQ(reminded.status, 200) << reminded.body;
      if (!voiding) continue;
      auto voided = client.Post(path + "/void", R"({"reason":"Replaced by a new draft"})", auth);
      ASSERT_EQ(voided.status, 200) << voided.body;
      EXPECT_EQ(voided.Json().at("status").as_string(), "voided");
    }
    auto contract = client.Post("/api/v1/contracts", body, auth);
    ASSERT_EQ(contract.status, 201) << contract.body;
    contract_id_ = std::string(contract.Json().at("id").as_string());
    std::map<std::string, std::string> if_match = auth;
    if_match["If-Match"] = "\"1\"";
    auto data = client.Put("/api/v1/contracts/" + contract_id_ + "/data",
                           R"({"fieldValues":[{"key":"purpose","value":"Ledger second purpose"}]})",
                           if_match);
    ASSERT_EQ(data.status, 200) << data.body;

    // Read-only: the tool works beside the running service, which holds the database's lock.
    auto beside = Run({"verify", "--data-dir", data_dir_.string()});
    EXPECT_EQ(beside.exit_code, 0) << beside.out << beside.err;

    server.Signal(SIGTERM);
    ASSERT_EQ(server.Wait(std::chrono::seconds(30)), 0) << server.output();

    eventstore::RocksStoreOptions options;
    options.data_dir = data_dir_.string();
    auto store = eventstore::RocksEventStore::Open(options);
    ASSERT_TRUE(store) << store.error().message;
    ASSERT_TRUE((*store)->ledger().SignTreeHead());
    size_ = (*store)->Size();
    (*store)->Close();
  }

  static void TearDownTestSuite() {
    if (std::getenv("LEDGER_TEST_KEEP") == nullptr) std::filesystem::remove_all(root_);
  }

  static CommandResult Run(const std::vector<std::string>& args) {
    return RunLedger(args, root_ / "stderr");
  }

  static void ExpectEarlierTrigramRowsGiveWayAtStart(const std::string& earlier);

  // A copy of the data directory, for tests that change it.
  static std::filesystem::path CopyData(const std::string& name) {
    const std::filesystem::path copy = root_ / name;
    std::filesystem::remove_all(copy);
    std::filesystem::copy(data_dir_, copy, std::filesystem::copy_options::recursive);
    return copy;
  }

  // The service's key, from the data directory's store (what GET /api/v1/ledger/public-key
  // serves).
  static std::string ServiceKeyPem() {
    eventstore::RocksStoreOptions options;
    options.data_dir = data_dir_.string();
    options.read_only = true;
    auto store = eventstore::RocksEventStore::Open(options);
    EXPECT_TRUE(store) << store.error().message;
    return store ? (*store)->ledger().PublicKeyPem() : std::string();
  }

  static std::filesystem::path ProveToFile(const std::string& name) {
    auto proved = Run({"prove", "--data-dir", data_dir_.string(), contract_id_});
    EXPECT_EQ(proved.exit_code, 0) << proved.err;
    const std::filesystem::path file = root_ / name;
    WriteText(file, proved.out);
    return file;
  }

  static inline std::filesystem::path root_;
  static inline std::filesystem::path data_dir_;
  static inline std::string contract_id_;
  static inline uint64_t size_ = 0;
};

TEST_F(LedgerToolTest, UsageErrorsExitTwoAndHelpNamesTheExitCodes) {
  EXPECT_EQ(Run({}).exit_code, 2);
  EXPECT_EQ(Run({"frobnicate"}).exit_code, 2);
  EXPECT_EQ(Run({"verify"}).exit_code, 2);
  EXPECT_EQ(Run({"prove", "--data-dir", data_dir_.string()}).exit_code, 2);
  auto help = Run({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("3 I/O error"), std::string::npos) << help.out;
  EXPECT_EQ(Run({"verify", "--help"}).exit_code, 0);
}

TEST_F(LedgerToolTest, AMissingDataDirectoryIsAnIoErrorAndCreatesNothing) {
  const std::filesystem::path missing = root_ / "missing";
  EXPECT_EQ(Run({"verify", "--data-dir", missing.string()}).exit_code, 3);
  EXPECT_FALSE(std::filesystem::exists(missing));
}

TEST_F(LedgerToolTest, VerifyPassesAndSummarizes) {
  auto verified = Run({"verify", "--data-dir", data_dir_.string()});
  EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("events: " + std::to_string(size_)), std::string::npos)
      << verified.out;
  EXPECT_NE(verified.out.find("heads checked: 1"), std::string::npos) << verified.out;
}

TEST_F(LedgerToolTest, AChangedStoredEventFailsVerifyNamingItsPosition) {
  const std::filesystem::path copy = CopyData("tampered");
  const uint64_t position = size_ - 1;
  // The database opened directly, as someone with access to the disk could.
  const auto key = eventstore::EncodeU64(position);
  ChangeStoredValue(copy, "events", std::string_view(key.data(), key.size()),
                    [](std::string& value) {
                      const size_t at = value.find("Ledger second purpose");
                      ASSERT_NE(at, std::string::npos) << value;
                      value[at] = 'l';
                    });
  auto verified = Run({"verify", "--data-dir", copy.string()});
  EXPECT_EQ(verified.exit_code, 1) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("first bad position: " + std::to_string(position)), std::string::npos)
      << verified.out;
}

TEST_F(LedgerToolTest, AMalformedStoredLeafFailsVerifyAtItsPositionOnly) {
  ASSERT_GE(size_, 3u);
  const std::filesystem::path copy = CopyData("bad-leaf");
  const auto key = eventstore::EncodeNodeKey({0, 1});
  ChangeStoredValue(copy, "ledger_nodes", std::string_view(key.data(), key.size()),
                    [](std::string& value) { value.pop_back(); });
  auto verified = Run({"verify", "--data-dir", copy.string()});
  EXPECT_EQ(verified.exit_code, 1) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("problem: position 1: no leaf in the ledger: a stored leaf is not 32 "
                              "bytes"),
            std::string::npos)
      << verified.out;
  // The positions after it are read as usual.
  size_t problems = 0;
  for (size_t at = verified.out.find("problem: "); at != std::string::npos;
       at = verified.out.find("problem: ", at + 1)) {
    ++problems;
  }
  EXPECT_EQ(problems, 1u) << verified.out;
  EXPECT_NE(verified.out.find("first bad position: 1"), std::string::npos) << verified.out;
}

TEST_F(LedgerToolTest, ExportPrintsOneLinePerEventWithItsLeafHash) {
  auto exported = Run({"export", "--data-dir", data_dir_.string()});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_EQ(Lines(exported.out), size_);
  std::istringstream lines(exported.out);
  std::string line;
  for (uint64_t position = 0; std::getline(lines, line); ++position) {
    const boost::json::object record = boost::json::parse(line).as_object();
    EXPECT_EQ(record.at("position").to_number<uint64_t>(), position);
    EXPECT_EQ(record.at("leafHash").as_string().size(), 64u);
  }
  auto tail =
      Run({"export", "--data-dir", data_dir_.string(), "--from", std::to_string(size_ - 1)});
  EXPECT_EQ(tail.exit_code, 0);
  EXPECT_EQ(Lines(tail.out), 1u);
}

TEST_F(LedgerToolTest, ProveAndVerifyBundlePass) {
  const std::filesystem::path bundle = ProveToFile("bundle.json");
  const boost::json::object parsed = boost::json::parse(ReadText(bundle)).as_object();
  EXPECT_EQ(parsed.at("events").as_array().size(), 2u);
  // Without a trusted key: every check passes, and the verdict says why that is not enough.
  auto checked = Run({"verify-bundle", bundle.string()});
  EXPECT_EQ(checked.exit_code, 2) << checked.out << checked.err;
  EXPECT_EQ(checked.out.find("FAIL"), std::string::npos) << checked.out;
  EXPECT_NE(checked.out.find("note publicKey: the bundle's own key"), std::string::npos)
      << checked.out;
  EXPECT_NE(checked.out.find("verify-bundle: NOT TRUSTED"), std::string::npos) << checked.out;

  // The service's key, as PEM, as a JWK, or as the public-key route's answer: ok.
  const std::filesystem::path key = root_ / "ledger.pub";
  auto described = eventstore::DescribeLedgerKey(ServiceKeyPem());
  ASSERT_TRUE(described);
  for (const std::string& form :
       {described->pem, boost::json::serialize(described->jwk),
        boost::json::serialize(eventstore::LedgerKeyDocument(*described))}) {
    WriteText(key, form);
    auto trusted = Run({"verify-bundle", bundle.string(), "--public-key", key.string()});
    EXPECT_EQ(trusted.exit_code, 0) << form << "\n" << trusted.out << trusted.err;
    EXPECT_NE(trusted.out.find("pass publicKey: the trusted key"), std::string::npos)
        << trusted.out;
    EXPECT_NE(trusted.out.find("verify-bundle: ok"), std::string::npos) << trusted.out;
  }

  auto other = eventstore::TreeHeadSigner::CreateEphemeral();
  ASSERT_TRUE(other);
  WriteText(key, (*other)->PublicKeyPem());
  auto foreign = Run({"verify-bundle", bundle.string(), "--public-key", key.string()});
  EXPECT_EQ(foreign.exit_code, 1);
  EXPECT_NE(foreign.out.find("FAIL publicKey"), std::string::npos) << foreign.out;

  // What is not a key, or not there, is refused before any check.
  WriteText(key, "not a key");
  EXPECT_EQ(Run({"verify-bundle", bundle.string(), "--public-key", key.string()}).exit_code, 2);
  EXPECT_EQ(
      Run({"verify-bundle", bundle.string(), "--public-key", (root_ / "none").string()}).exit_code,
      3);
  EXPECT_EQ(Run({"verify-bundle", bundle.string(), "--public-key", key.string(), "--public-key-url",
                 "http://127.0.0.1:1"})
                .exit_code,
            2);
}

// The bundle re-signed by someone else: its head signed again with a fresh key, which replaces
// the bundle's own. Every check passes against the key the bundle carries, so the tool must not
// say ok without a trusted key (exit 2), and against the service's key it fails by name (exit 1).
TEST_F(LedgerToolTest, ABundleReSignedWithAFreshKeyIsNeverOk) {
  boost::json::object bundle =
      boost::json::parse(ReadText(ProveToFile("resigned.json"))).as_object();
  auto forger = eventstore::TreeHeadSigner::CreateEphemeral();
  ASSERT_TRUE(forger);
  auto head = eventstore::ParseTreeHead(boost::json::serialize(bundle.at("treeHead")));
  ASSERT_TRUE(head);
  const eventstore::SignedTreeHead forged =
      (*forger)->Sign(head->size, head->root, head->timestamp_ms);
  bundle["treeHead"] = boost::json::parse(eventstore::SerializeTreeHead(forged));
  bundle["publicKeyPem"] = (*forger)->PublicKeyPem();
  const std::filesystem::path file = root_ / "resigned.json";
  WriteText(file, boost::json::serialize(bundle));

  auto alone = Run({"verify-bundle", file.string()});
  EXPECT_EQ(alone.exit_code, 2) << alone.out;
  EXPECT_EQ(alone.out.find("verify-bundle: ok"), std::string::npos) << alone.out;
  EXPECT_NE(alone.out.find("verify-bundle: NOT TRUSTED"), std::string::npos) << alone.out;

  const std::filesystem::path key = root_ / "service.pub";
  WriteText(key, ServiceKeyPem());
  auto trusted = Run({"verify-bundle", file.string(), "--public-key", key.string()});
  EXPECT_EQ(trusted.exit_code, 1) << trusted.out;
  const std::string named = "FAIL publicKey: the bundle was signed by key " +
                            eventstore::PublicKeyFingerprint((*forger)->PublicKeyPem()) +
                            ", not by the trusted key " +
                            eventstore::PublicKeyFingerprint(ServiceKeyPem());
  EXPECT_NE(trusted.out.find(named), std::string::npos) << trusted.out;
  EXPECT_NE(trusted.out.find("FAIL treeHead.signature"), std::string::npos) << trusted.out;
}

TEST_F(LedgerToolTest, AChangedByteInABundleIsNamed) {
  const std::string original = ReadText(ProveToFile("original.json"));
  struct Case {
    std::string find;  // the first occurrence gets one byte changed
    std::string check;
  };
  const Case cases[] = {
      {"Ledger second purpose", "events[1].leafHash"},
      {R"("leafHash":")", "events[0].leafHash"},
      {R"("root":")", "treeHead.signature"},
      {R"("inclusionProof":[")", "events[0].inclusionProof"},
      {R"("timestamp":)", "treeHead.signature"},
  };
  for (const Case& c : cases) {
    std::string changed = original;
    size_t at = changed.find(c.find);
    ASSERT_NE(at, std::string::npos) << c.find;
    at += c.find.size();
    if (c.find.starts_with("Ledger")) at -= 3;  // inside the second event's record
    changed[at] = changed[at] == '1' ? '2' : '1';
    const std::filesystem::path file = root_ / "changed.json";
    WriteText(file, changed);
    auto checked = Run({"verify-bundle", file.string()});
    EXPECT_EQ(checked.exit_code, 1) << c.find << "\n" << checked.out;
    EXPECT_NE(checked.out.find("FAIL " + c.check), std::string::npos) << c.find << "\n"
                                                                      << checked.out;
  }
  EXPECT_EQ(Run({"verify-bundle", (root_ / "absent.json").string()}).exit_code, 3);
}

TEST_F(LedgerToolTest, ProvingWithoutACoveringHeadOrEventsFails) {
  auto unknown = Run({"prove", "--data-dir", data_dir_.string(), "ctr_unknown"});
  EXPECT_EQ(unknown.exit_code, 1) << unknown.err;

  // One more event after the head: nothing covers it, and the offline tool signs nothing.
  const std::filesystem::path copy = CopyData("uncovered");
  {
    eventstore::RocksStoreOptions options;
    options.data_dir = copy.string();
    auto store = eventstore::RocksEventStore::Open(options);
    ASSERT_TRUE(store) << store.error().message;
    ASSERT_TRUE(
        (*store)->Append(ContractStreamId(contract_id_), eventstore::ExpectedVersion::Any(),
                         {eventstore::NewEvent{"evt_ledger_extra", "test.noted", 1, "{}"}}));
    (*store)->Close();
  }
  auto uncovered = Run({"prove", "--data-dir", copy.string(), contract_id_});
  EXPECT_EQ(uncovered.exit_code, 1);
  EXPECT_NE(uncovered.err.find("no signed tree head covers"), std::string::npos) << uncovered.err;
}

TEST_F(LedgerToolTest, ReplayEqualsTheLiveViews) {
  auto replayed = Run({"replay", "--data-dir", data_dir_.string()});
  EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("replay: equal"), std::string::npos) << replayed.out;
  const std::filesystem::path out = root_ / "views";
  auto on_disk = Run({"replay", "--data-dir", data_dir_.string(), "--out", out.string()});
  EXPECT_EQ(on_disk.exit_code, 0) << on_disk.out << on_disk.err;
  EXPECT_EQ(Run({"replay", "--data-dir", data_dir_.string(), "--out", out.string()}).exit_code, 2);
}

TEST_F(LedgerToolTest, AChangedLiveViewFailsReplayNamingItsKey) {
  const std::filesystem::path copy = CopyData("views-changed");
  std::string changed_key;
  WithRawDb(copy, "projections", [&](rocksdb::DB& db, rocksdb::ColumnFamilyHandle* rows) {
    std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(rocksdb::ReadOptions(), rows));
    it->SeekToFirst();
    ASSERT_TRUE(it->Valid());
    changed_key = it->key().ToString();
    std::string value = it->value().ToString() + " ";
    ASSERT_TRUE(db.Put(rocksdb::WriteOptions(), rows, changed_key, value).ok());
  });
  auto replayed = Run({"replay", "--data-dir", copy.string()});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("first differing key: " + changed_key), std::string::npos)
      << replayed.out;
}

// A data directory of an earlier version: the text index's trigram rows under `earlier` (the
// contract views' name, before the text index was a projection of its own; the first text
// index's, whose texts held the contract id), and no checkpoint of the text index. The service
// drops those rows at start and builds the text index from the log, so the replay is equal again.
void LedgerToolTest::ExpectEarlierTrigramRowsGiveWayAtStart(const std::string& earlier) {
  const std::filesystem::path copy = CopyData("earlier-text-rows");
  const std::string text_index = "contract-text-2/";
  size_t moved = 0;
  WithRawDb(copy, "projections", [&](rocksdb::DB& db, rocksdb::ColumnFamilyHandle* rows) {
    std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(rocksdb::ReadOptions(), rows));
    const std::string prefix = text_index + "gt/";
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      const std::string key = it->key().ToString();
      const std::string earlier_key = earlier + key.substr(text_index.size());
      ASSERT_TRUE(db.Put(rocksdb::WriteOptions(), rows, earlier_key, "").ok());
      ASSERT_TRUE(db.Delete(rocksdb::WriteOptions(), rows, key).ok());
      ++moved;
    }
  });
  ASSERT_GT(moved, 100u);
  WithRawDb(copy, "checkpoints", [&](rocksdb::DB& db, rocksdb::ColumnFamilyHandle* checkpoints) {
    ASSERT_TRUE(db.Delete(rocksdb::WriteOptions(), checkpoints, "contract-text-2").ok());
  });
  auto before = Run({"replay", "--data-dir", copy.string()});
  EXPECT_EQ(before.exit_code, 1) << before.out << before.err;

  ChildProcess server(std::vector<std::string>{CONTRACTD_BINARY, "serve", "--data-dir",
                                               copy.string(), "--listen", "127.0.0.1:0"});
  ASSERT_TRUE(server.WaitForLine("listening on", std::chrono::seconds(60))) << server.output();
  server.Signal(SIGTERM);
  ASSERT_EQ(server.Wait(std::chrono::seconds(30)), 0) << server.output();
  EXPECT_NE(server.output().find("dropping the rows of an earlier version under " + earlier),
            std::string::npos)
      << server.output();

  auto after = Run({"replay", "--data-dir", copy.string()});
  EXPECT_EQ(after.exit_code, 0) << after.out << after.err;
  EXPECT_NE(after.out.find("replay: equal"), std::string::npos) << after.out;
  WithRawDb(copy, "projections", [&](rocksdb::DB& db, rocksdb::ColumnFamilyHandle* rows) {
    std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(rocksdb::ReadOptions(), rows));
    it->Seek(earlier);
    EXPECT_FALSE(it->Valid() && it->key().starts_with(earlier + "gt/")) << it->key().ToString();
    it->Seek(text_index + "gt/");
    EXPECT_TRUE(it->Valid() && it->key().starts_with(text_index + "gt/"));
  });
}

TEST_F(LedgerToolTest, TheViewsEarlierTrigramRowsGiveWayToTheTextIndexAtStart) {
  ExpectEarlierTrigramRowsGiveWayAtStart("contracts/");
}

TEST_F(LedgerToolTest, TheFirstTextIndexsRowsGiveWayToTheTextIndexAtStart) {
  ExpectEarlierTrigramRowsGiveWayAtStart("contract-text/");
}

TEST_F(LedgerToolTest, ReadOnlyStoreRefusesAppends) {
  eventstore::RocksStoreOptions options;
  options.data_dir = data_dir_.string();
  options.read_only = true;
  auto store = eventstore::RocksEventStore::Open(options);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ((*store)->Size(), size_);
  auto appended = (*store)->Append("s-1", eventstore::ExpectedVersion::Any(),
                                   {eventstore::NewEvent{"evt_ro", "test.noted", 1, "{}"}});
  ASSERT_FALSE(appended);
  EXPECT_EQ(appended.error().code, ErrorCode::kStorage);
  (*store)->Close();
}

// A log of 12,000 events (above the progress threshold), written once for the progress tests.
std::filesystem::path LongLog(const std::filesystem::path& root) {
  const std::filesystem::path dir = root / "long";
  if (std::filesystem::exists(dir)) return dir;
  eventstore::RocksStoreOptions options;
  options.data_dir = dir.string();
  options.sync = false;
  auto store = eventstore::RocksEventStore::Open(options);
  EXPECT_TRUE(store) << store.error().message;
  if (!store) return dir;
  for (int batch = 0; batch < 12; ++batch) {
    std::vector<eventstore::NewEvent> events;
    for (int i = 0; i < 1000; ++i) {
      events.push_back({"evt_long_" + std::to_string(batch * 1000 + i), "test.noted", 1, "{}"});
    }
    EXPECT_TRUE((*store)->Append("long-" + std::to_string(batch),
                                 eventstore::ExpectedVersion::Any(), std::move(events)));
  }
  EXPECT_TRUE((*store)->ledger().SignTreeHead());
  (*store)->Close();
  return dir;
}

// contract-ledger with stdout and stderr on a pseudo-terminal: everything it wrote, and its exit
// code.
CommandResult RunOnTerminal(const std::vector<std::string>& args) {
  CommandResult result;
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) return result;
  if (pid == 0) {
    std::vector<std::string> argv{LEDGER_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> raw;
    for (std::string& arg : argv) raw.push_back(arg.data());
    raw.push_back(nullptr);
    execv(raw[0], raw.data());
    _exit(127);
  }
  char buffer[4096];
  ssize_t n = 0;
  // read() fails with EIO once the child has exited and closed its side.
  while ((n = read(master, buffer, sizeof buffer)) > 0) result.out.append(buffer, n);
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TEST_F(LedgerToolTest, NoProgressReachesAStderrThatIsNotATerminal) {
  const std::filesystem::path dir = LongLog(root_);
  for (const std::string subcommand : {"verify", "replay", "export"}) {
    auto run = Run({subcommand, "--data-dir", dir.string()});
    EXPECT_EQ(run.exit_code, 0) << subcommand << "\n" << run.err;
    EXPECT_EQ(run.err, "") << subcommand;
    EXPECT_EQ(run.out.find('\r'), std::string::npos) << subcommand;
  }
}

TEST_F(LedgerToolTest, ATerminalSeesOneUpdatingProgressLine) {
  const std::filesystem::path dir = LongLog(root_);
  auto verified = RunOnTerminal({"verify", "--data-dir", dir.string()});
  EXPECT_EQ(verified.exit_code, 0) << verified.out;
  EXPECT_NE(verified.out.find("\rverify: "), std::string::npos) << verified.out;
  EXPECT_NE(verified.out.find(" / 12,000 events ("), std::string::npos) << verified.out;
  EXPECT_NE(verified.out.find("verify: ok"), std::string::npos) << verified.out;
  // The line is erased before the findings, which start on a clean line.
  EXPECT_LT(verified.out.rfind("\r\x1b[K"), verified.out.find("events: 12000")) << verified.out;

  auto exported = RunOnTerminal({"export", "--data-dir", dir.string()});
  EXPECT_EQ(exported.exit_code, 0);
  EXPECT_NE(exported.out.find("\rexport: "), std::string::npos);

  // A short log stays quiet even on a terminal.
  auto short_run = RunOnTerminal({"verify", "--data-dir", data_dir_.string()});
  EXPECT_EQ(short_run.exit_code, 0) << short_run.out;
  EXPECT_EQ(short_run.out.find("\rverify: "), std::string::npos) << short_run.out;
}

// The stored documents end to end: a sent contract's frozen PDF is changed on disk while the
// service is stopped; after a restart the verification report fails naming that document, and
// contract-ledger verify fails naming it and the event that recorded its hash.
class StoredDocumentTest : public ContractdFixture {
 protected:
  void SetUp() override {
    ContractdFixture::SetUp();
    credentials_ = ParseCreated(CreateClient(
        "org_a", "contracts:read,contracts:create,contracts:send,signing:manage,evidence:write"));
    Start();
  }

  void Start() {
    server_ = StartServer();
    client_ = std::make_unique<HttpClient>(port_);
    auth_ = {{"Authorization", "Bearer " + TokenFor(credentials_)}};
    // The key the service publishes, as an auditor keeps it: verify-bundle trusts it.
    auto key = client_->Get("/api/v1/ledger/public-key");
    EXPECT_EQ(key.status, 200) << key.body;
    WriteText(KeyFile(), key.body);
  }
  std::filesystem::path KeyFile() const {
    return data_dir_.parent_path() / (data_dir_.filename().string() + "-ledger-key.json");
  }
  void Stop() {
    StopServer(*server_);
    server_.reset();
  }

  // A sent NDA: Ada signs on the hosted page, Grace through the integrator.
  boost::json::object SendNda() {
    auto created = client_->Post("/api/v1/contracts", std::string(kSentNdaBody), auth_);
    EXPECT_EQ(created.status, 201) << created.body;
    return created.Json().is_object() ? created.Json().as_object() : boost::json::object{};
  }

  // The verification report: its verdict and the names of the checks that failed.
  std::pair<bool, std::vector<std::string>> Report(const std::string& id) {
    auto report = client_->Get("/api/v1/contracts/" + id + "/evidence/verification", auth_);
    EXPECT_EQ(report.status, 200) << report.body;
    if (report.status != 200) return {false, {"no report"}};
    std::vector<std::string> failed;
    for (const auto& check : report.Json().at("checks").as_array()) {
      if (!check.at("passed").as_bool()) failed.emplace_back(check.at("name").as_string());
    }
    EXPECT_EQ(report.Json().at("verdict"), report.Json().at("valid").as_bool() ? "pass" : "fail");
    return {report.Json().at("valid").as_bool(), failed};
  }

  // With the service stopped: one byte of the stored document `sha`, right after `marker`,
  // changed in the database directly, as someone with access to the disk could.
  void ChangeStoredDocument(const std::string& sha, const std::string& marker) {
    WithRawDb(data_dir_, "blobs", [&](rocksdb::DB& db, rocksdb::ColumnFamilyHandle* blobs) {
      std::string pdf;
      ASSERT_TRUE(db.Get(rocksdb::ReadOptions(), blobs, sha, &pdf).ok());
      const size_t at = pdf.find(marker);
      ASSERT_NE(at, std::string::npos) << marker;
      pdf[at + marker.size()] = static_cast<char>(pdf[at + marker.size()] ^ 0x20);
      ASSERT_TRUE(db.Put(rocksdb::WriteOptions(), blobs, sha, pdf).ok());
    });
  }

  // contract-ledger on the data directory; `verify` unless other arguments are given.
  // verify-bundle trusts the service's published key unless `trusted` is false.
  CommandResult VerifyOffline(std::vector<std::string> args = {}, bool trusted = true) {
    if (args.empty()) args = {"verify", "--data-dir", data_dir_.string()};
    if (args[0] == "verify-bundle" && trusted) {
      args.insert(args.end(), {"--public-key", KeyFile().string()});
    }
    const std::filesystem::path err =
        data_dir_.parent_path() / (data_dir_.filename().string() + ".err");
    CommandResult result = RunLedger(args, err);
    std::filesystem::remove(err);
    return result;
  }

  Credentials credentials_;
  std::unique_ptr<ChildProcess> server_;
  std::unique_ptr<HttpClient> client_;
  std::map<std::string, std::string> auth_;
};

TEST_F(StoredDocumentTest, AChangedByteInTheFrozenPdfIsNamedByTheReportAndTheTool) {
  const boost::json::object contract = SendNda();
  const std::string id(contract.at("id").as_string());
  const std::string sha(contract.at("renderedDocumentSha256").as_string());
  EXPECT_EQ(Report(id), std::make_pair(true, std::vector<std::string>{}));
  auto bundle = client_->Get("/api/v1/contracts/" + id + "/evidence/bundle", auth_);
  ASSERT_EQ(bundle.status, 200) << bundle.body;
  const std::filesystem::path bundle_file =
      data_dir_.parent_path() / (data_dir_.filename().string() + "-evidence.json");
  WriteText(bundle_file, bundle.body);
  Stop();
  EXPECT_EQ(VerifyOffline().exit_code, 0);
  auto alone = VerifyOffline({"verify-bundle", bundle_file.string()});
  EXPECT_EQ(alone.exit_code, 0) << alone.out << alone.err;
  EXPECT_NE(alone.out.find("pass ledger.treeHead.signature"), std::string::npos) << alone.out;
  EXPECT_NE(alone.out.find("note documents.bytes:"), std::string::npos) << alone.out;
  // Without the service's key every check passes, and still nothing is trusted.
  auto untrusted = VerifyOffline({"verify-bundle", bundle_file.string()}, false);
  EXPECT_EQ(untrusted.exit_code, 2) << untrusted.out << untrusted.err;
  EXPECT_NE(untrusted.out.find("note ledger.publicKey: the bundle's own key"), std::string::npos)
      << untrusted.out;
  EXPECT_NE(untrusted.out.find("verify-bundle: NOT TRUSTED"), std::string::npos) << untrusted.out;
  EXPECT_EQ(untrusted.out.find("verify-bundle: ok"), std::string::npos) << untrusted.out;
  auto with_documents =
      VerifyOffline({"verify-bundle", bundle_file.string(), "--data-dir", data_dir_.string()});
  EXPECT_EQ(with_documents.exit_code, 0) << with_documents.out << with_documents.err;
  EXPECT_NE(with_documents.out.find("pass documents.rendered_unsigned.sha256"), std::string::npos)
      << with_documents.out;

  ChangeStoredDocument(sha, "/Produce");  // "/Producer" becomes "/ProduceR"
  auto verified = VerifyOffline();
  EXPECT_EQ(verified.exit_code, 1) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("problem: stored document " + sha), std::string::npos)
      << verified.out;
  EXPECT_NE(verified.out.find("recorded by contract.prepared of contract-" + id), std::string::npos)
      << verified.out;
  EXPECT_NE(verified.out.find("verify: FAILED"), std::string::npos) << verified.out;
  auto checked =
      VerifyOffline({"verify-bundle", bundle_file.string(), "--data-dir", data_dir_.string()});
  std::filesystem::remove(bundle_file);
  EXPECT_EQ(checked.exit_code, 1) << checked.out << checked.err;
  EXPECT_NE(checked.out.find("FAIL documents.rendered_unsigned.sha256"), std::string::npos)
      << checked.out;

  Start();
  EXPECT_EQ(Report(id),
            std::make_pair(false, std::vector<std::string>{"documents.rendered_unsigned.sha256"}));
  Stop();
}

// As an auditor would try it: a bundle from the API with a shown part changed (an audit-trail
// entry's type or time, the status), cut short, or checked against another certificate fails
// verify-bundle by name; what the bundle marks unproven is noted, not trusted.
TEST_F(StoredDocumentTest, AnEvidenceBundleWithAChangedShownPartFailsTheToolByName) {
  const std::string id(SendNda().at("id").as_string());
  auto got = client_->Get("/api/v1/contracts/" + id + "/evidence/bundle", auth_);
  ASSERT_EQ(got.status, 200) << got.body;
  const boost::json::object bundle = got.Json().as_object();
  const std::filesystem::path file =
      data_dir_.parent_path() / (data_dir_.filename().string() + "-changed.json");
  const std::filesystem::path pem =
      data_dir_.parent_path() / (data_dir_.filename().string() + "-certificate.pem");
  auto verify = [&](const boost::json::object& changed, std::vector<std::string> extra = {}) {
    WriteText(file, boost::json::serialize(changed));
    std::vector<std::string> args = {"verify-bundle", file.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return VerifyOffline(args);
  };

  auto intact = verify(bundle);
  EXPECT_EQ(intact.exit_code, 0) << intact.out;
  EXPECT_NE(intact.out.find("pass auditTrail[1]: equals the proven record"), std::string::npos)
      << intact.out;
  EXPECT_NE(intact.out.find("note unproven.generatedAt"), std::string::npos) << intact.out;

  const std::vector<std::pair<std::function<void(boost::json::object&)>, std::string>> edits = {
      {[](auto& b) { b["auditTrail"].as_array()[1].as_object()["type"] = "contract.voided"; },
       "FAIL auditTrail[1].type"},
      {[](auto& b) {
         b["auditTrail"].as_array()[0].as_object()["recordedAt"] = "2026-01-01T00:00:00.000000Z";
       },
       "FAIL auditTrail[0].recordedAt"},
      {[](auto& b) { b["status"] = "completed"; }, "FAIL status"},
  };
  for (const auto& [edit, line] : edits) {
    boost::json::object changed = bundle;
    edit(changed);
    auto run = verify(changed);
    EXPECT_EQ(run.exit_code, 1) << line << "\n" << run.out;
    EXPECT_NE(run.out.find(line), std::string::npos) << run.out;
  }
  // The unproven part may change: it proves nothing, and the report says so.
  boost::json::object later = bundle;
  later["unproven"].as_object()["generatedAt"] = "2030-01-01T00:00:00Z";
  EXPECT_EQ(verify(later).exit_code, 0);

  // Cut short: not JSON any more.
  const std::string text = boost::json::serialize(bundle);
  WriteText(file, text.substr(0, text.size() / 2));
  auto truncated = VerifyOffline({"verify-bundle", file.string()});
  EXPECT_EQ(truncated.exit_code, 1);
  EXPECT_NE(truncated.out.find("FAIL json"), std::string::npos) << truncated.out;

  // The service's certificate, given: it must be the bundle's; another one fails by name.
  WriteText(pem, std::string(bundle.at("serviceCertificatePem").as_string()));
  auto trusted = verify(bundle, {"--certificate", pem.string()});
  EXPECT_EQ(trusted.exit_code, 0) << trusted.out;
  EXPECT_NE(trusted.out.find("pass serviceCertificate"), std::string::npos) << trusted.out;
  auto other = documents::ServiceCertificate::CreateEphemeral();
  ASSERT_TRUE(other.has_value());
  WriteText(pem, (*other)->CertificatePem());
  auto foreign = verify(bundle, {"--certificate", pem.string()});
  EXPECT_EQ(foreign.exit_code, 1) << foreign.out;
  EXPECT_NE(foreign.out.find("FAIL serviceCertificate"), std::string::npos) << foreign.out;
  std::filesystem::remove(file);
  std::filesystem::remove(pem);
}

// A change deep inside a long member (an audit-trail entry's details) is shown where it is: the
// path to the changed member, not the first 160 characters of the whole entry (the offset and
// window within one long value: tests/base/json_difference_test.cc).
TEST_F(StoredDocumentTest, AChangeDeepInALongMemberIsShownWhereItIs) {
  const std::string id(SendNda().at("id").as_string());
  auto got = client_->Get("/api/v1/contracts/" + id + "/evidence/bundle", auth_);
  ASSERT_EQ(got.status, 200) << got.body;
  boost::json::object bundle = got.Json().as_object();
  // The first entry with details gets a member the records do not have, long enough that the
  // entry's text is cut when shown.
  boost::json::array& trail = bundle["auditTrail"].as_array();
  size_t index = 0;
  while (index < trail.size() && !trail[index].as_object().contains("details")) ++index;
  ASSERT_LT(index, trail.size()) << got.body;
  const std::string name = "auditTrail[" + std::to_string(index) + "].details";
  trail[index].as_object()["details"].as_object()["addedByHand"] = std::string(300, 'x') + "!";
  const std::filesystem::path file =
      data_dir_.parent_path() / (data_dir_.filename().string() + "-deep.json");
  WriteText(file, boost::json::serialize(bundle));
  auto run = VerifyOffline({"verify-bundle", file.string()});
  std::filesystem::remove(file);
  EXPECT_EQ(run.exit_code, 1) << run.out;
  const size_t line_at = run.out.find("FAIL " + name + ": differs at " + name + ".addedByHand");
  ASSERT_NE(line_at, std::string::npos) << run.out;
  const std::string line = run.out.substr(line_at, run.out.find('\n', line_at) - line_at);
  // The added member is all the difference: the records show nothing there.
  EXPECT_NE(line.find("the proven record says nothing"), std::string::npos) << line;
}

TEST_F(StoredDocumentTest, EverySignatureOfTheSignedPdfIsCheckedAndAChangedByteIsNamed) {
  const boost::json::object contract = SendNda();
  const std::string id(contract.at("id").as_string());

  // Ada signs on the hosted page, Grace through the integrator: the contract completes with a
  // sealed PDF stored as a signed_pdf revision.
  ASSERT_NO_FATAL_FAILURE(SignSentNda(*client_, auth_, contract));
  std::string signed_sha;
  for (int attempt = 0; attempt < 200 && signed_sha.empty(); ++attempt) {
    auto got = client_->Get("/api/v1/contracts/" + id, auth_);
    if (const auto* key = got.Json().as_object().if_contains("signedPdfKey")) {
      signed_sha = std::string(key->as_string());
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  ASSERT_FALSE(signed_sha.empty());

  // Every check passes, among them one per PDF signature and whole-document coverage.
  auto report = client_->Get("/api/v1/contracts/" + id + "/evidence/verification", auth_);
  ASSERT_EQ(report.status, 200) << report.body;
  EXPECT_EQ(report.Json().at("valid"), true) << report.body;
  std::string revision;  // "documents.revision[N].signed_pdf"
  std::set<std::string> names;
  for (const auto& check : report.Json().at("checks").as_array()) {
    const std::string name(check.at("name").as_string());
    names.insert(name);
    if (name.ends_with(".signed_pdf.signature[Signature1]")) {
      revision = name.substr(0, name.size() - std::string(".signature[Signature1]").size());
      EXPECT_NE(check.at("detail").as_string().find("CN=Contract Signing Service"),
                std::string::npos)
          << report.body;
    }
  }
  ASSERT_TRUE(revision.starts_with("documents.revision[")) << report.body;
  // The signed contract pages the completion certificate hashes: stored, and the sealed PDF's
  // first bytes.
  EXPECT_TRUE(names.contains("documents.signed_content.sha256")) << report.body;
  EXPECT_TRUE(names.contains("documents.signed_content.prefix")) << report.body;
  Stop();

  ChangeStoredDocument(signed_sha, "/Produce");
  auto verified = VerifyOffline();
  EXPECT_EQ(verified.exit_code, 1) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("problem: stored document " + signed_sha), std::string::npos)
      << verified.out;
  EXPECT_NE(verified.out.find("recorded by contract.completed of contract-" + id),
            std::string::npos)
      << verified.out;

  // The changed byte lies in the signed contract pages, so the sealed PDF no longer begins with
  // the stored ones either.
  Start();
  EXPECT_EQ(
      Report(id),
      std::make_pair(false, std::vector<std::string>{
                                revision + ".sha256", revision + ".signature[Signature1]",
                                revision + ".unmodified", "documents.signed_content.prefix"}));
  Stop();
}

}  // namespace
}  // namespace esign::testing
