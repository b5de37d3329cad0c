// The aggregate's API beyond single rules (those are data: cases/*.json): determinism, replay,
// the context's pre-generated ids, and the JSON shapes other layers rely on.
#include "domain/contract.h"

#include <gtest/gtest.h>

#include "domain/json_util.h"
#include "domain/template_importer.h"
#include "test_files.h"
#include "tests/support/command_from_json.h"

namespace esign {
namespace {

class ContractTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto imported = ImportTemplateText(
        testing::ReadFile(testing::ExampleTemplatePath("services-agreement.json")));
    ASSERT_TRUE(imported.has_value());
    tmpl_ = std::move(*imported);
    context_.actor =
        Actor{"cli_1",
              "org_1",
              {"contracts:create", "contracts:update", "contracts:send", "evidence:write"}};
    context_.tmpl = &tmpl_;
    context_.now = "2026-01-15T10:00:00Z";
    context_.contract_id = "ctr_1";
    context_.participant_ids = {"prt_a", "prt_b", "prt_c"};
  }

  static Command Create(const char* json) {
    auto command =
        esign::testing::CommandFromJson("CreateContract", boost::json::parse(json).as_object());
    EXPECT_TRUE(command.has_value());
    return *command;
  }

  Command SendNowCommand() const {
    return Create(R"({
      "title": "Services", "templateId": "tpl_services_agreement", "sendNow": true,
      "data": {"parties": {"clientName": "C", "clientAddress": "A", "providerName": "P",
                           "providerRegistrationNumber": "R", "billingEmail": "b@p.example"},
               "engagement": {"effectiveDate": "2026-03-01",
                              "scopeOfServices": "Twenty characters at least.",
                              "currency": "EUR", "totalFee": "10.00", "paymentTermsDays": 30,
                              "governingLaw": "Germany",
                              "paymentMilestones": [{"description": "All",
                                                     "dueDate": "2026-03-01",
                                                     "amount": "10.00"}]}},
      "participants": [
        {"name": "C", "email": "c@c.example", "action": "sign", "recipientType": "individual",
         "executionChannel": "platform_hosted", "templateRoleId": "client_signatory"},
        {"name": "P", "organizationId": "org_p", "action": "sign",
         "recipientType": "organization", "executionChannel": "provider_managed",
         "templateRoleId": "provider_company"}]})");
  }

  Template tmpl_;
  DecisionContext context_;
};

TEST_F(ContractTest, DecideIsDeterministic) {
  auto first = Decide({}, SendNowCommand(), context_);
  auto second = Decide({}, SendNowCommand(), context_);
  ASSERT_TRUE(first.has_value());
  ASSERT_TRUE(second.has_value());
  ASSERT_EQ(first->size(), 3u);
  for (size_t i = 0; i < first->size(); ++i) {
    EXPECT_EQ((*first)[i].type, (*second)[i].type);
    EXPECT_EQ(CanonicalJson((*first)[i].data), CanonicalJson((*second)[i].data));
  }
}

TEST_F(ContractTest, ReplayEqualsStepwiseApply) {
  auto events = Decide({}, SendNowCommand(), context_);
  ASSERT_TRUE(events.has_value());
  ContractState stepwise;
  for (const auto& event : *events) stepwise = Apply(stepwise, event);
  ContractState replayed = Replay(*events);
  EXPECT_EQ(CanonicalJson(ContractToJson(stepwise)), CanonicalJson(ContractToJson(replayed)));
  EXPECT_EQ(replayed.version, 3u);
  EXPECT_EQ(replayed.status, ContractStatus::kSent);
  ASSERT_EQ(replayed.prepared_roles.size(), 2u);
  EXPECT_EQ(replayed.prepared_roles[1].routing_order, 2);
  EXPECT_EQ(replayed.prepared_roles[1].signature_placement.at(0).x, 320);
}

