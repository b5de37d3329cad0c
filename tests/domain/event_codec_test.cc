// The one codec of event data: old stored shapes still read, a member of the wrong type is
// refused by its path, writing and reading agree, and the published schema says what the struct
// says.
#include "domain/event_codec.h"

#include <gtest/gtest.h>

#include "domain/contract.h"
#include "domain/event_catalog.h"
#include "domain/event_data.h"

namespace esign {
namespace {

boost::json::object Parse(std::string_view text) { return boost::json::parse(text).as_object(); }

TEST(EventCodecTest, MembersAreNamedInCamelCase) {
  EXPECT_EQ(event_codec::JsonName("ready_participant_ids"), "readyParticipantIds");
  EXPECT_EQ(event_codec::JsonName("signed_pdf_sha256"), "signedPdfSha256");
  EXPECT_EQ(event_codec::JsonName("at"), "at");
}

TEST(EventCodecTest, AbsentMembersKeepTheirDefaultsAndUnknownOnesAreIgnored) {
  // contract.sent before expiry existed: no expiresAt; and a member no version ever wrote.
  auto read = event_codec::ReadData<ContractSentData>(Parse(
      R"({"contractId":"ctr_1","sentAt":"2026-01-01T00:00:00Z","readyParticipantIds":["p1"],"later":1})"));
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(read->contract_id, "ctr_1");
  EXPECT_FALSE(read->expires_at.has_value());
  EXPECT_EQ(read->ready_participant_ids, std::vector<std::string>{"p1"});
}

TEST(EventCodecTest, AnOldEmptyObjectReadsAsAnEmptyList) {
  auto read = event_codec::ReadData<ContractCreatedData>(
      Parse(R"({"contractId":"ctr_1","title":"T","fieldValues":{},"participants":[]})"));
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_TRUE(read->field_values.empty());
  EXPECT_FALSE(read->template_id.has_value());
}

TEST(EventCodecTest, AMemberOfTheWrongTypeIsRefusedByItsPath) {
  auto read = event_codec::ReadData<SignerCompletedData>(
      Parse(R"({"contractId":"ctr_1","fieldValues":[{"fieldId":7,"value":"x"}]})"));
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().code, ErrorCode::kCorruption);
  EXPECT_NE(read.error().message.find("/fieldValues/0/fieldId: expected a string"),
            std::string::npos)
      << read.error().message;
  EXPECT_FALSE(
      event_codec::ReadData<ContractPreparedData>(Parse(R"({"roles":[{"routingOrder":"first"}]})"))
          .has_value());
}

TEST(EventCodecTest, WhatIsWrittenReadsBackTheSame) {
  SignerCompletedData data;
  data.contract_id = "ctr_1";
  data.participant_id = "p1";
  data.evidence = {{"signerName", "Ada"}};
  data.remaining_signers = 2;
  data.field_values = std::vector<SignerValueRecord>{{"fld_1", true}, {"fld_2", "2026-12-01"}};
  const boost::json::object written = event_codec::WriteData(data);
  EXPECT_EQ(written.at("fieldValues").as_array().at(0).as_object().at("fieldId"), "fld_1");
  EXPECT_FALSE(written.contains("sessionId"));  // an absent optional is left out, not null
  auto read = event_codec::ReadData<SignerCompletedData>(written);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(event_codec::WriteData(*read), written);
}

TEST(EventCodecTest, TheSchemaRequiresWhatTheStructDoesNotMakeOptional) {
  const boost::json::object schema = event_codec::Schema<ContractSentData>();
  EXPECT_EQ(schema.at("required"),
            (boost::json::array{"contractId", "sentAt", "readyParticipantIds"}));
  const auto& properties = schema.at("properties").as_object();
  EXPECT_EQ(properties.at("expiresAt"),
            (boost::json::object{{"type", {"string", "null"}}, {"format", "date-time"}}));
  EXPECT_EQ(properties.at("readyParticipantIds"),
            (boost::json::object{{"type", "array"}, {"items", {{"type", "string"}}}}));
}

TEST(EventCodecTest, VisitTextReadsOnlyTheTypesItsListHas) {
  using Sent = boost::mp11::mp_list<ContractSentData>;
  int visits = 0;
  const auto count = [&](const ContractSentData&) { ++visits; };
  // Another type is not read at all, so its data does not even have to parse.
  EXPECT_EQ(event_codec::VisitText<Sent>("contract.created", "not json", count),
            event_codec::Visited::kUnknownType);
  EXPECT_EQ(event_codec::VisitText<Sent>("contract.sent", "not json", count),
            event_codec::Visited::kUnreadable);
  EXPECT_EQ(
      event_codec::VisitText<Sent>(
          "contract.sent",
          R"({"contractId":"ctr_1","sentAt":"2026-01-01T00:00:00Z","readyParticipantIds":[]})",
          count),
      event_codec::Visited::kYes);
  EXPECT_EQ(visits, 1);
}

TEST(EventCatalogTest, EveryContractEventTypeHasASchemaAndTheEnvelopeNamesThemAll) {
  for (const std::string_view type : {event_type::kContractCreated,
                                      event_type::kDataUpdated,
                                      event_type::kTableDataUpdated,
                                      event_type::kParticipantsReplaced,
                                      event_type::kRoleBindingsUpdated,
                                      event_type::kContractPrepared,
                                      event_type::kContractSent,
                                      event_type::kSignerCompleted,
                                      event_type::kSigningInProgress,
                                      event_type::kContractCompleted,
                                      event_type::kSignerDeclined,
                                      event_type::kContractDeclined,
                                      event_type::kEvidencePersisted,
                                      event_type::kContractVoided,
                                      event_type::kContractExpired,
                                      event_type::kParticipantReminded,
                                      event_type::kSessionCreated,
                                      event_type::kSessionCancelled,
                                      event_type::kSessionRefreshed,
                                      event_type::kSignerCodeSent,
                                      event_type::kSignerAuthenticated,
                                      event_type::kSignerAttemptFailed,
                                      event_type::kSignerAuthenticationFailed,
                                      template_event::kImported,
                                      template_event::kCreated,
                                      template_event::kVersionAdded,
                                      template_event::kPublished,
                                      template_event::kArchived,
                                      kDocumentUploaded,
                                      kDocumentDeleted}) {
    EXPECT_TRUE(HasEventSchema(type)) << type;
  }
  EXPECT_FALSE(HasEventSchema("contract.teleported"));
  EXPECT_FALSE(HasEventSchema("envelope"));
  const auto& defs = EventSchemas().at("$defs").as_object();
  const auto& types = defs.at("envelope").at("properties").at("type").at("enum").as_array();
  EXPECT_EQ(types.size() + 1, defs.size());
}

TEST(EventCatalogTest, ApplySkipsAnUnreadableEventButCountsIt) {
  ContractState state;
  state = Apply(std::move(state),
                DomainEvent{std::string(event_type::kContractCreated),
                            Parse(R"({"contractId":"ctr_1","title":"T","createdAt":"x"})")});
  state = Apply(std::move(state),
                DomainEvent{std::string(event_type::kContractSent), Parse(R"({"sentAt":12})")});
  EXPECT_EQ(state.status, ContractStatus::kDraft);
  EXPECT_EQ(state.version, 2);
}

}  // namespace
}  // namespace esign
