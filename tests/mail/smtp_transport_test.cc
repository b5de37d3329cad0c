// SmtpTransport against a real SMTP server no one here wrote (smtp_server.mjs: smtp-server, with
// mailparser reading back what arrived), on loopback.
#include "mail/smtp_transport.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "base/sha256.h"
#include "mail/mail_message.h"
#include "tests/mail/mail_test_support.h"
#include "tests/mail/test_smtp_server.h"
#include "tests/support/child_process.h"
#include "tests/support/eventually.h"
#include "tests/support/shell.h"
#include "tests/support/temp_dir.h"

namespace esign::mail {
namespace {

using testing::FreePort;
using testing::TestSmtpServer;

using delivery::AttemptOutcome;
using esign::testing::RunShell;
using esign::testing::TempDir;
using testing::ReadFile;

constexpr std::string_view kFrom = "contracts@example.com";
constexpr std::string_view kTo = "bob@example.org";

std::string Str(const boost::json::value& value) {
  return value.is_string() ? std::string(value.as_string()) : boost::json::serialize(value);
}

std::string Pdf() {
  std::string pdf = "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n";
  for (int i = 0; i < 3000; ++i) pdf += static_cast<char>((i * 37) % 256);
  return pdf + "\n%%EOF\n";
}

MailMessage Message(std::string subject) {
  MailMessage message;
  message.from_address = std::string(kFrom);
  message.from_name = "Acme Contracts";
  message.to_address = std::string(kTo);
  message.to_name = "Bob";
  message.subject = std::move(subject);
  message.text = "Hello Bob,\n\nPlease sign: https://sign.example.com/s/abc\n";
  message.html = "<p>Hello Bob,</p><p><a href=\"https://sign.example.com/s/abc\">Sign</a></p>";
  message.message_id = "evt_1.bob@contracts.example.com";
  message.date_us = int64_t{1'700'000'000} * 1'000'000;
  return message;
}

class SmtpTransportTest : public ::testing::Test {
 protected:
  // One self-signed certificate for 127.0.0.1 and localhost, made with the openssl command.
  static void SetUpTestSuite() {
    certificates_ = new TempDir();
    const std::string dir = certificates_->path();
    const auto made = RunShell(std::string(OPENSSL_EXECUTABLE) +
                               " req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
                               " -days 2 -subj /CN=127.0.0.1 -addext "
                               "subjectAltName=IP:127.0.0.1,DNS:localhost -keyout " +
                               dir + "/key.pem -out " + dir + "/cert.pem 2>&1");
    ASSERT_EQ(made.exit_code, 0) << made.out;
  }
  static void TearDownTestSuite() {
    delete certificates_;
    certificates_ = nullptr;
  }
  static std::vector<std::string> TlsFlags() {
    return {"--tls-key", certificates_->path() + "/key.pem", "--tls-cert",
            certificates_->path() + "/cert.pem"};
  }
  static std::string CaFile() { return certificates_->path() + "/cert.pem"; }
  static SmtpOptions Options(std::string url) {
    SmtpOptions options;
    options.url = std::move(url);
    options.timeout = std::chrono::seconds(10);
    return options;
  }

  static TempDir* certificates_;
};
TempDir* SmtpTransportTest::certificates_ = nullptr;

TEST_F(SmtpTransportTest, DeliversInClearOnLoopbackAndMailparserReadsIt) {
  TestSmtpServer server({});
  SmtpTransport transport(Options(server.Url()));
  EXPECT_EQ(transport.Describe(), "SMTP " + server.Url() + " (STARTTLS when offered, no AUTH)");
  ASSERT_TRUE(transport.Check()) << transport.Check().error().message;
  EXPECT_EQ(server.Count(), 0u);  // Check sends nothing

  MailMessage message = Message("Bitte unterschreiben: Mietvertrag f\u00FCr J\u00F6rg \u2713");
  const std::string pdf = Pdf();
  message.attachments.push_back({"signed-contract.pdf", "application/pdf", pdf});
  const std::string mime = RenderMime(message);
  const AttemptOutcome outcome = transport.Send(kFrom, kTo, mime);
  ASSERT_EQ(outcome.kind, AttemptOutcome::Kind::kDelivered) << outcome.reply;
  EXPECT_EQ(outcome.code, 250);
  EXPECT_EQ(outcome.reply, "Message queued");

  const boost::json::object parsed = server.Message(1);
  EXPECT_EQ(Str(parsed.at("envelope").at("from")), kFrom);
  EXPECT_EQ(Str(parsed.at("envelope").at("to").as_array().at(0)), kTo);
  EXPECT_EQ(Str(parsed.at("subject")), message.subject);
  EXPECT_EQ(Str(parsed.at("messageId")), "<evt_1.bob@contracts.example.com>");
  EXPECT_EQ(Str(parsed.at("from")),
            "\"Acme Contracts\" <contracts@example.com>");  // as mailparser writes it
  EXPECT_EQ(Str(parsed.at("date")), "2023-11-14T22:13:20.000Z");
  EXPECT_EQ(Str(parsed.at("text")), "Hello Bob,\n\nPlease sign: https://sign.example.com/s/abc");
  EXPECT_EQ(Str(parsed.at("html")), message.html);
  EXPECT_EQ(Str(parsed.at("headers").at("auto-submitted")), "auto-generated");
  EXPECT_FALSE(parsed.at("headers").as_object().contains("list-unsubscribe"));
  const auto& attachments = parsed.at("attachments").as_array();
  ASSERT_EQ(attachments.size(), 1u);
  EXPECT_EQ(Str(attachments[0].at("filename")), "signed-contract.pdf");
  EXPECT_EQ(Str(attachments[0].at("contentType")), "application/pdf");
  EXPECT_EQ(attachments[0].at("size").to_number<size_t>(), pdf.size());
  EXPECT_EQ(Str(attachments[0].at("sha256")), Sha256Hex(pdf));
  // The server received exactly the rendered bytes.
  EXPECT_EQ(server.Raw(1), mime);
}

TEST_F(SmtpTransportTest, StartTlsWithAuthAndATrustedCertificate) {
  std::vector<std::string> flags = TlsFlags();
  flags.insert(flags.end(), {"--require-tls", "--auth", "alice:s3cret"});
  TestSmtpServer server(flags);
  SmtpOptions options = Options(server.Url());
  options.user = "alice";
  options.password = "s3cret";
  options.ca_file = CaFile();
  SmtpTransport transport(options);
  EXPECT_EQ(transport.Describe(), "SMTP " + server.Url() + " (STARTTLS required, user alice)");
  EXPECT_EQ(transport.Describe().find("s3cret"), std::string::npos);
  ASSERT_TRUE(transport.Check()) << transport.Check().error().message;
  const AttemptOutcome outcome = transport.Send(kFrom, kTo, RenderMime(Message("Over TLS")));
  ASSERT_EQ(outcome.kind, AttemptOutcome::Kind::kDelivered) << outcome.reply;
  EXPECT_EQ(Str(server.Message(1).at("subject")), "Over TLS");

  // Certificates are always verified: without the test CA the handshake fails.
  options.ca_file = "";
  SmtpTransport untrusting(options);
  const Status checked = untrusting.Check();
  ASSERT_FALSE(checked);
  EXPECT_TRUE(
      checked.error().message.starts_with("TLS handshake with " + server.Url() + " failed: "))
      << checked.error().message;
  const AttemptOutcome refused = untrusting.Send(kFrom, kTo, RenderMime(Message("No")));
  EXPECT_EQ(refused.kind, AttemptOutcome::Kind::kRetry);
  EXPECT_EQ(refused.code, 0);
  EXPECT_EQ(server.Count(), 1u);
}

TEST_F(SmtpTransportTest, ImplicitTls) {
  std::vector<std::string> flags = TlsFlags();
  flags.push_back("--implicit-tls");
  TestSmtpServer server(flags);
  SmtpOptions options = Options(server.Url("smtps"));
  options.ca_file = CaFile();
  SmtpTransport transport(options);
  EXPECT_EQ(transport.Describe(), "SMTP " + server.Url("smtps") + " (TLS, no AUTH)");
  ASSERT_TRUE(transport.Check()) << transport.Check().error().message;
  EXPECT_EQ(transport.Send(kFrom, kTo, RenderMime(Message("smtps"))).kind,
            AttemptOutcome::Kind::kDelivered);
  EXPECT_EQ(Str(server.Message(1).at("subject")), "smtps");
}

TEST_F(SmtpTransportTest, RejectedAuthenticationIsSaidAndRetried) {
  std::vector<std::string> flags = TlsFlags();
  flags.insert(flags.end(), {"--auth", "alice:s3cret"});
  TestSmtpServer server(flags);
  SmtpOptions options = Options(server.Url());
  options.user = "alice";
  options.password = "wrong";
  options.ca_file = CaFile();
  SmtpTransport transport(options);
  const Status checked = transport.Check();
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error().message, "authentication as alice rejected by " + server.Url() +
                                         ": 535 5.7.8 Authentication credentials invalid");
  const AttemptOutcome outcome = transport.Send(kFrom, kTo, RenderMime(Message("x")));
  EXPECT_EQ(outcome.kind, AttemptOutcome::Kind::kRetry);
  EXPECT_EQ(outcome.code, 535);
  EXPECT_EQ(outcome.reply, checked.error().message);
  EXPECT_EQ(server.Count(), 0u);
}

TEST_F(SmtpTransportTest, NoPasswordInClearWhenTheServerOffersNoStartTls) {
  TestSmtpServer server({"--auth", "alice:s3cret"});
  SmtpOptions options = Options(server.Url());
  options.user = "alice";
  options.password = "s3cret";
  SmtpTransport transport(options);
  const Status checked = transport.Check();
  ASSERT_FALSE(checked);
  EXPECT_TRUE(checked.error().message.starts_with(
      server.Url() + " does not offer STARTTLS, which is required before the password is sent"))
      << checked.error().message;
  const AttemptOutcome outcome = transport.Send(kFrom, kTo, RenderMime(Message("x")));
  EXPECT_EQ(outcome.kind, AttemptOutcome::Kind::kRetry);
  EXPECT_EQ(outcome.reply, checked.error().message);
  EXPECT_EQ(server.Count(), 0u);
}

TEST_F(SmtpTransportTest, TemporaryRefusalIsRetriedThenDelivered) {
  TestSmtpServer server({"--replies-rcpt", "451"});
  SmtpTransport transport(Options(server.Url()));
  const std::string mime = RenderMime(Message("Retried"));
  const AttemptOutcome first = transport.Send(kFrom, kTo, mime);
  EXPECT_EQ(first.kind, AttemptOutcome::Kind::kRetry);
  EXPECT_EQ(first.code, 451);
  EXPECT_EQ(first.reply, "4.3.0 Local error in processing, try again later");
  const AttemptOutcome second = transport.Send(kFrom, kTo, mime);
  EXPECT_EQ(second.kind, AttemptOutcome::Kind::kDelivered) << second.reply;
  EXPECT_EQ(second.code, 250);
  EXPECT_EQ(Str(server.Message(1).at("subject")), "Retried");
  EXPECT_EQ(server.Count(), 1u);
}

TEST_F(SmtpTransportTest, PermanentRefusalFailsTheMessage) {
  TestSmtpServer server({"--replies-rcpt", "550", "--replies-data", "554"});
  SmtpTransport transport(Options(server.Url()));
  const std::string mime = RenderMime(Message("Refused"));
  const AttemptOutcome to_recipient = transport.Send(kFrom, kTo, mime);
  EXPECT_EQ(to_recipient.kind, AttemptOutcome::Kind::kFailed);
  EXPECT_EQ(to_recipient.code, 550);
  EXPECT_EQ(to_recipient.reply, "5.1.1 Mailbox unavailable: no such user here");
  const AttemptOutcome to_data = transport.Send(kFrom, kTo, mime);
  EXPECT_EQ(to_data.kind, AttemptOutcome::Kind::kFailed);
  EXPECT_EQ(to_data.code, 554);
  EXPECT_EQ(to_data.reply, "5.7.1 Message rejected as spam");
  EXPECT_EQ(server.Count(), 0u);
  EXPECT_EQ(transport.Send(kFrom, kTo, mime).kind, AttemptOutcome::Kind::kDelivered);
}

TEST_F(SmtpTransportTest, ServerDownIsSaidPlainly) {
  const std::string url = "smtp://127.0.0.1:" + std::to_string(FreePort());
  SmtpTransport transport(Options(url));
  const Status checked = transport.Check();
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error().message, "cannot connect to " + url + ": Connection refused");
  const AttemptOutcome outcome = transport.Send(kFrom, kTo, RenderMime(Message("x")));
  EXPECT_EQ(outcome.kind, AttemptOutcome::Kind::kRetry);
  EXPECT_EQ(outcome.code, 0);
  EXPECT_EQ(outcome.reply, checked.error().message);