TEST_F(ContractTest, PreparationRecordsTheOrganizationsName) {
  context_.organization_name = "Acme GmbH";
  auto events = Decide({}, SendNowCommand(), context_);
  ASSERT_TRUE(events.has_value());
  ASSERT_EQ((*events)[1].type, "contract.prepared");
  const auto* name = (*events)[1].data.if_contains("organizationName");
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(name->as_string(), "Acme GmbH");
  EXPECT_EQ(Replay(*events).organization_name, "Acme GmbH");

  // Without a name the event has no such member, and the contract none.
  context_.organization_name.clear();
  auto unnamed = Decide({}, SendNowCommand(), context_);
  ASSERT_TRUE(unnamed.has_value());
  EXPECT_FALSE((*unnamed)[1].data.contains("organizationName"));
  EXPECT_TRUE(Replay(*unnamed).organization_name.empty());
}

TEST_F(ContractTest, FreshIdsAreUsedInOrder) {
  auto events = Decide({}, SendNowCommand(), context_);
  ASSERT_TRUE(events.has_value());
  ContractState state = Replay(*events);
  ASSERT_EQ(state.participants.size(), 2u);
  EXPECT_EQ(state.participants[0].participant_id, "prt_a");
  EXPECT_EQ(state.participants[1].participant_id, "prt_b");
}

TEST_F(ContractTest, TooFewFreshIdsIsOurFault) {
  context_.participant_ids = {"prt_a"};
  auto events = Decide({}, SendNowCommand(), context_);
  ASSERT_FALSE(events.has_value());
  EXPECT_EQ(events.error().code, ErrorCode::kInternal);
}

TEST_F(ContractTest, MissingContractIdIsOurFault) {
  context_.contract_id.clear();
  auto events = Decide({}, SendNowCommand(), context_);
  ASSERT_FALSE(events.has_value());
  EXPECT_EQ(events.error().code, ErrorCode::kInternal);
}

TEST_F(ContractTest, ContractJsonCarriesTheApiNames) {
  auto events = Decide({}, SendNowCommand(), context_);
  ASSERT_TRUE(events.has_value());
  boost::json::object json = ContractToJson(Replay(*events));
  for (const char* key :
       {"id", "status", "version", "title", "templateId", "templateVersionId",
        "organizationSigningMode", "fieldValues", "tableData", "participants", "roleBindings",
        "signingSettings", "notifications", "createdAt", "updatedAt"}) {
    EXPECT_TRUE(json.contains(key)) << key;
  }
  EXPECT_FALSE(json.contains("signedPdfKey"));  // only once a signed PDF exists
  const auto& participant = json.at("participants").at(1).as_object();
  for (const char* key : {"participantId", "action", "recipientType", "name", "organizationId",
                          "executionChannel", "templateRoleId", "routingOrder", "state"}) {
    EXPECT_TRUE(participant.contains(key)) << key;
  }
}

TEST_F(ContractTest, StatusJsonHasTheDesignShape) {
  auto events = Decide({}, SendNowCommand(), context_);
  ASSERT_TRUE(events.has_value());
  boost::json::object status = ContractStatusToJson(Replay(*events));
  EXPECT_EQ(status.at("status"), "sent");
  EXPECT_EQ(status.at("organizationSigningMode"), "automatic");
  EXPECT_TRUE(status.at("lifecycle").as_object().contains("declinedAt"));
  const auto& first = status.at("participants").at(0).as_object();
  EXPECT_EQ(first.at("state"), "ready");
  EXPECT_EQ(status.at("participants").at(1).at("state"), "waiting");
}

TEST_F(ContractTest, UnknownCommandName) {
  auto command = esign::testing::CommandFromJson("ArchiveContract", {});
  ASSERT_FALSE(command.has_value());
  EXPECT_EQ(command.error().code, ErrorCode::kValidationFailed);
}

TEST_F(ContractTest, CommandNames) {
  EXPECT_EQ(CommandName(Command{SendContract{}}), "SendContract");
  EXPECT_EQ(CommandName(Command{PersistEvidence{}}), "PersistEvidence");
}

TEST_F(ContractTest, EventsSerializeAndParseBack) {
  DomainEvent event{"contract.sent", {{"contractId", "ctr_1"}, {"sentAt", "2026-01-15T10:00:00Z"}}};
  DomainEvent back = DomainEventFromJson(DomainEventToJson(event));
  EXPECT_EQ(back.type, event.type);
  EXPECT_EQ(back.data, event.data);
}

