// list_bench: GET /contracts as one organization grows, in the style of ledger_bench: one line
// of figures per query.
//
//   list_bench [--num=100000] [--seconds=2] [--db=DIR] [--use_existing_db=1] [--only=TEXT]
//
// Fills one organization (org_bench, client cli_bench) with --num drafts of the example mutual
// NDA (examples/requests/create-nda.json), created 20 s apart from 2025-01-01; every 1000th also
// has an organization viewer, org_partner. The creations are decided by the domain once and
// copied under new ids and times, appended to a RocksDB event store (not synced) and projected by
// the real contract views into the real RocksDB view store (Rebuild, as `contract-ledger replay`
// does). Then each query runs ContractQueries::List on one thread for --seconds and prints p50 and
// p99 latency, the page size and whether a next cursor came back; last, the disk bytes per
// contract of each key family of the views (RocksDB's size estimates after a full compaction)
// and the process's peak resident memory. --only runs just the queries whose name contains TEXT
// (and skips the sizes), e.g. to profile one of them.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <rocksdb/db.h>
#include <boost/json.hpp>

#include "base/time_text.h"
#include "domain/contract.h"
#include "domain/template_importer.h"
#include "domain/template_json.h"
#include "eventstore/rocksdb_event_store.h"
#include "eventstore/rocksdb_options.h"
#include "http/contract_requests.h"
#include "projections/contract_queries.h"
#include "projections/contract_text_index.h"
#include "projections/contract_views.h"
#include "projections/rebuild.h"
#include "projections/rocksdb_view_store.h"
#include "projections/template_catalog.h"

