// Kills a process in the middle of appending and checks that every acknowledged append survived
// and that the ledger still matches the log.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "eventstore/rocksdb_event_store.h"
#include "eventstore/verify_log.h"
#include "tests/eventstore/store_test_support.h"

extern char** environ;

namespace esign::eventstore {
namespace {

using namespace std::chrono_literals;

struct Ack {
  uint64_t position;
  uint32_t thread;
  uint32_t sequence;
};

// Runs the writer, lets it append for `run_for` after its first acknowledgement, kills it, and
// returns every acknowledgement it wrote.
std::vector<Ack> RunAndKillWriter(const std::string& data_dir, int threads,
                                  std::chrono::milliseconds run_for) {
  int pipe_fds[2];
  EXPECT_EQ(::pipe(pipe_fds), 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  std::string thread_arg = std::to_string(threads);
  std::string program = ESIGN_CRASH_WRITER;
  std::string dir = data_dir;
  char* argv[] = {program.data(), dir.data(), thread_arg.data(), nullptr};
  pid_t child = -1;
  const int spawned = ::posix_spawn(&child, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  EXPECT_EQ(spawned, 0) << std::strerror(spawned);

  std::string bytes;
  char buffer[1 << 16];
  auto deadline = std::chrono::steady_clock::now() + 20s;  // until the first acknowledgement
  bool killed = false;
  while (true) {
    if (!killed && std::chrono::steady_clock::now() >= deadline) {
      ::kill(child, SIGKILL);
      killed = true;
    }
    pollfd pfd{pipe_fds[0], POLLIN, 0};
    ::poll(&pfd, 1, 10);
    const ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (n == 0) break;  // the child is gone and the pipe drained
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    const bool first = bytes.empty();
    bytes.append(buffer, static_cast<size_t>(n));
    if (first && !killed) deadline = std::chrono::steady_clock::now() + run_for;
  }
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "writer exited early";

  std::vector<Ack> acks(bytes.size() / sizeof(Ack));
  std::memcpy(acks.data(), bytes.data(), acks.size() * sizeof(Ack));
  return acks;
}

TEST(RocksEventStoreCrashTest, EveryAcknowledgedAppendSurvivesSigkill) {
  const testing::TempDir dir;
  constexpr int kThreads = 8;
  // Two rounds: the second recovers from the first crash, continues the same streams, and is
  // killed in turn.
  std::vector<Ack> acks;
  for (int round = 0; round < 2; ++round) {
    const std::vector<Ack> more = RunAndKillWriter(dir.path(), kThreads, 250ms);
    ASSERT_GT(more.size(), 0u) << "round " << round;
    acks.insert(acks.end(), more.begin(), more.end());
  }

  RecordProperty("acknowledged_appends", static_cast<int>(acks.size()));

  auto store = RocksEventStore::Open(testing::TestRocksOptions(dir.path()));
  ASSERT_TRUE(store) << store.error().message;
  EventStore& reopened = **store;
  const uint64_t size = reopened.Size();
  ASSERT_GE(size, acks.size());
  std::map<uint32_t, uint32_t> acked_per_thread;
  for (const Ack& ack : acks) {
    ASSERT_LT(ack.position, size);
    const std::vector<EventRecord> record =
        reopened.ReadAll(GlobalPosition(ack.position), 1).value();
    ASSERT_EQ(record.size(), 1u);
    EXPECT_EQ(record[0].event_id,
              "evt-" + std::to_string(ack.thread) + "-" + std::to_string(ack.sequence));
    EXPECT_EQ(record[0].version, StreamVersion(ack.sequence + 1));
    uint32_t& count = acked_per_thread[ack.thread];
    count = std::max(count, ack.sequence + 1);
  }
  // Each stream holds versions 1..n without gaps, n at least what was acknowledged.
  for (const auto& [thread, acked] : acked_per_thread) {
    const std::vector<EventRecord> stream =
        reopened.ReadStream("crash-" + std::to_string(thread), StreamVersion(1), SIZE_MAX).value();
    ASSERT_GE(stream.size(), acked);
    for (size_t i = 0; i < stream.size(); ++i) EXPECT_EQ(stream[i].version, StreamVersion(i + 1));
  }
  // The ledger, recovered from its own nodes, matches a tree recomputed from the stored bytes.
  EXPECT_EQ(reopened.ledger().Root(size).value(), testing::RecomputedRoot(reopened));
  const LogVerification verification = VerifyLog(reopened).value();
  EXPECT_TRUE(verification.ok);
  EXPECT_EQ(verification.size, size);
  // And it keeps appending where it stopped.
  const AppendResult next =
      reopened.Append("after-crash", ExpectedVersion::NoStream(), testing::Events("after", 1))
          .value();
  EXPECT_EQ(next.first_position, GlobalPosition(size));
  reopened.Close();
}

}  // namespace
}  // namespace esign::eventstore
