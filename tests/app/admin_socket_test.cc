// The admin socket: one request line, one response line; mode 0600; stale files replaced; a live
// server not displaced; the file removed on stop; paths longer than a socket address allows.
#include "app/admin_socket.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "app/cli_commands.h"

namespace esign::app {
namespace {

using std::chrono::milliseconds;

class AdminSocketTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("as-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static AdminSocketServer::Handler Echo() {
    return [](std::string_view line) { return "echo:" + std::string(line); };
  }

  std::filesystem::path dir_;
};

TEST_F(AdminSocketTest, AnswersOneLinePerConnection) {
  const auto path = dir_ / "admin.sock";
  auto server = AdminSocketServer::Start(path, Echo());
  ASSERT_TRUE(server) << server.error().message;
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_TRUE(S_ISSOCK(info.st_mode));
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  for (int i = 0; i < 3; ++i) {
    auto answer = AdminRequest(path, "hello " + std::to_string(i), milliseconds(5000));
    ASSERT_TRUE(answer);
    EXPECT_EQ(*answer, "echo:hello " + std::to_string(i));
  }
  (*server)->Stop();
  EXPECT_FALSE(std::filesystem::exists(path));
  auto none = AdminRequest(path, "x", milliseconds(1000));
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());
}

TEST_F(AdminSocketTest, AStaleSocketFileMeansNoServerAndIsReplaced) {
  const auto path = dir_ / "admin.sock";
  {
    // A bound socket that nobody listens on any more, as a killed server leaves behind.
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strcpy(address.sun_path, path.c_str());
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
    ::close(fd);
  }
  ASSERT_TRUE(std::filesystem::exists(path));
  auto none = AdminRequest(path, "x", milliseconds(1000));
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());

  auto server = AdminSocketServer::Start(path, Echo());
  ASSERT_TRUE(server) << server.error().message;
  EXPECT_EQ(AdminRequest(path, "y", milliseconds(5000)).value(),
            std::optional<std::string>("echo:y"));

  // A live server is not displaced.
  auto second = AdminSocketServer::Start(path, Echo());
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(AdminRequest(path, "z", milliseconds(5000)).value(),
            std::optional<std::string>("echo:z"));
}

TEST_F(AdminSocketTest, WorksUnderPathsLongerThanASocketAddress) {
  auto deep = dir_;
  while (deep.string().size() < 150) deep /= "a-rather-long-directory-name";
  std::filesystem::create_directories(deep);
  const auto path = deep / "admin.sock";
  auto server = AdminSocketServer::Start(path, Echo());
  ASSERT_TRUE(server) << server.error().message;
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_EQ(AdminRequest(path, "deep", milliseconds(5000)).value(),
            std::optional<std::string>("echo:deep"));
  (*server)->Stop();
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(AdminEnvelopeTest, CarriesResultsAndErrorsAcross) {
  auto ok = DecodeAdminResponse(EncodeAdminResponse(boost::json::object{{"a", 1}}));
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->at("a"), 1);
  auto error = DecodeAdminResponse(
      EncodeAdminResponse(Fail(ErrorCode::kValidationFailed, "bad", "permissions", "unknown")));
  ASSERT_FALSE(error);
  EXPECT_EQ(error.error().code, ErrorCode::kValidationFailed);
  EXPECT_EQ(error.error().message, "bad");
  ASSERT_EQ(error.error().details.size(), 1u);
  EXPECT_EQ(error.error().details[0].field, "permissions");
  EXPECT_EQ(ExitCodeOf(error.error()), 2);
  EXPECT_EQ(ExitCodeOf(Error::Of(ErrorCode::kStorage, "x")), 1);
  EXPECT_FALSE(DecodeAdminResponse("not json"));
  EXPECT_FALSE(DecodeAdminResponse(R"({"ok":true})"));
}

}  // namespace
}  // namespace esign::app