  SmtpTransport unknown(Options("smtp://no-such-host.invalid:25"));
  const Status resolved = unknown.Check();
  ASSERT_FALSE(resolved);
  EXPECT_EQ(resolved.error().message,
            "cannot connect to smtp://no-such-host.invalid:25: no such host");
}

TEST_F(SmtpTransportTest, SeveralThreadsSendAtOnce) {
  TestSmtpServer server({});
  SmtpTransport transport(Options(server.Url()));
  std::vector<std::jthread> threads;
  std::atomic<int> delivered = 0;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2; ++i) {
        const std::string subject = "t" + std::to_string(t) + "m" + std::to_string(i);
        if (transport.Send(kFrom, kTo, RenderMime(Message(subject))).kind ==
            AttemptOutcome::Kind::kDelivered) {
          ++delivered;
        }
      }
    });
  }
  threads.clear();
  EXPECT_EQ(delivered, 8);
  server.Message(8);
  EXPECT_EQ(server.Count(), 8u);
}

TEST(SmtpTransportRulesTest, TlsIsRequiredUnlessLoopbackWithoutUser) {
  using Tls = SmtpTransport::Tls;
  const auto tls = [](std::string url, std::string user) {
    return SmtpTransport(SmtpOptions{.url = std::move(url), .user = std::move(user)}).tls();
  };
  EXPECT_EQ(tls("smtps://mail.example.com", ""), Tls::kImplicit);
  EXPECT_EQ(tls("smtp://mail.example.com:587", ""), Tls::kRequired);
  EXPECT_EQ(tls("smtp://127.0.0.1:25", "alice"), Tls::kRequired);
  EXPECT_EQ(tls("smtp://127.0.0.1:2525", ""), Tls::kWhenOffered);
  EXPECT_EQ(tls("smtp://localhost", ""), Tls::kWhenOffered);
  EXPECT_EQ(tls("smtp://[::1]:25", ""), Tls::kWhenOffered);
  EXPECT_EQ(tls("smtp://127.0.0.1.example.com", ""), Tls::kRequired);

  EXPECT_EQ(
      SmtpTransport(
          SmtpOptions{.url = "smtp://mail.example.com:587", .user = "alice", .password = "pw"})
          .Describe(),
      "SMTP smtp://mail.example.com:587 (STARTTLS required, user alice)");
  EXPECT_EQ(SmtpTransport(SmtpOptions{.url = "smtp://mail.example.com"}).Describe(),
            "SMTP smtp://mail.example.com:25 (STARTTLS required, no AUTH)");
}