// Signing sessions -----------------------------------------------------------------------------

class SessionTest : public ContractTest {
 protected:
  void SetUp() override {
    ContractTest::SetUp();
    context_.actor.permissions.insert("signing:manage");
    auto events = Decide({}, SendNowCommand(), context_);
    ASSERT_TRUE(events.has_value());
    state_ = Replay(*events);
  }
  // Decides `command` on the current state and applies its events; the error otherwise.
  Status Run(const Command& command) {
    auto events = Decide(state_, command, context_);
    if (!events) return Fail(events.error());
    for (const auto& event : *events) state_ = Apply(state_, event);
    return {};
  }
  static CreateSigningSession Hosted(std::string session_id, std::string token_hash) {
    return CreateSigningSession{.participant_id = "prt_a",
                                .session_id = std::move(session_id),
                                .token_sha256 = std::move(token_hash),
                                .expires_at = "2026-01-16T10:00:00.000000Z"};
  }
  ContractState state_;
};

const std::string kHashA(64, 'a');
const std::string kHashB(64, 'b');

TEST_F(SessionTest, OnlyTheSignerWhoseTurnItIs) {
  CreateSigningSession organization{.participant_id = "prt_b",
                                    .session_id = "ses_2",
                                    .expires_at = "2026-01-16T10:00:00.000000Z",
                                    .provider_id = "acme"};
  auto refused = Run(organization);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::kSigningOutOfTurn);
  ASSERT_TRUE(Run(Hosted("ses_1", kHashA)).has_value());
  EXPECT_EQ(state_.sessions.at(0).state, SessionState::kOpen);
  EXPECT_EQ(state_.sessions.at(0).channel, ExecutionChannel::kPlatformHosted);
}

TEST_F(SessionTest, ANewSessionSupersedesTheOpenOne) {
  ASSERT_TRUE(Run(Hosted("ses_1", kHashA)).has_value());
  ASSERT_TRUE(Run(Hosted("ses_2", kHashB)).has_value());
  EXPECT_EQ(state_.FindSession("ses_1")->state, SessionState::kCancelled);
  EXPECT_EQ(state_.FindSession("ses_1")->cancel_reason, "superseded");
  EXPECT_EQ(EffectiveState(*state_.FindSession("ses_2"), state_, context_.now),
            SessionState::kOpen);
}

TEST_F(SessionTest, ExpiryIsAMatterOfTheClock) {
  ASSERT_TRUE(Run(Hosted("ses_1", kHashA)).has_value());
  const SigningSession& session = *state_.FindSession("ses_1");
  EXPECT_EQ(EffectiveState(session, state_, "2026-01-16T09:59:59.000000Z"), SessionState::kOpen);
  EXPECT_EQ(EffectiveState(session, state_, "2026-01-16T10:00:00.000000Z"), SessionState::kExpired);
  context_.now = "2026-01-17T00:00:00.000000Z";
  auto late = Run(RecordSignerCompleted{"prt_a", "", {}, "ses_1"});
  ASSERT_FALSE(late.has_value());
  EXPECT_EQ(late.error().code, ErrorCode::kSigningSessionExpired);
  // Refreshing revives it with a new token.
  ASSERT_TRUE(
      Run(RefreshSigningSession{"ses_1", kHashB, "2026-01-18T00:00:00.000000Z"}).has_value());
  EXPECT_EQ(state_.FindSession("ses_1")->token_sha256, kHashB);
  EXPECT_TRUE(Run(RecordSignerCompleted{"prt_a", "", {}, "ses_1"}).has_value());
  EXPECT_EQ(state_.FindSession("ses_1")->state, SessionState::kCompleted);
}

TEST_F(SessionTest, ASessionSignsOnlyForItsParticipantAndOnlyOnce) {
  ASSERT_TRUE(Run(Hosted("ses_1", kHashA)).has_value());
  auto other = Run(RecordSignerCompleted{"prt_b", "", {}, "ses_1"});
  ASSERT_FALSE(other.has_value());
  EXPECT_EQ(other.error().code, ErrorCode::kSigningOutOfTurn);
  ASSERT_TRUE(Run(RecordSignerCompleted{"prt_a", "", {}, "ses_1"}).has_value());
  auto again = Run(RecordSignerCompleted{"prt_a", "", {}, "ses_1"});
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().code, ErrorCode::kContractStateConflict);  // already signed
}

