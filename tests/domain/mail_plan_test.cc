// Who is mailed what, from the events of contracts made by the aggregate itself.
#include "domain/mail_plan.h"

#include <gtest/gtest.h>

#include "domain/contract.h"
#include "domain/template_importer.h"
#include "test_files.h"
#include "tests/support/command_from_json.h"

namespace esign {
namespace {

const OwnerContact kOwner{"legal@acme.example", "Acme legal"};

class MailPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto imported = ImportTemplateText(
        testing::ReadFile(testing::TestDataPath("templates/test-contract.json")));
    ASSERT_TRUE(imported.has_value()) << imported.error().message;
    tmpl_ = std::move(*imported);
  }

  // Decides `command` on the contract, applies the events and returns them.
  std::vector<DomainEvent> Run(const std::string& name, const std::string& body) {
    DecisionContext context;
    context.actor = Actor{"cli_1", "org_acme", {"contracts:create", "contracts:send"}};
    context.tmpl = &tmpl_;
    context.now = "2026-01-15T10:00:0" + std::to_string(++seconds_) + "Z";
    context.contract_id = "ctr_1";
    context.participant_ids = {"prt_1", "prt_2", "prt_3", "prt_4", "prt_5"};
    auto command = esign::testing::CommandFromJson(name, boost::json::parse(body).as_object());
    EXPECT_TRUE(command.has_value());
    auto events = Decide(state_, *command, context);
    EXPECT_TRUE(events.has_value()) << name << ": " << events.error().message;
    if (!events) return {};
    for (const auto& event : *events) state_ = Apply(std::move(state_), event);
    return *events;
  }

  // Sends a contract: Bea (buyer, order 1) and Cora (co-signer, order 1) sign first, then Sam
  // (seller, order 2, `sam_channel`); Olga views, Archive receives a copy.
  std::vector<DomainEvent> Send(const std::string& sam_channel,
                                const std::string& notifications = "{}", bool send_now = true) {
    return Run("CreateContract", R"({
      "title": "Widget purchase", "templateId": "tpl_test_contract", "sendNow": )" +
                                     std::string(send_now ? "true" : "false") + R"(,
      "notifications": )" + notifications +
                                     R"(,
      "participants": [
        {"name": "Bea Buyer", "email": "bea@example.com", "action": "sign",
         "recipientType": "individual", "executionChannel": "platform_hosted",
         "templateRoleId": "buyer"},
        {"name": "Sam Seller", "email": "sam@example.com", "action": "sign",
         "recipientType": "individual", "executionChannel": ")" +
                                     sam_channel + R"(", "templateRoleId": "seller"},
        {"name": "Cora Cosigner", "email": "cora@example.com", "action": "sign",
         "recipientType": "individual", "executionChannel": "platform_hosted",
         "templateRoleId": "cosigner"},
        {"name": "Olga Observer", "email": "olga@example.com", "action": "view",
         "recipientType": "individual", "templateRoleId": "observer"},
        {"name": "Archive", "email": "LEGAL@acme.example", "action": "receive_copy",
         "recipientType": "individual"}],
      "data": {"general": {"name": "Ada Buyer", "count": 2, "amount": "150.00",
                           "startDate": "2026-02-01"},
               "lines": {"items": [{"label": "Widget", "qty": 2, "price": "75.00"}]}}})");
  }

  std::vector<DomainEvent> Sign(const std::string& participant_id) {
    return Run("RecordSignerCompleted", R"({"participantId": ")" + participant_id +
                                            R"(", "evidence": {"signerName": "x"}})");
  }

  // The mail planned for the last event of `events` of type `type`.
  std::vector<PlannedMail> Plan(const std::vector<DomainEvent>& events, std::string_view type,
                                const std::optional<OwnerContact>& owner = kOwner) {
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      if (it->type == type) return PlanMail(state_, *it, owner);
    }
    ADD_FAILURE() << "no " << type;
    return {};
  }

  static std::vector<std::string> Emails(const std::vector<PlannedMail>& mails) {
    std::vector<std::string> out;
    for (const auto& mail : mails) out.push_back(mail.email);
    return out;
  }

  Template tmpl_;
  ContractState state_;
  int seconds_ = 0;
};

