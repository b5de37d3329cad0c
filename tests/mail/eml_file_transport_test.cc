#include "mail/eml_file_transport.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/mail/mail_test_support.h"
#include "tests/support/temp_dir.h"

namespace esign::mail {
namespace {

using delivery::AttemptOutcome;
using testing::ReadFile;

size_t FileCount(const std::string& dir) {
  size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++count;
  return count;
}

std::string Mime(std::string_view id, std::string_view body) {
  return "From: a@example.com\r\nMessage-ID: <" + std::string(id) + ">\r\nSubject: x\r\n\r\n" +
         std::string(body) + "\r\n";
}

TEST(EmlFileTransportTest, WritesEachMessageUnderItsIdInAPrivateDirectory) {
  esign::testing::TempDir temp;
  const std::string dir = temp.path() + "/data/outbox";
  EmlFileTransport transport(dir);
  EXPECT_EQ(transport.Describe(), "files in " + dir);
  ASSERT_TRUE(transport.Check());
  struct stat info {};
  ASSERT_EQ(::stat(dir.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0700u);

  const std::string mime = Mime("evt_1.bob@mail.example.com", "first");
  const AttemptOutcome outcome = transport.Send("a@example.com", "bob@example.org", mime);
  EXPECT_EQ(outcome.kind, AttemptOutcome::Kind::kDelivered);
  EXPECT_EQ(outcome.code, 250);
  EXPECT_EQ(ReadFile(dir + "/evt_1.bob@mail.example.com.eml"), mime);
  EXPECT_EQ(FileCount(dir), 1u);
}

TEST(EmlFileTransportTest, SentAgainReplacesItsOwnFile) {
  esign::testing::TempDir temp;
  EmlFileTransport transport(temp.path());
  transport.Send("a@example.com", "b@example.org", Mime("m1@x", "first"));
  transport.Send("a@example.com", "b@example.org", Mime("m2@x", "other"));
  const std::string again = Mime("m1@x", "again");
  EXPECT_EQ(transport.Send("a@example.com", "b@example.org", again).kind,
            AttemptOutcome::Kind::kDelivered);
  EXPECT_EQ(ReadFile(temp.path() + "/m1@x.eml"), again);
  EXPECT_EQ(FileCount(temp.path()), 2u);  // no temporary file left behind
}

TEST(EmlFileTransportTest, FileNamesAreSafe) {
  EXPECT_EQ(EmlFileTransport::FileName(Mime("a.b+c@d-e", "")), "a.b+c@d-e.eml");
  const std::string unsafe = EmlFileTransport::FileName(Mime("../../etc/passwd", ""));
  EXPECT_EQ(unsafe.find('/'), std::string::npos);
  EXPECT_TRUE(unsafe.starts_with(".._.._etc_passwd-")) << unsafe;
  EXPECT_NE(EmlFileTransport::FileName(Mime("a/b@x", "")),
            EmlFileTransport::FileName(Mime("a_b@x", "")));
  const std::string no_id = EmlFileTransport::FileName("Subject: x\r\n\r\nbody");
  EXPECT_EQ(no_id.size(), 64u + 4u);
}

TEST(EmlFileTransportTest, UnwritableDirectoryIsReported) {
  esign::testing::TempDir temp;
  const std::string file = temp.path() + "/not-a-directory";
  std::ofstream(file) << "x";
  EmlFileTransport transport(file + "/outbox");
  const Status checked = transport.Check();
  ASSERT_FALSE(checked);
  EXPECT_NE(checked.error().message.find("cannot create the directory " + file + "/outbox"),
            std::string::npos)
      << checked.error().message;
  const AttemptOutcome outcome = transport.Send("a@example.com", "b@example.org", Mime("m@x", ""));
  EXPECT_EQ(outcome.kind, AttemptOutcome::Kind::kRetry);
  EXPECT_EQ(outcome.code, 0);
  EXPECT_FALSE(outcome.reply.empty());
}

}  // namespace
}  // namespace esign::mail