namespace esign {
namespace {

using Clock = std::chrono::steady_clock;

struct Flags {
  uint64_t num = 100'000;
  double seconds = 2;
  std::string db;
  bool use_existing_db = false;
  std::string only;  // run only the queries whose name contains it
};

constexpr std::string_view kOrg = "org_bench";
constexpr std::string_view kClient = "cli_bench";
constexpr int64_t kFirstCreation = 1'735'689'600'000'000;  // 2025-01-01T00:00:00Z
constexpr int64_t kSpacingMicros = 20'000'000;
constexpr uint64_t kPartnerEvery = 1000;

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "list_bench: %s\n", what.c_str());
  std::exit(1);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The event data of one creation decided by the domain, with "ctr_template" as its id and
// kTemplateTime as its time, for copying.
constexpr std::string_view kTemplateId = "ctr_template0000000000000000";
constexpr std::string_view kTemplateTime = "2030-01-01T00:00:00Z";

std::string DecidedCreation(const Template& tmpl, bool with_partner) {
  boost::json::object body =
      boost::json::parse(ReadFile(std::string(SOURCE_DIR) + "/examples/requests/create-nda.json"))
          .as_object();
  if (with_partner) {
    body["participants"].as_array().push_back(boost::json::object{{"action", "view"},
                                                                  {"recipientType", "organization"},
                                                                  {"organizationId", "org_partner"},
                                                                  {"name", "Partner"}});
  }
  DecisionContext context;
  context.actor =
      Actor{std::string(kClient), std::string(kOrg), {"contracts:create", "contracts:send"}};
  context.tmpl = &tmpl;
  context.now = std::string(kTemplateTime);
  context.contract_id = std::string(kTemplateId);
  for (int i = 0; i < 8; ++i) context.participant_ids.push_back("prt_" + std::to_string(i));
  Result<std::vector<DomainEvent>> events =
      Decide(ContractState{}, Command(http::CommandFromRequest<CreateContract>(body)), context);
  if (!events) Die("the example creation was not decided: " + events.error().message);
  if (events->size() != 1) Die("the example creation is not one event");
  return boost::json::serialize(events->front().data);
}

void ReplaceAll(std::string& text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9;
  x = (x ^ (x >> 27)) * 0x94d049bb133111eb;
  return x ^ (x >> 31);
}

// Ids shaped as the service's (domain/id_generator.h): "ctr_", 10 Crockford base32 characters of
// the creation's millisecond time, then 16 of 80 random bits (here a fixed function of i, so a
// run can be repeated), so an id's trigrams are as rare as in the service.
std::string ContractId(uint64_t i) {
  static constexpr char kCrockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const uint64_t ms =
      static_cast<uint64_t>(kFirstCreation + static_cast<int64_t>(i) * kSpacingMicros) / 1000;
  const uint64_t hi = SplitMix64(2 * i) & ((uint64_t{1} << 40) - 1);
  const uint64_t lo = SplitMix64(2 * i + 1) & ((uint64_t{1} << 40) - 1);
  std::string id = "ctr_";
  for (int k = 9; k >= 0; --k) id.push_back(kCrockford[(ms >> (5 * k)) & 31]);
  for (int k = 7; k >= 0; --k) id.push_back(kCrockford[(hi >> (5 * k)) & 31]);
  for (int k = 7; k >= 0; --k) id.push_back(kCrockford[(lo >> (5 * k)) & 31]);
  return id;
}

void Fill(eventstore::RocksEventStore& store, const Flags& flags) {
  Result<Template> tmpl =
      ImportTemplateText(ReadFile(std::string(SOURCE_DIR) + "/examples/templates/mutual-nda.json"));
  if (!tmpl) Die("template: " + tmpl.error().message);
  {
    eventstore::NewEvent event;
    event.event_id = "evt_template";
    event.type = "template.imported";
    event.data = boost::json::serialize(TemplateToJson(*tmpl));
    if (!store.Append("template-" + tmpl->template_id, eventstore::ExpectedVersion::Any(),
                      {std::move(event)})) {
      Die("appending the template");
    }
  }
  const std::string plain = DecidedCreation(*tmpl, false);
  const std::string partner = DecidedCreation(*tmpl, true);
  const auto start = Clock::now();
  std::vector<std::thread> writers;
  constexpr int kWriters = 8;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      for (uint64_t i = static_cast<uint64_t>(w); i < flags.num; i += kWriters) {
        const std::string id = ContractId(i);
        std::string data = (i % kPartnerEvery == kPartnerEvery - 1) ? partner : plain;
        ReplaceAll(data, kTemplateId, id);
        ReplaceAll(data, kTemplateTime,
                   FormatTimestamp(kFirstCreation + static_cast<int64_t>(i) * kSpacingMicros));
        eventstore::NewEvent event;
        event.event_id = "evt_" + id;
        event.type = "contract.created";
        event.data = std::move(data);
        event.actor = eventstore::Actor{std::string(kClient), std::string(kOrg), "req", "", ""};
        if (!store.Append("contract-" + id, eventstore::ExpectedVersion::NoStream(),
                          {std::move(event)})) {
          Die("append failed");
        }
      }
    });
  }
  for (auto& writer : writers) writer.join();
  const double appended = std::chrono::duration<double>(Clock::now() - start).count();

  Result<std::unique_ptr<projections::RocksViewStore>> views =
      projections::RocksViewStore::Open(store);
  if (!views) Die(views.error().message);
  projections::TemplateCatalog catalog;
  projections::ContractViews contracts(store);
  projections::ContractTextIndex text_index(store);
  const auto projected_start = Clock::now();
  Result<uint64_t> reached =
      projections::Rebuild(store, {&catalog, &contracts, &text_index}, **views);
  if (!reached) Die("projection: " + reached.error().message);
  const double projected = std::chrono::duration<double>(Clock::now() - projected_start).count();
  std::printf("fill: %llu contracts appended in %.1f s, projected in %.1f s (%.0f/s)\n",
              static_cast<unsigned long long>(flags.num), appended, projected,
              static_cast<double>(flags.num) / projected);
  std::fflush(stdout);
}

struct Query {
  std::string name;
  projections::QueryParams params;
};

