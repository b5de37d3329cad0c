#include "mail/mail_content.h"

#include <gtest/gtest.h>

#include <string>

namespace esign::mail {
namespace {

MailContext Context(MailKind kind) {
  MailContext context;
  context.kind = kind;
  context.recipient_name = "Bob";
  context.contract_title = "Lease 2026";
  context.organization_name = "Acme";
  context.link = "https://sign.example.com/sign/ctr_1?token=abc&x=1";
  context.code = "042917";
  context.reason = "Wrong address";
  return context;
}

struct KindCase {
  MailKind kind;
  std::string subject;
};

class ComposeMailKindTest : public ::testing::TestWithParam<KindCase> {};

TEST_P(ComposeMailKindTest, SubjectTitleAndSenderInBothParts) {
  const MailText mail = ComposeMail(Context(GetParam().kind));
  EXPECT_EQ(mail.subject, GetParam().subject);
  for (const std::string* part : {&mail.text, &mail.html}) {
    EXPECT_NE(part->find("Lease 2026"), std::string::npos) << *part;
    EXPECT_NE(part->find("Acme"), std::string::npos) << *part;
    EXPECT_NE(part->find("Hello Bob,"), std::string::npos) << *part;
  }
  EXPECT_TRUE(mail.html.starts_with("<!DOCTYPE html>"));
  EXPECT_EQ(mail.html.find("<style"), std::string::npos);  // inline styles only
  const bool carries_link =
      GetParam().kind == MailKind::kSigningRequest || GetParam().kind == MailKind::kReminder;
  // Nothing secret but the recipient's own link or code.
  EXPECT_EQ(mail.text.find("token=abc") != std::string::npos, carries_link) << mail.text;
  EXPECT_EQ(mail.html.find("token=abc") != std::string::npos, carries_link);
  const bool carries_code = GetParam().kind == MailKind::kAuthenticationCode;
  EXPECT_EQ(mail.text.find("042917") != std::string::npos, carries_code);
  EXPECT_EQ(mail.html.find("042917") != std::string::npos, carries_code);
}

INSTANTIATE_TEST_SUITE_P(
    EveryKind, ComposeMailKindTest,
    ::testing::Values(KindCase{MailKind::kSigningRequest, "Please sign: Lease 2026"},
                      KindCase{MailKind::kReminder, "Reminder: please sign Lease 2026"},
                      KindCase{MailKind::kSignerCompleted, "Lease 2026: a signer signed"},
                      KindCase{MailKind::kContractCompleted, "Signed by everyone: Lease 2026"},
                      KindCase{MailKind::kContractDeclined, "Declined: Lease 2026"},
                      KindCase{MailKind::kContractVoided, "Withdrawn: Lease 2026"},
                      KindCase{MailKind::kContractExpired, "Expired: Lease 2026"},
                      KindCase{MailKind::kAuthenticationCode, "Your code to open Lease 2026"}));

TEST(ComposeMailTest, SigningRequestHasAButtonAndThePlainLink) {
  MailContext context = Context(MailKind::kSigningRequest);
  context.message = "Please sign by Friday.\nThanks, Alice";
  context.expires_at = "2026-03-01T12:00:00Z";
  const MailText mail = ComposeMail(context);
  EXPECT_NE(mail.text.find("https://sign.example.com/sign/ctr_1?token=abc&x=1\n"),
            std::string::npos);
  EXPECT_NE(mail.html.find("<a href=\"https://sign.example.com/sign/ctr_1?token=abc&amp;x=1\" "
                           "style=\"display:inline-block;"),
            std::string::npos);
  EXPECT_NE(mail.text.find("> Please sign by Friday.\n> Thanks, Alice"), std::string::npos);
  EXPECT_NE(mail.html.find("Please sign by Friday.<br>\nThanks, Alice"), std::string::npos);
  EXPECT_NE(mail.text.find("1 March 2026, 12:00 UTC"), std::string::npos);
  EXPECT_NE(mail.html.find("1 March 2026, 12:00 UTC"), std::string::npos);
}

TEST(ComposeMailTest, BrandingColoursTheButtonAndShowsTheLogo) {
  MailContext context = Context(MailKind::kSigningRequest);
  const MailText plain = ComposeMail(context);
  EXPECT_EQ(plain.html.find("<img"), std::string::npos);
  EXPECT_EQ(plain.html.find("#0b6e4f"), std::string::npos);
  context.accent_color = "#0b6e4f";
  context.logo_content_id = "logo.abc@contractd";
  const MailText branded = ComposeMail(context);
  EXPECT_NE(branded.html.find("background-color:#0b6e4f"), std::string::npos);
  EXPECT_NE(branded.html.find("<img src=\"cid:logo.abc@contractd\""), std::string::npos);
  EXPECT_EQ(branded.text, plain.text);
}

TEST(ComposeMailTest, ConfiguredSubjectIsUsed) {
  MailContext context = Context(MailKind::kSigningRequest);
  context.subject = "Your lease Lease 2026 is ready";
  EXPECT_EQ(ComposeMail(context).subject, "Your lease Lease 2026 is ready");
}

TEST(ComposeMailTest, ClientValuesAreEscapedInHtml) {
  MailContext context = Context(MailKind::kSigningRequest);
  context.contract_title = "<script>alert('t')</script>";
  context.recipient_name = "<img src=x onerror=alert(1)>";
  context.organization_name = "A & \"B\"";
  context.message = "</blockquote><script>m()</script>";
  const MailText mail = ComposeMail(context);
  EXPECT_EQ(mail.html.find("<script"), std::string::npos);
  EXPECT_EQ(mail.html.find("<img"), std::string::npos);
  EXPECT_NE(mail.html.find("&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(mail.html.find("A &amp; &quot;B&quot;"), std::string::npos);
  EXPECT_NE(mail.html.find("&lt;/blockquote&gt;&lt;script&gt;m()"), std::string::npos);
  // The plain text says it as written.
  EXPECT_NE(mail.text.find("<script>alert('t')</script>"), std::string::npos);

  MailContext declined = Context(MailKind::kContractDeclined);
  declined.reason = "<b>no</b>";
  EXPECT_NE(ComposeMail(declined).html.find("&lt;b&gt;no&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(ComposeMail(declined).html.find("<b>"), std::string::npos);
}

TEST(ComposeMailTest, ReminderSaysItIsOne) {
  const MailText mail = ComposeMail(Context(MailKind::kReminder));
  EXPECT_NE(mail.text.find("reminder"), std::string::npos);
  EXPECT_NE(mail.html.find("reminder"), std::string::npos);
}

TEST(ComposeMailTest, CodeMailSaysHowLongAndToIgnoreIt) {
  MailContext context = Context(MailKind::kAuthenticationCode);
  context.code_valid_minutes = 10;
  const MailText mail = ComposeMail(context);
  for (const std::string* part : {&mail.text, &mail.html}) {
    EXPECT_NE(part->find("valid for 10 minutes"), std::string::npos);
    EXPECT_NE(part->find("If you did not ask for this code, ignore this email"), std::string::npos);
  }
}

TEST(ComposeMailTest, ReasonAndAttachmentAreMentionedWhenThere) {
  MailContext voided = Context(MailKind::kContractVoided);
  EXPECT_NE(ComposeMail(voided).text.find("Wrong address"), std::string::npos);
  voided.reason = "";
  EXPECT_EQ(ComposeMail(voided).text.find("reason"), std::string::npos);

  MailContext completed = Context(MailKind::kContractCompleted);
  completed.signed_pdf_attached = true;
  EXPECT_NE(ComposeMail(completed).text.find("attached"), std::string::npos);
  completed.signed_pdf_attached = false;
  EXPECT_EQ(ComposeMail(completed).text.find("attached"), std::string::npos);
}

TEST(ComposeMailTest, SignerCompletedNamesTheSigner) {
  MailContext context = Context(MailKind::kSignerCompleted);
  context.signer_name = "Ada Lovelace";
  context.signer_email = "ada@acme.example";
  const MailText mail = ComposeMail(context);
  EXPECT_NE(mail.text.find("Ada Lovelace (ada@acme.example) has signed"), std::string::npos)
      << mail.text;
  EXPECT_NE(mail.html.find("Ada Lovelace (ada@acme.example) has signed"), std::string::npos);
}

TEST(ComposeMailTest, OnlyASignerMailedALinkIsToldItStopsWorking) {
  MailContext context = Context(MailKind::kContractVoided);
  context.mailed_link = false;
  EXPECT_EQ(ComposeMail(context).text.find("link"), std::string::npos);
  context.mailed_link = true;
  EXPECT_NE(ComposeMail(context).text.find("its signing links no longer work"), std::string::npos);
}

TEST(ComposeMailTest, EveryTimeSaysItsZone) {
  for (MailKind kind :
       {MailKind::kSigningRequest, MailKind::kReminder, MailKind::kAuthenticationCode}) {
    MailContext context = Context(kind);
    context.expires_at = "2026-11-21T05:35:00.000000Z";
    const MailText mail = ComposeMail(context);
    EXPECT_NE(mail.text.find("21 November 2026, 05:35 UTC"), std::string::npos) << mail.text;
  }
}

TEST(ComposeMailTest, WithoutNamesTheWordsStillRead) {
  MailContext context = Context(MailKind::kSigningRequest);
  context.recipient_name = "";
  context.organization_name = "";
  const MailText mail = ComposeMail(context);
  EXPECT_TRUE(mail.text.starts_with("Hello,\n"));
  EXPECT_NE(mail.text.find("The sender asks you to sign"), std::string::npos);
}

}  // namespace
}  // namespace esign::mail
