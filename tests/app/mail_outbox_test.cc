// The e-mail outbox end to end (DESIGN section 15): contractd mails through a real SMTP server no
// one here wrote (tests/mail/smtp_server.mjs), or writes .eml files when it has none; a reply of
// 451 is retried, one of 550 fails the message for good, a server that is down at start is said
// so in the log and used once it is up, and a message pending when contractd is killed is sent
// once after it restarts. GET /contracts/{id}/notifications shows each message as recorded.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "tests/app/contractd_fixture.h"
#include "tests/mail/test_smtp_server.h"
#include "tests/support/eventually.h"

namespace esign::testing {
namespace {

using mail::testing::FreePort;
using mail::testing::TestSmtpServer;
using std::chrono::seconds;

constexpr const char* kAda = "ada@acme.example";  // the hosted signer of the example NDA

class MailOutboxTest : public RestartedServerFixture {
 protected:
  MailOutboxTest()
      : RestartedServerFixture("org_m",
                               "contracts:read,contracts:create,contracts:update,contracts:send,"
                               "signing:manage") {}
  void TearDown() override {
    if (server_) StopServer(*server_);
    RestartedServerFixture::TearDown();
  }
  void Start(std::vector<std::string> extra = {}) { StartAndLogIn(std::move(extra)); }

  // The example NDA, sent at once.
  static boost::json::object Nda() {
    std::ifstream in(std::string(SOURCE_DIR) + "/examples/requests/create-nda.json");
    std::stringstream text;
    text << in.rdbuf();
    auto body = boost::json::parse(text.str()).as_object();
    body["sendNow"] = true;
    return body;
  }
  std::string Create(const boost::json::object& body) {
    auto created =
        HttpClient(port_).Post("/api/v1/contracts", boost::json::serialize(body), Auth());
    EXPECT_EQ(created.status, 201) << created.body;
    return created.status == 201 ? std::string(created.Json().at("id").as_string()) : "";
  }
  // The example NDA with these notification settings.
  std::string SendNda(const boost::json::object& notifications = {}) {
    auto body = Nda();
    if (!notifications.empty()) body["notifications"] = notifications;
    return Create(body);
  }
  // The example NDA with its hosted signer at `email`.
  std::string SendNdaTo(const std::string& email) {
    auto body = Nda();
    body["participants"].as_array()[0].as_object()["email"] = email;
    return Create(body);
  }

  // The messages written to <data-dir>/outbox.
  size_t EmlFiles() const {
    const auto files = std::filesystem::directory_iterator(data_dir_ / "outbox");
    return static_cast<size_t>(std::distance(begin(files), end(files)));
  }

  // The value of one series of /metrics.
  std::string Metric(const std::string& series) {
    const std::string metrics = HttpClient(port_).Get("/metrics").body;
    const size_t at = metrics.find("\n" + series + " ");
    if (at == std::string::npos) return "absent";
    const size_t start = at + series.size() + 2;
    return metrics.substr(start, metrics.find('\n', start) - start);
  }

  boost::json::array Notifications(const std::string& id) {
    auto listed = HttpClient(port_).Get("/api/v1/contracts/" + id + "/notifications", Auth());
    EXPECT_EQ(listed.status, 200) << listed.body;
    return listed.status == 200 ? listed.Json().at("items").as_array() : boost::json::array();
  }
  // The contract's one message to `email`, once it has reached `state` after `attempts` or more.
  boost::json::object MessageTo(const std::string& id, const std::string& email,
                                const std::string& state, int64_t attempts = 0) {
    boost::json::object found;
    EXPECT_TRUE(Eventually(
        [&] {
          for (const auto& item : Notifications(id)) {
            if (item.at("recipient").at("email").as_string() == email &&
                item.at("state").as_string() == state &&
                item.at("attempts").to_number<int64_t>() >= attempts) {
              found = item.as_object();
              return true;
            }
          }
          return false;
        },
        seconds(30)))
        << "no " << state << " message to " << email << ": "
        << boost::json::serialize(Notifications(id));
    return found;
  }