void Run(const projections::ContractQueries& queries, const Query& query, double seconds) {
  Result<projections::ListQuery> parsed = projections::ParseListQuery(query.params);
  if (!parsed) Die("query " + query.name + ": " + parsed.error().message);
  const projections::QueryActor actor{std::string(kClient), std::string(kOrg)};
  std::vector<double> micros;
  size_t items = 0;
  bool next = false;
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < end || micros.size() < 5) {
    const auto start = Clock::now();
    Result<projections::ContractPage> page = queries.List(actor, *parsed);
    micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    if (!page) Die("query " + query.name + ": " + page.error().message);
    items = page->items.size();
    next = page->next_cursor.has_value();
  }
  std::sort(micros.begin(), micros.end());
  const auto at = [&](double q) {
    return micros[std::min(micros.size() - 1, static_cast<size_t>(q * micros.size()))];
  };
  std::printf("%-72s : p50 %9.1f us  p99 %9.1f us  %6zu runs  %3zu items  next %s\n",
              query.name.c_str(), at(0.5), at(0.99), micros.size(), items, next ? "yes" : "no");
  std::fflush(stdout);
}

std::string Day(uint64_t contract_index, int days) {
  return FormatTimestamp(kFirstCreation + static_cast<int64_t>(contract_index) * kSpacingMicros +
                         int64_t{days} * 86'400'000'000);
}

void ReportSizes(eventstore::RocksEventStore& store, uint64_t num) {
  rocksdb::DB* db = store.db();
  rocksdb::ColumnFamilyHandle* family = store.Family(eventstore::family::kProjections);
  rocksdb::CompactRangeOptions compact;
  if (!db->CompactRange(compact, family, nullptr, nullptr).ok()) Die("compaction failed");
  const std::vector<std::pair<std::string, std::string>> families = {
      {"c/ contract", "contracts/c/"},     {"s/ status", "contracts/s/"},
      {"a/ audit", "contracts/a/"},        {"g/ grant entry", "contracts/g/"},
      {"gs/ status", "contracts/gs/"},     {"gd/ dates", "contracts/gd/"},
      {"go/ controller", "contracts/go/"}, {"gc/ counterparty", "contracts/gc/"},
      {"ga/ gr/ gb/", "contracts/ga/"},    {"gt/ trigrams", "contract-text-2/gt/"}};
  uint64_t total = 0;
  for (const auto& [name, prefix] : families) {
    std::string limit = prefix;
    limit.back() = static_cast<char>(limit.back() + 1);
    if (name == "ga/ gr/ gb/") limit = "contracts/gc/";
    const rocksdb::Range range(prefix, limit);
    uint64_t size = 0;
    rocksdb::SizeApproximationOptions options;
    options.include_files = true;
    options.include_memtables = true;
    if (!db->GetApproximateSizes(options, family, &range, 1, &size).ok()) Die("sizes");
    if (name == "ga/ gr/ gb/") {
      // ga/ and gb/ sort before gc/; gr/ after gd/: add it.
      const rocksdb::Range roles("contracts/gr/", "contracts/gr0");
      uint64_t more = 0;
      if (!db->GetApproximateSizes(options, family, &roles, 1, &more).ok()) Die("sizes");
      size += more;
    }
    total += size;
    std::printf("disk %-18s : %8.1f bytes/contract\n", name.c_str(),
                static_cast<double>(size) / static_cast<double>(num));
  }
  std::printf("disk %-18s : %8.1f bytes/contract (views, compressed as stored)\n", "total",
              static_cast<double>(total) / static_cast<double>(num));
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmHWM") || line.starts_with("VmRSS")) {
      std::printf("memory %s (block cache 256 MiB, memtables 64 MiB per family)\n", line.c_str());
    }
  }
}