TEST(SmtpTransportRulesTest, BadUrlsAndEnvelopesAreRefusedWithoutConnecting) {
  for (const std::string url : {"http://mail.example.com", "mail.example.com:25", "smtp://",
                                "smtp://bob:pw@mail.example.com"}) {
    SmtpTransport transport(SmtpOptions{.url = url});
    const Status checked = transport.Check();
    ASSERT_FALSE(checked) << url;
    EXPECT_EQ(checked.error().code, ErrorCode::kValidationFailed);
    EXPECT_EQ(transport.Describe().find("pw"), std::string::npos);
    EXPECT_EQ(transport.Send(kFrom, kTo, "x").kind, AttemptOutcome::Kind::kRetry);
  }
  SmtpTransport transport(SmtpOptions{.url = "smtp://127.0.0.1:" + std::to_string(FreePort())});
  for (const std::string to :
       {"", "bob@example.org>\r\nRCPT TO:<eve@example.net", "bob @example.org"}) {
    const AttemptOutcome outcome = transport.Send(kFrom, to, "x");
    EXPECT_EQ(outcome.kind, AttemptOutcome::Kind::kFailed) << to;
    EXPECT_EQ(outcome.reply, "invalid envelope address");
  }
}

}  // namespace
}  // namespace esign::mail
