// The bound on a contract's stream (domain/contract_commands.h): a command that would take the
// stream past kMaxContractStreamBytes of event data or kMaxContractStreamEvents events is refused
// with 409 CONTRACT_STATE_CONFLICT on "stream", and nothing is stored.
#include <gtest/gtest.h>

#include "commands/contract_commands.h"
#include "domain/clock.h"
#include "domain/id_generator.h"
#include "domain/stream_kinds.h"
#include "domain/template_importer.h"
#include "eventstore/memory_event_store.h"
#include "http/contract_requests.h"
#include "tests/projections/contract_script.h"

namespace esign::commands {
namespace {

const esign::Actor kOwner{
    .client_id = "cli_owner",
    .organization_id = "org_acme",
    .permissions = {"contracts:create", "contracts:update", "contracts:send"}};

// An event of a type the contract does not know (Apply only counts it) with `bytes` of data.
eventstore::NewEvent Padding(size_t bytes, int n) {
  EXPECT_GE(bytes, 8u);
  return {"evt_padding_" + std::to_string(n),
          "test.padding",
          1,
          R"({"p":")" + std::string(bytes - 8, 'x') + "\"}",
          {}};
}

TEST(WithinStreamBoundsTest, CountsEventsAndBytes) {
  const std::vector<eventstore::NewEvent> one{Padding(100, 1)};
  const std::vector<eventstore::NewEvent> two{Padding(100, 1), Padding(100, 2)};
  EXPECT_TRUE(WithinStreamBounds(0, 0, two));
  EXPECT_TRUE(WithinStreamBounds(kMaxContractStreamEvents - 1, 0, one));
  auto refused = WithinStreamBounds(kMaxContractStreamEvents - 1, 0, two);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kContractStateConflict);
  ASSERT_EQ(refused.error().details.size(), 1u);
  EXPECT_EQ(refused.error().details[0].field, "stream");
  EXPECT_TRUE(WithinStreamBounds(5, kMaxContractStreamBytes - 200, two));
  refused = WithinStreamBounds(5, kMaxContractStreamBytes - 199, two);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kContractStateConflict);
}

TEST(ContractStreamBoundsTest, ACommandPastTheBytesIsRefusedAndStoresNothing) {
  auto tmpl = ImportTemplateText(projections::testing::ExampleTemplate("mutual-nda.json"));
  ASSERT_TRUE(tmpl) << tmpl.error().message;
  auto nda = std::make_shared<const Template>(std::move(*tmpl));
  auto created_store = eventstore::MemoryEventStore::Create();
  ASSERT_TRUE(created_store);
  eventstore::MemoryEventStore& store = **created_store;
  const ManualClock clock(int64_t{1'772'323'200} * 1'000'000);
  ContractCommandHandler handler(
      store, [&](std::string_view) { return nda; },
      [](std::string_view, std::string_view, uint64_t) {}, RandomIdGenerator::Instance(), clock);

  auto body =
      boost::json::parse(projections::testing::ReadFile(std::string(SOURCE_DIR) +
                                                        "/examples/requests/create-nda.json"))
          .as_object();
  auto created = handler.Create(kOwner, http::CommandFromRequest<CreateContract>(body), {});
  ASSERT_TRUE(created) << created.error().message;
  const std::string id = created->state.id;
  const std::string stream = ContractStreamId(id);
  auto edit = [&](const std::string& value) {
    return handler.Execute(
        kOwner, id,
        http::CommandFromRequest<UpdateData>(
            boost::json::parse(R"({"fieldValues":[{"key":"purpose","value":")" + value + "\"}]}")
                .as_object()),
        {});
  };

  // 63 MiB of history: an edit still fits.
  std::vector<eventstore::NewEvent> padding;
  for (int i = 0; i < 63; ++i) padding.push_back(Padding(size_t{1} << 20, i));
  ASSERT_TRUE(store.Append(stream, eventstore::ExpectedVersion::Any(), std::move(padding)));
  auto fits = edit("A purpose that fits");
  ASSERT_TRUE(fits) << fits.error().message;

  // Then up to a few bytes short of the bound: the next edit does not fit.
  auto now = handler.states().Latest(id);
  ASSERT_TRUE(now);
  ASSERT_LT(now->stream_bytes, kMaxContractStreamBytes);
  ASSERT_TRUE(store.Append(stream, eventstore::ExpectedVersion::Any(),
                           {Padding(kMaxContractStreamBytes - now->stream_bytes - 10, 100)}));
  const uint64_t size = store.Size();
  const uint64_t version = store.CurrentVersion(stream)->value();
  auto refused = edit("A purpose that does not fit");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kContractStateConflict);
  ASSERT_FALSE(refused.error().details.empty());
  EXPECT_EQ(refused.error().details[0].field, "stream");
  EXPECT_EQ(store.Size(), size);
  EXPECT_EQ(store.CurrentVersion(stream)->value(), version);
  auto after = handler.Load(id);
  ASSERT_TRUE(after);
  EXPECT_EQ(after->version, version);
}

}  // namespace
}  // namespace esign::commands
