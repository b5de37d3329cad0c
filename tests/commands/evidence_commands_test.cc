// The evidence of a contract that was reminded and voided: the bundle's audit trail says who
// voided it, when and why, and which reminder went to whom; its verification report names each
// event it checked by type.
#include "commands/evidence_commands.h"

#include <gtest/gtest.h>

#include "base/time_text.h"
#include "documents/service_certificate.h"
#include "tests/projections/contract_world.h"

namespace esign::commands {
namespace {

namespace pt = projections::testing;

// The audit entry of `type` in a bundle (the last one).
boost::json::object EntryOf(const boost::json::object& bundle, std::string_view type) {
  const auto& trail = bundle.at("auditTrail").as_array();
  for (auto it = trail.rbegin(); it != trail.rend(); ++it) {
    if (it->at("type").as_string() == type) return it->as_object();
  }
  ADD_FAILURE() << "no " << type << " in " << boost::json::serialize(trail);
  return {};
}

TEST(EvidenceCommandsTest, AVoidedContractsEvidenceShowsTheVoidAndTheReminder) {
  pt::ContractWorld world;
  const Actor a1 = pt::Client("cli_a1", "org_a");
  const std::string id =
      world.script().Create(a1, pt::ServicesBody("Voided", pt::Parties{}), "2026-01-01T10:00:00Z");
  ASSERT_TRUE(world.script().RunJson(a1, id, "SendContract", "{}", "2026-01-02T10:00:00Z"));
  ASSERT_TRUE(world.script().RunJson(a1, id, "RemindParticipants", "{}", "2026-01-03T10:00:00Z"));
  ASSERT_TRUE(world.script().RunJson(a1, id, "VoidContract", R"({"reason":"Wrong price"})",
                                     "2026-01-04T10:00:00Z"));
  world.Sync();
  auto state = world.script().Load(id);
  ASSERT_TRUE(state);
  ASSERT_EQ(state->status, ContractStatus::kVoided);

  auto certificate = documents::ServiceCertificate::CreateEphemeral();
  ASSERT_TRUE(certificate) << certificate.error().message;
  const ManualClock clock(*ParseTimestampMicros("2026-01-05T10:00:00Z"));
  EvidenceCommands evidence(world.store(), (*certificate)->CertificatePem(), clock);
  auto bundle = evidence.Bundle(*state);
  ASSERT_TRUE(bundle) << bundle.error().message;
  EXPECT_EQ(bundle->at("status"), "voided");
  const auto voided = EntryOf(*bundle, "contract.voided");
  EXPECT_EQ(voided.at("details").at("reason"), "Wrong price");
  EXPECT_EQ(voided.at("details").at("voidedBy"), "cli_a1");
  EXPECT_EQ(voided.at("details").at("voidedAt"), "2026-01-04T10:00:00Z");
  const auto reminded = EntryOf(*bundle, "participant.reminded");
  EXPECT_EQ(reminded.at("details").at("participantId").as_string(),
            world.script().ParticipantId(id, "Clara Client"));
  EXPECT_EQ(reminded.at("details").at("reminderNumber").to_number<int64_t>(), 1);
  EXPECT_EQ(reminded.at("details").at("trigger"), "manual");

  auto report = evidence.Verify(*state);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->at("valid"), true) << boost::json::serialize(*report);
  std::vector<std::string> record_details;
  for (const auto& check : report->at("checks").as_array()) {
    const std::string_view name = check.at("name").as_string();
    if (name.starts_with("ledger.events[") && name.ends_with("].record")) {
      record_details.emplace_back(check.at("detail").as_string());
    }
  }
  ASSERT_EQ(record_details.size(), state->version);
  EXPECT_TRUE(record_details.front().starts_with("contract.created at position "))
      << record_details.front();
  EXPECT_TRUE(record_details.back().starts_with("contract.voided at position "))
      << record_details.back();
}

}  // namespace
}  // namespace esign::commands