  // The .eml file of a message written to <data-dir>/outbox.
  std::string Eml(const boost::json::object& message) {
    const std::string id(message.at("messageId").as_string());
    std::ifstream in(data_dir_ / "outbox" / (id.substr(1, id.size() - 2) + ".eml"));
    std::stringstream eml;
    eml << in.rdbuf();
    return eml.str();
  }
  // The text/plain part of a message, decoded.
  static std::string PlainText(const std::string& eml) {
    const std::string start =
        "Content-Type: text/plain; charset=UTF-8\r\n"
        "Content-Transfer-Encoding: quoted-printable\r\n\r\n";
    const size_t at = eml.find(start);
    if (at == std::string::npos) return "";
    const size_t from = at + start.size();
    const size_t end = eml.find("\r\n--=_", from);
    return mail::testing::DecodeQuotedPrintable(
        std::string_view(eml).substr(from, end == std::string::npos ? end : end - from));
  }
  // The contract's messages of `kind`, once there are `count` of them.
  std::vector<boost::json::object> OfKind(const std::string& id, const std::string& kind,
                                          size_t count) {
    std::vector<boost::json::object> found;
    Eventually(
        [&] {
          found.clear();
          for (const auto& item : Notifications(id)) {
            if (item.at("kind").as_string() == kind && item.at("state").as_string() == "sent") {
              found.push_back(item.as_object());
            }
          }
          return found.size() >= count;
        },
        seconds(30));
    EXPECT_EQ(found.size(), count) << kind;
    return found;
  }
};

TEST_F(MailOutboxTest, WithoutAMailServerMessagesAreEmlFilesNamedInTheBanner) {
  ASSERT_EQ(RunContractd({"organizations", "set", "--data-dir", data_dir_.string(), "--org",
                          "org_m", "--email", "legal@acme.example", "--name", "Acme GmbH"})
                .exit_code,
            0);
  Start();
  const std::string outbox = (data_dir_ / "outbox").string();
  EXPECT_NE(server_->output().find("e-mail: files in " + outbox), std::string::npos)
      << server_->output();

  const std::string id =
      SendNda(boost::json::object{{"contract.sent", {{"subject", "Please sign {{title}} today"}}},
                                  {"contract.voided", {{"recipients", {"owner", "signers"}}}}});
  const auto request = MessageTo(id, kAda, "sent");
  EXPECT_EQ(request.at("kind"), "signing_request");
  EXPECT_EQ(request.at("attempts"), 1);
  EXPECT_EQ(request.at("lastReply").at("code"), 250);
  // The file is named by the Message-ID, and the link in it opens the signer's session.
  std::string message_id(request.at("messageId").as_string());
  const std::string file = outbox + "/" + message_id.substr(1, message_id.size() - 2) + ".eml";
  ASSERT_TRUE(std::filesystem::exists(file)) << file;
  std::ifstream in(file);
  std::stringstream eml;
  eml << in.rdbuf();
  EXPECT_NE(eml.str().find("Message-ID: " + message_id), std::string::npos);
  std::smatch link;
  const std::string text = eml.str();
  ASSERT_TRUE(std::regex_search(text, link, std::regex(R"(/sign/([A-Za-z0-9_-]{43}))")));
  auto hosted = HttpClient(port_).Get("/api/v1/hosted-signing/" + link[1].str());
  EXPECT_EQ(hosted.status, 200) << hosted.body;
  EXPECT_EQ(hosted.Json().at("contractId").as_string(), id);
  // The subject of the contract.sent settings, its title substituted (encoded when long).
  const std::string subject = mail::testing::Header(text, "Subject:");
  EXPECT_EQ(subject.find("=?") == std::string::npos ? subject
                                                    : mail::testing::DecodeEncodedWords(subject),
            "Please sign Mutual NDA: Acme and Globex today");
  // From names the organization (organizations set --name) by way of the service.
  const std::string from = mail::testing::Header(text, "From:");
  EXPECT_EQ(from.substr(0, from.find(" <")), "Acme GmbH via Contract signing") << from;
  // Only the hosted signer is mailed a link: Grace signs in the integrator's application.
  EXPECT_EQ(Notifications(id).size(), 1u);

  // A reminder mails the same link again.
  auto reminded = HttpClient(port_).Post("/api/v1/contracts/" + id + "/remind", "", Auth());
  ASSERT_EQ(reminded.status, 200) << reminded.body;
  const auto reminders = OfKind(id, "reminder", 1);
  ASSERT_EQ(reminders.size(), 1u);
  EXPECT_EQ(reminders[0].at("recipient").at("email").as_string(), kAda);
  EXPECT_NE(Eml(reminders[0]).find("/sign/" + link[1].str()), std::string::npos);

  // Voiding mails the owner (the organization's address) and both signers.
  auto voided = HttpClient(port_).Post("/api/v1/contracts/" + id + "/void",
                                       R"({"reason":"Wrong counterparty"})", Auth());
  ASSERT_EQ(voided.status, 200) << voided.body;
  const auto owner = MessageTo(id, "legal@acme.example", "sent");
  EXPECT_EQ(owner.at("kind"), "contract_voided");
  EXPECT_TRUE(owner.at("recipient").at("participantId").is_null());
  MessageTo(id, "grace@globex.example", "sent");
  // Only Ada was mailed a link, so only she is told it stops working.
  for (const auto& message : OfKind(id, "contract_voided", 3)) {
    std::string body = PlainText(Eml(message));
    // As one line with single spaces, however the text was wrapped.
    std::replace_if(
        body.begin(), body.end(), [](char c) { return c == '\r' || c == '\n'; }, ' ');
    body.erase(
        std::unique(body.begin(), body.end(), [](char a, char b) { return a == ' ' && b == ' '; }),
        body.end());
    const bool told = body.find("links no longer work") != std::string::npos;
    EXPECT_EQ(told, message.at("recipient").at("email") == kAda) << body;
  }
  // The request and the reminder, then the void to three addresses.
  EXPECT_EQ(Notifications(id).size(), 5u);

  // Without its records (a log from before e-mail), the outbox mails nothing of the past, and
  // goes on with what comes.
  StopServer(*server_);
  std::filesystem::remove_all(data_dir_ / "mail");
  std::filesystem::remove_all(data_dir_ / "outbox");
  Start();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_TRUE(Notifications(id).empty());
  EXPECT_FALSE(std::filesystem::exists(data_dir_ / "outbox" / file.substr(outbox.size() + 1)));
  MessageTo(SendNda(), kAda, "sent");

  // Settings that turn the signing request off: no message, and no mailed session either.
  const std::string quiet = SendNda(boost::json::object{{"contract.sent", {{"enabled", false}}}});
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_TRUE(Notifications(quiet).empty());
  auto sessions = HttpClient(port_).Get("/api/v1/contracts/" + quiet + "/signing-sessions", Auth());
  ASSERT_EQ(sessions.status, 200) << sessions.body;
  EXPECT_TRUE(sessions.Json().at("items").as_array().empty()) << sessions.body;
}

// The review's exploit: a draft naming 2 signers and 98 viewers at any addresses, voided with a
// reason that is an advertisement, mailed all 100; 20 of them, 2,100 messages.
TEST_F(MailOutboxTest, MetricsShowTheDeliveriesTimersMemoryAndTheBuild) {
  Start();
  MessageTo(SendNda(), kAda, "sent");
  EXPECT_TRUE(
      Eventually([&] { return Metric("contractd_deliveries_sent_total{channel=\"mail\"}") == "1"; },
                 seconds(10)))
      << Metric("contractd_deliveries_sent_total{channel=\"mail\"}");
  EXPECT_EQ(Metric("contractd_deliveries_pending{channel=\"mail\"}"), "0");
  EXPECT_EQ(Metric("contractd_deliveries_failed_total{channel=\"mail\"}"), "0");
  EXPECT_EQ(Metric("contractd_deliveries_oldest_pending_age_seconds{channel=\"mail\"}"), "0");
  // No webhook endpoint: nothing to deliver there.
  EXPECT_EQ(Metric("contractd_deliveries_pending{channel=\"webhook\"}"), "0");
  EXPECT_EQ(Metric("contractd_deliveries_sent_total{channel=\"webhook\"}"), "0");
  // The NDA's expiry lies ahead.
  EXPECT_EQ(Metric("contractd_timers_due"), "0");
  const double resident = std::stod(Metric("contractd_process_resident_memory_bytes"));
  const double mapped = std::stod(Metric("contractd_process_virtual_memory_bytes"));
  EXPECT_GT(resident, 1e6);
  EXPECT_GT(mapped, resident);

  const std::string metrics = HttpClient(port_).Get("/metrics").body;
  std::smatch build;
  ASSERT_TRUE(std::regex_search(metrics, build,
                                std::regex(R"re(\ncontractd_build_info\{version="([0-9.]+)",)re"
                                           R"re(commit="([0-9a-f]+|unknown)"\} 1\n)re")))
      << metrics;
  const auto version = RunContractd({"--version"});
  EXPECT_EQ(version.out, "contractd " + build[1].str() + " (commit " + build[2].str() + ")\n");
}

TEST_F(MailOutboxTest, VoidingADraftNeverSentMailsNoParticipant) {
  ASSERT_EQ(RunContractd({"organizations", "set", "--data-dir", data_dir_.string(), "--org",
                          "org_m", "--email", "legal@acme.example", "--name", "Acme GmbH"})
                .exit_code,
            0);
  Start();
  auto body = Nda();
  body["sendNow"] = false;
  body["notifications"] = {
      {"contract.voided", {{"recipients", {"owner", "signers", "viewers", "copy_recipients"}}}}};
  auto& participants = body["participants"].as_array();
  participants.pop_back();
  for (int i = 0; i < 98; ++i) {
    participants.push_back({{"action", "view"},
                            {"recipientType", "individual"},
                            {"name", "Victim " + std::to_string(i)},
                            {"email", "victim" + std::to_string(i) + "@example.org"}});
  }
  std::vector<std::string> drafts;
  for (int i = 0; i < 3; ++i) {
    drafts.push_back(Create(body));
    ASSERT_FALSE(drafts.back().empty());
    auto voided =
        HttpClient(port_).Post("/api/v1/contracts/" + drafts.back() + "/void",
                               R"({"reason":"Click http://phish.example to claim"})", Auth());
    ASSERT_EQ(voided.status, 200) << voided.body;
    EXPECT_EQ(voided.Json().at("status"), "voided");
  }
  // A contract sent after them: once its message is recorded, the voids have been read.
  MessageTo(SendNda(), kAda, "sent");
  for (const std::string& id : drafts) {
    const auto messages = Notifications(id);
    ASSERT_EQ(messages.size(), 1u) << boost::json::serialize(messages);
    EXPECT_EQ(messages[0].at("recipient").at("email"), "legal@acme.example");  // the sender's own
    EXPECT_EQ(messages[0].at("kind"), "contract_voided");
  }
  EXPECT_EQ(EmlFiles(), 4u);  // three voids to the owner, one signing request
}

// Hourly limits set small: the messages over them are recorded failed with the reason, never
// sent, counted in /metrics, and the count survives a restart within the hour.
TEST_F(MailOutboxTest, MessagesOverTheHourlyLimitsAreRecordedFailedAndCounted) {
  // Within an hour of the service's clock whatever the test's duration: a minute past the hour.
  const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  const std::vector<std::string> flags = {"--mail-limit-per-recipient",
                                          "2",
                                          "--mail-limit-per-organization",
                                          "3",
                                          "--clock-offset",
                                          std::to_string(3600 - now % 3600 + 60)};
  Start(flags);
  const std::string first = SendNdaTo(kAda);
  const std::string second = SendNdaTo(kAda);
  const std::string third = SendNdaTo(kAda);  // a third to one address: over 2
  MessageTo(first, kAda, "sent");
  MessageTo(second, kAda, "sent");
  const auto refused = MessageTo(third, kAda, "failed");
  EXPECT_EQ(refused.at("attempts"), 1);
  const std::string reply(refused.at("lastReply").at("text").as_string());
  EXPECT_TRUE(reply.starts_with("rate limited: ")) << reply;
  EXPECT_NE(reply.find("2 messages an hour to one address"), std::string::npos) << reply;

  MessageTo(SendNdaTo("bob@acme.example"), "bob@acme.example", "sent");  // the third of org_m
  const auto over = MessageTo(SendNdaTo("carol@acme.example"), "carol@acme.example", "failed");
  EXPECT_NE(over.at("lastReply").at("text").as_string().find("organization's limit of 3"),
            std::string::npos)
      << boost::json::serialize(over);
  EXPECT_EQ(Metric("contractd_mail_suppressed_total{reason=\"recipient_hourly_limit\"}"), "1");
  EXPECT_EQ(Metric("contractd_mail_suppressed_total{reason=\"organization_hourly_limit\"}"), "1");

  StopServer(*server_);
  Start(flags);
  const auto still = MessageTo(SendNdaTo("dave@acme.example"), "dave@acme.example", "failed");
  EXPECT_NE(still.at("lastReply").at("text").as_string().find("organization's limit of 3"),
            std::string::npos);
  EXPECT_EQ(Metric("contractd_mail_suppressed_total{reason=\"organization_hourly_limit\"}"), "1");
  // Three messages went out in all: the two to Ada, the one to Bob.
  EXPECT_EQ(EmlFiles(), 3u);
}

// The review's look-alike: "admín@" was accepted, then written "admn@" in To: while RCPT TO kept
// it. Without SMTPUTF8 such an address is refused where it is given, and nothing is stored.
TEST_F(MailOutboxTest, AnAddressOnlySmtputf8CouldCarryIsRefusedAndNothingStored) {
  Start();
  const std::string events = Metric("contractd_log_events");
  for (const std::string email : {"adm\xC3\xADn@acme.example",
                                  "ada@b\xC3\xBC"
                                  "cher.example"}) {
    auto body = Nda();
    body["participants"].as_array()[0].as_object()["email"] = email;
    auto refused =
        HttpClient(port_).Post("/api/v1/contracts", boost::json::serialize(body), Auth());
    ASSERT_EQ(refused.status, 400) << refused.body;
    const auto error = refused.Json().at("error").as_object();
    EXPECT_EQ(error.at("code"), "VALIDATION_FAILED");
    EXPECT_NE(refused.body.find("participants[0].email"), std::string::npos) << refused.body;
  }
  EXPECT_EQ(Metric("contractd_log_events"), events);
  auto listed = HttpClient(port_).Get("/api/v1/contracts", Auth());
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_TRUE(listed.Json().at("items").as_array().empty()) << listed.body;
}

TEST_F(MailOutboxTest, TheCodeASignerAsksForIsMailedAndOpensTheLink) {
  Start();
  auto body = Nda();
  body["participants"].as_array()[0].as_object()["authentication"] = "email_otp";
  const std::string id = Create(body);
  ASSERT_FALSE(id.empty());
  const std::string request = Eml(MessageTo(id, kAda, "sent"));
  std::smatch link;
  ASSERT_TRUE(std::regex_search(request, link, std::regex(R"(/sign/([A-Za-z0-9_-]{43}))")));
  const std::string hosted = "/api/v1/hosted-signing/" + link[1].str();

  auto asked = HttpClient(port_).Post(hosted + "/authentication/email-code", "");
  ASSERT_EQ(asked.status, 202) << asked.body;
  const auto codes = OfKind(id, "authentication_code", 1);
  ASSERT_EQ(codes.size(), 1u);
  const std::string mailed = Eml(codes[0]);
  std::smatch code;
  ASSERT_TRUE(std::regex_search(mailed, code, std::regex(R"(\n[ \t]*(\d{6})[ \t]*\r?\n)")))
      << mailed;
  auto proven =
      HttpClient(port_).Post(hosted + "/authentication", R"({"code":")" + code[1].str() + "\"}");
  ASSERT_EQ(proven.status, 200) << proven.body;
  EXPECT_FALSE(proven.Json().at("signerProof").as_string().empty());

  // The code is spent: typed again, it is refused and nothing is recorded (no failed attempt).
  const std::string events = Metric("contractd_log_events");
  auto again =
      HttpClient(port_).Post(hosted + "/authentication", R"({"code":")" + code[1].str() + "\"}");
  ASSERT_EQ(again.status, 401) << again.body;
  EXPECT_EQ(again.Json().at("error").at("code"), "SIGNER_AUTHENTICATION_FAILED");
  EXPECT_NE(again.body.find(R"({"field":"code","issue":"spent"})"), std::string::npos)
      << again.body;
  EXPECT_NE(again.body.find(R"({"field":"remainingAttempts","issue":"5"})"), std::string::npos)
      << again.body;
  EXPECT_EQ(Metric("contractd_log_events"), events);
  EXPECT_EQ(HttpClient(port_).Get(hosted).Json().at("authentication").at("remainingAttempts"), 5);
}

TEST_F(MailOutboxTest, ADeferredMessageIsRetriedAndARefusedOneFailsForGood) {
  TestSmtpServer smtp({"--replies-rcpt", "451,250,550"});
  Start({"--smtp-url", smtp.Url(), "--mail-from", "contracts@acme.example"});
  EXPECT_NE(server_->output().find("e-mail: SMTP " + smtp.Url()), std::string::npos)
      << server_->output();

  const std::string first = SendNda();
  const auto deferred = MessageTo(first, kAda, "pending", 1);
  EXPECT_EQ(deferred.at("lastReply").at("code"), 451);
  // Until its retry 5 s later, the message waits, counted on /metrics.
  EXPECT_EQ(Metric("contractd_deliveries_pending{channel=\"mail\"}"), "1");
  EXPECT_GT(std::stod(Metric("contractd_deliveries_oldest_pending_age_seconds{channel=\"mail\"}")),
            0.0);
  EXPECT_EQ(Metric("contractd_delivery_attempts_failed_total{channel=\"mail\"}"), "1");
  const auto sent = MessageTo(first, kAda, "sent");  // the schedule's first retry: 5 s
  EXPECT_EQ(sent.at("attempts"), 2);
  ASSERT_EQ(smtp.Count(), 1u);
  const auto received = smtp.Message(1);
  EXPECT_EQ(received.at("messageId").as_string(), sent.at("messageId").as_string())
      << boost::json::serialize(received);
  EXPECT_NE(received.at("subject").as_string().find("Mutual NDA: Acme and Globex"),
            std::string::npos);
  EXPECT_NE(received.at("html").as_string().find("/sign/"), std::string::npos);

  const std::string second = SendNda();
  const auto refused = MessageTo(second, kAda, "failed");
  EXPECT_EQ(refused.at("lastReply").at("code"), 550);
  EXPECT_FALSE(refused.at("lastReply").at("text").as_string().empty());
  std::this_thread::sleep_for(seconds(7));  // past the first retry it would have had
  EXPECT_EQ(MessageTo(second, kAda, "failed").at("attempts"), 1);
  EXPECT_EQ(smtp.Count(), 1u);
  EXPECT_EQ(Metric("contractd_deliveries_pending{channel=\"mail\"}"), "0");
  EXPECT_EQ(Metric("contractd_deliveries_oldest_pending_age_seconds{channel=\"mail\"}"), "0");
  EXPECT_EQ(Metric("contractd_deliveries_sent_total{channel=\"mail\"}"), "1");
  EXPECT_EQ(Metric("contractd_deliveries_failed_total{channel=\"mail\"}"), "1");
  EXPECT_EQ(Metric("contractd_delivery_attempts_failed_total{channel=\"mail\"}"), "2");
  EXPECT_NE(server_->output().find("failed: 550"), std::string::npos) << server_->output();
}

TEST_F(MailOutboxTest, AServerDownAtStartIsReportedAndAPendingMessageSurvivesAKill) {
  const int port = FreePort();
  const std::string url = "smtp://127.0.0.1:" + std::to_string(port);
  Start({"--smtp-url", url});
  EXPECT_NE(server_->output().find("e-mail: CANNOT SEND through SMTP " + url), std::string::npos)
      << server_->output();
  const std::string id = SendNda();
  const auto pending = MessageTo(id, kAda, "pending", 1);
  EXPECT_TRUE(pending.at("lastReply").at("code").is_null());
  EXPECT_NE(pending.at("lastReply").at("text").as_string().find("connect"), std::string::npos)
      << boost::json::serialize(pending);

  Kill();
  TestSmtpServer smtp({"--port", std::to_string(port)});
  Start({"--smtp-url", url});
  const auto sent = MessageTo(id, kAda, "sent");
  std::this_thread::sleep_for(seconds(1));
  ASSERT_EQ(smtp.Count(), 1u);  // once, though the log was read again from the start
  EXPECT_EQ(smtp.Message(1).at("messageId").as_string(), sent.at("messageId").as_string());
  EXPECT_EQ(Notifications(id).size(), 1u);
}

}  // namespace
}  // namespace esign::testing