TEST_F(MailPlanTest, SendingAsksTheHostedSignersWhoseTurnItIs) {
  const auto mails = Plan(Send("platform_hosted"), "contract.sent");
  EXPECT_EQ(Emails(mails), (std::vector<std::string>{"bea@example.com", "cora@example.com"}));
  for (const auto& mail : mails) {
    EXPECT_EQ(mail.kind, MailKind::kSigningRequest);
    EXPECT_TRUE(mail.hosted_link);
    EXPECT_EQ(mail.subject, "Template subject");  // the template's default over the platform's
  }
  EXPECT_EQ(mails[0].participant_id, "prt_1");
  EXPECT_EQ(mails[0].name, "Bea Buyer");
}

TEST_F(MailPlanTest, SubjectAndMessageOverridesCarryTheTitle) {
  const auto mails =
      Plan(Send("platform_hosted", R"({"contract.sent": {"subject": "Sign {{title}} now",
                                        "message": "Hello, {{title}} awaits you."}})"),
           "contract.sent");
  ASSERT_FALSE(mails.empty());
  EXPECT_EQ(mails[0].subject, "Sign Widget purchase now");
  EXPECT_EQ(mails[0].message, "Hello, Widget purchase awaits you.");
}

TEST_F(MailPlanTest, DisabledSigningRequestsAreNotSent) {
  EXPECT_TRUE(
      Plan(Send("platform_hosted", R"({"contract.sent": {"enabled": false}})"), "contract.sent")
          .empty());
}

TEST_F(MailPlanTest, TheNextTurnIsAskedOnceAndSignaturesGoToTheirGroups) {
  Send("platform_hosted");
  // Bea signs: Cora, signing in parallel, was asked at sending and is not asked again.
  const auto after_bea = Sign("prt_1");
  const auto bea_mails = Plan(after_bea, "signer.completed");
  EXPECT_EQ(Emails(bea_mails), (std::vector<std::string>{"legal@acme.example"}));
  EXPECT_EQ(bea_mails[0].kind, MailKind::kSignerCompleted);
  EXPECT_TRUE(bea_mails[0].participant_id.empty());

  // Cora signs: Sam's turn comes.
  const auto cora_mails = Plan(Sign("prt_3"), "signer.completed");
  ASSERT_EQ(cora_mails.size(), 2u);
  EXPECT_EQ(cora_mails[0].kind, MailKind::kSigningRequest);
  EXPECT_EQ(cora_mails[0].email, "sam@example.com");
  EXPECT_EQ(cora_mails[1].kind, MailKind::kSignerCompleted);
}

TEST_F(MailPlanTest, SignersWithoutAHostedLinkAreNotAsked) {
  Send("integrator_managed");
  Sign("prt_1");
  const auto mails = Plan(Sign("prt_3"), "signer.completed");
  EXPECT_EQ(Emails(mails), (std::vector<std::string>{"legal@acme.example"}));
}

TEST_F(MailPlanTest, CompletionGoesToEveryGroupOncePerAddressWithThePdf) {
  Send("platform_hosted");
  Sign("prt_1");
  Sign("prt_3");
  Sign("prt_2");
  const auto completed = Run("CompleteContract", R"({"signedPdfKey": "blob"})");
  const auto mails = Plan(completed, "contract.completed");
  // The owner's address is also the archive's, spelt in capitals: one message.
  EXPECT_EQ(Emails(mails),
            (std::vector<std::string>{"legal@acme.example", "bea@example.com", "sam@example.com",
                                      "cora@example.com", "olga@example.com"}));
  for (const auto& mail : mails) {
    EXPECT_EQ(mail.kind, MailKind::kContractCompleted);
    EXPECT_TRUE(mail.attach_signed_pdf);
    EXPECT_FALSE(mail.hosted_link);
  }
  // Without an owner address, the archive gets its copy.
  const auto without_owner = Plan(completed, "contract.completed", std::nullopt);
  EXPECT_EQ(without_owner.back().email, "LEGAL@acme.example");
}

TEST_F(MailPlanTest, AttachSignedPdfFalseAttachesNothing) {
  Send("platform_hosted", R"({"contract.completed": {"attachSignedPdf": false,
                                                     "recipients": ["copy_recipients"]}})");
  Sign("prt_1");
  Sign("prt_3");
  Sign("prt_2");
  const auto mails =
      Plan(Run("CompleteContract", R"({"signedPdfKey": "blob"})"), "contract.completed");
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(mails[0].email, "LEGAL@acme.example");
  EXPECT_FALSE(mails[0].attach_signed_pdf);
}