int Main(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto value = [&](std::string_view name) -> std::optional<std::string> {
      const std::string prefix = "--" + std::string(name) + "=";
      if (!arg.starts_with(prefix)) return std::nullopt;
      return std::string(arg.substr(prefix.size()));
    };
    if (auto v = value("num")) {
      flags.num = std::stoull(*v);
    } else if (auto v = value("seconds")) {
      flags.seconds = std::stod(*v);
    } else if (auto v = value("db")) {
      flags.db = *v;
    } else if (auto v = value("use_existing_db")) {
      flags.use_existing_db = *v == "1";
    } else if (auto v = value("only")) {
      flags.only = *v;
    } else {
      std::fprintf(stderr,
                   "usage: list_bench [--num=N] [--seconds=S] [--db=DIR] [--use_existing_db=1] "
                   "[--only=TEXT]\n");
      return 2;
    }
  }
  if (flags.num == 0) Die("--num must be at least 1");
  const bool own_dir = flags.db.empty();
  if (own_dir) {
    flags.db = (std::filesystem::temp_directory_path() / ("list_bench_" + std::to_string(getpid())))
                   .string();
  }
  if (!flags.use_existing_db) std::filesystem::remove_all(flags.db);
  eventstore::RocksStoreOptions options;
  options.data_dir = flags.db;
  options.sync = false;  // the fill is set-up, not measured as ingest
  Result<std::unique_ptr<eventstore::RocksEventStore>> store =
      eventstore::RocksEventStore::Open(options);
  if (!store) Die(store.error().message);
  if (!flags.use_existing_db) Fill(**store, flags);

  Result<std::unique_ptr<projections::RocksViewStore>> views =
      projections::RocksViewStore::Open(**store);
  if (!views) Die(views.error().message);
  const projections::ContractQueries queries(**views, "list-bench-cursor-key-0123456789abcdef");
  const uint64_t mid = flags.num / 2;
  const std::string from = Day(mid, 0);
  const std::string to = Day(mid, 1);
  const std::vector<Query> table = {
      {"status=draft&limit=20", {{"status", "draft"}, {"limit", "20"}}},
      {"limit=20 (no filter: the grants drive)", {{"limit", "20"}}},
      {"q=globex&limit=20", {{"q", "globex"}, {"limit", "20"}}},
      {"q=zzzz-no-match", {{"q", "zzzz-no-match"}}},
      {"counterpartyOrganizationId=org_none", {{"counterpartyOrganizationId", "org_none"}}},
      {"counterpartyOrganizationId=org_partner (1 in 1000)",
       {{"counterpartyOrganizationId", "org_partner"}}},
      {"dateField=createdAt&from=2020-01-01&to=2020-01-02",
       {{"dateField", "createdAt"},
        {"from", "2020-01-01T00:00:00Z"},
        {"to", "2020-01-02T00:00:00Z"}}},
      {"dateField=createdAt, one day mid-range (4320 match), limit=20",
       {{"dateField", "createdAt"}, {"from", from}, {"to", to}, {"limit", "20"}}},
      {"status=draft + one day mid-range + q=globex, limit=20",
       {{"status", "draft"},
        {"dateField", "createdAt"},
        {"from", from},
        {"to", to},
        {"q", "globex"},
        {"limit", "20"}}},
      {"status=draft + 2020 day + q=zzzz-no-match",
       {{"status", "draft"},
        {"dateField", "createdAt"},
        {"from", "2020-01-01T00:00:00Z"},
        {"to", "2020-01-02T00:00:00Z"},
        {"q", "zzzz-no-match"}}},
      {"status=draft + counterparty org_partner + q=partner",
       {{"status", "draft"}, {"counterpartyOrganizationId", "org_partner"}, {"q", "partner"}}},
      {"status=sent (none) + q=globex", {{"status", "sent"}, {"q", "globex"}}},
      {"accessRole=viewer (none)", {{"accessRole", "viewer"}}},
      {"scope=owned&limit=20", {{"scope", "owned"}, {"limit", "20"}}},
      {"q=" + ContractId(mid) + " (one id)", {{"q", ContractId(mid)}}},
      // No 'u' in a base32 id or in the NDA's texts.
      {"budget-bound: q=uu (too short for trigrams, matches none)", {{"q", "uu"}}},
      {"budget-bound: dateField=sentAt&from=2020-01-01 (drafts have none)",
       {{"dateField", "sentAt"}, {"from", "2020-01-01"}}},
  };
  std::printf("list_bench: %llu contracts in one organization, %.1f s per query, one thread\n",
              static_cast<unsigned long long>(flags.num), flags.seconds);
  for (const Query& query : table) {
    if (query.name.find(flags.only) != std::string::npos) Run(queries, query, flags.seconds);
  }
  if (flags.only.empty()) ReportSizes(**store, flags.num);
  views->reset();
  (*store)->Close();
  if (own_dir) std::filesystem::remove_all(flags.db);
  return 0;
}

}  // namespace
}  // namespace esign

int main(int argc, char** argv) { return esign::Main(argc, argv); }