TEST_F(SessionTest, AReplacedLinkCannotSign) {
  ASSERT_TRUE(Run(Hosted("ses_1", kHashA)).has_value());
  ASSERT_TRUE(
      Run(RefreshSigningSession{"ses_1", kHashB, "2026-01-16T10:00:00.000000Z"}).has_value());
  auto stale = Run(RecordSignerCompleted{"prt_a", "", {}, "ses_1", kHashA});
  ASSERT_FALSE(stale.has_value());
  EXPECT_EQ(stale.error().code, ErrorCode::kSigningSessionCancelled);
  EXPECT_TRUE(Run(RecordSignerCompleted{"prt_a", "", {}, "ses_1", kHashB}).has_value());
}

TEST_F(SessionTest, ADeclineEndsEveryOpenSession) {
  ASSERT_TRUE(Run(Hosted("ses_1", kHashA)).has_value());
  ASSERT_TRUE(Run(RecordSignerDeclined{"prt_a", "No.", "ses_1"}).has_value());
  EXPECT_EQ(state_.status, ContractStatus::kDeclined);
  EXPECT_EQ(state_.FindSession("ses_1")->state, SessionState::kDeclined);
  auto cancel = Run(CancelSigningSession{"ses_1"});
  ASSERT_FALSE(cancel.has_value());
  EXPECT_EQ(cancel.error().code, ErrorCode::kSigningSessionStateConflict);
}

TEST_F(SessionTest, TheIntegratorNeedsSigningManageAndControl) {
  context_.actor.permissions.erase("signing:manage");
  auto denied = Run(Hosted("ses_1", kHashA));
  ASSERT_FALSE(denied.has_value());
  EXPECT_EQ(denied.error().code, ErrorCode::kPermissionDenied);
  context_.actor.permissions.insert("signing:manage");
  context_.actor.organization_id = "org_other";
  auto hidden = Run(Hosted("ses_1", kHashA));
  ASSERT_FALSE(hidden.has_value());
  EXPECT_EQ(hidden.error().code, ErrorCode::kContractNotFound);
}

// Every command replays the stream, so commands an integrator can repeat at will stop at a bound;
// the signers' own steps do not, and another organization is not told the contract exists.
TEST_F(ContractTest, AContractStopsTakingRepeatableCommandsAtItsEventLimit) {
  auto events = Decide(ContractState{}, SendNowCommand(), context_);
  ASSERT_TRUE(events.has_value()) << events.error().message;
  ContractState state = Replay(*events);
  state.version = kMaxContractEvents;

  auto refused = Decide(state, PersistEvidence{}, context_);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::kContractStateConflict);
  EXPECT_EQ(refused.error().details.at(0).field, "version");

  DecisionContext stranger = context_;
  stranger.actor.organization_id = "org_other";
  auto hidden = Decide(state, PersistEvidence{}, stranger);
  ASSERT_FALSE(hidden.has_value());
  EXPECT_EQ(hidden.error().code, ErrorCode::kContractNotFound);

  auto signer =
      Decide(state, RecordSignerDeclined{.participant_id = "prt_a", .reason = "no"}, context_);
  ASSERT_TRUE(signer.has_value()) << signer.error().message;
}

// A hostile body with a million bad items costs a counter: 50 details are kept, the rest counted.
TEST(DetailsTest, KeepsTheFirstFiftyAndCountsTheRest) {
  Details details;
  for (int i = 0; i < 1000; ++i) AddDetail(details, "f" + std::to_string(i), "bad");
  EXPECT_EQ(details.size(), 1000u);
  const std::vector<ErrorDetail> list = details;
  ASSERT_EQ(list.size(), 51u);
  EXPECT_EQ(list[49].field, "f49");
  EXPECT_EQ(list[50].issue, "and 950 more problems not shown");

  Details few;
  AddDetail(few, "a", "bad");
  EXPECT_EQ(static_cast<std::vector<ErrorDetail>>(few).size(), 1u);
}

}  // namespace
}  // namespace esign