TEST_F(MailPlanTest, AReminderRepeatsTheLinkToItsSignerOnly) {
  Send("integrator_managed");
  const auto reminded = Run("RemindParticipants", R"({})");
  ASSERT_EQ(reminded.size(), 2u);  // Bea and Cora
  const auto mails = PlanMail(state_, reminded[0], kOwner);
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(mails[0].kind, MailKind::kReminder);
  EXPECT_EQ(mails[0].email, "bea@example.com");
  EXPECT_TRUE(mails[0].hosted_link);
}

TEST_F(MailPlanTest, VoidAndDeclineGoToTheirGroups) {
  Send("platform_hosted");
  const auto voided = Plan(Run("VoidContract", R"({"reason": "wrong buyer"})"), "contract.voided");
  EXPECT_EQ(Emails(voided),
            (std::vector<std::string>{"legal@acme.example", "bea@example.com", "sam@example.com",
                                      "cora@example.com", "olga@example.com"}));
  EXPECT_EQ(voided[0].kind, MailKind::kContractVoided);

  state_ = {};
  Send("platform_hosted", R"({"contract.declined": {"recipients": ["signers"]}})");
  const auto declined =
      Plan(Run("RecordSignerDeclined", R"({"participantId": "prt_1"})"), "contract.declined");
  EXPECT_EQ(Emails(declined),
            (std::vector<std::string>{"bea@example.com", "sam@example.com", "cora@example.com"}));
}

TEST_F(MailPlanTest, OnlyHostedSignersWhoseTurnCameWereMailedALink) {
  // Bea and Cora were asked at sending; Sam's turn (order 2) never came; Olga views and the
  // owner signs nothing: only the first two hear that their links stop working.
  Send("platform_hosted");
  const auto voided = Plan(Run("VoidContract", R"({"reason": "wrong buyer"})"), "contract.voided");
  ASSERT_EQ(Emails(voided),
            (std::vector<std::string>{"legal@acme.example", "bea@example.com", "sam@example.com",
                                      "cora@example.com", "olga@example.com"}));
  std::vector<bool> mailed;
  for (const auto& mail : voided) mailed.push_back(mail.mailed_link);
  EXPECT_EQ(mailed, (std::vector<bool>{false, true, false, true, false}));

  // Signing requests turned off: nobody was mailed a link.
  state_ = {};
  Send("platform_hosted", R"({"contract.sent": {"enabled": false}})");
  for (const auto& mail :
       Plan(Run("VoidContract", R"({"reason": "wrong buyer"})"), "contract.voided")) {
    EXPECT_FALSE(mail.mailed_link) << mail.email;
  }

  // Sam signs where the integrator hosts it: his turn comes, but no link is mailed to him.
  state_ = {};
  Send("integrator_managed");
  Sign("prt_1");
  Sign("prt_3");
  for (const auto& mail :
       Plan(Run("VoidContract", R"({"reason": "wrong buyer"})"), "contract.voided")) {
    EXPECT_EQ(mail.mailed_link, mail.email == "bea@example.com" || mail.email == "cora@example.com")
        << mail.email;
  }
}

TEST_F(MailPlanTest, AVoidedDraftMailsTheOwnerOnly) {
  Send("platform_hosted", R"({"contract.voided": {"recipients": ["owner", "signers", "viewers",
                                                                  "copy_recipients"]}})",
       /*send_now=*/false);
  ASSERT_FALSE(state_.sent_at);
  const auto events = Run("VoidContract", R"({"reason": "Click http://phish.example"})");
  EXPECT_EQ(Emails(Plan(events, "contract.voided")),
            (std::vector<std::string>{"legal@acme.example"}));
  EXPECT_TRUE(Plan(events, "contract.voided", std::nullopt).empty());
}

TEST_F(MailPlanTest, DisabledEventsAndEventsWithoutMailPlanNothing) {
  Send("platform_hosted", R"({"contract.voided": {"enabled": false}})");
  EXPECT_TRUE(Plan(Run("VoidContract", R"({"reason": "x"})"), "contract.voided").empty());
  EXPECT_TRUE(PlanMail(state_, DomainEvent{"contract.prepared", {}}, kOwner).empty());
}

}  // namespace
}  // namespace esign
