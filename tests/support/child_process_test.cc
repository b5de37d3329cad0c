// The children of a test die with it: a "test process" (forked here) starts a child the way the
// tests do, is SIGKILLed, and its child must be gone within two seconds instead of running on.
#include "tests/support/child_process.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <thread>

#include "tests/support/temp_dir.h"

namespace esign::testing {
namespace {

// Whether `pid` runs (a zombie waiting for its new parent to reap it counts as gone).
bool Running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto state_at = line.rfind(')') + 2;
  return state_at < line.size() && line[state_at] != 'Z' && line[state_at] != 'X';
}

// Forks a test process that runs `start_child` and then waits to be killed; the pid its child
// wrote to `pid_file`.
pid_t StartTestProcess(const std::function<void()>& start_child, const std::string& pid_file,
                       pid_t& grandchild) {
  const pid_t test_process = fork();
  if (test_process == 0) {
    start_child();
    pause();
    _exit(0);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  grandchild = 0;
  while (grandchild == 0 && std::chrono::steady_clock::now() < deadline) {
    std::ifstream file(pid_file);  // renamed into place once written
    std::string line;
    if (std::getline(file, line) && !line.empty()) grandchild = std::stoi(line);
    if (grandchild == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return test_process;
}

void ExpectGoneWithItsParent(const std::function<void()>& start_child,
                             const std::string& pid_file) {
  pid_t grandchild = 0;
  const pid_t test_process = StartTestProcess(start_child, pid_file, grandchild);
  ASSERT_GT(grandchild, 0) << "the child did not start";
  ASSERT_TRUE(Running(grandchild));
  kill(test_process, SIGKILL);
  waitpid(test_process, nullptr, 0);
  const auto killed = std::chrono::steady_clock::now();
  while (Running(grandchild) &&
         std::chrono::steady_clock::now() - killed < std::chrono::seconds(2)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const bool running = Running(grandchild);
  if (running) kill(grandchild, SIGKILL);  // not left behind by this test either
  EXPECT_FALSE(running) << "the child of a killed test process still runs";
  std::cout << "child gone "
            << std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now() - killed)
                   .count()
            << " ms after its test process was killed" << std::endl;
}

// A child that writes its pid, then sleeps a minute.
std::vector<std::string> SleeperWritingPidTo(const std::string& pid_file) {
  return {"/bin/sh", "-c",
          "echo $$ > " + pid_file + ".tmp && mv " + pid_file + ".tmp " + pid_file +
              " && exec sleep 60"};
}

TEST(ChildProcessTest, AChildProcessDiesWithTheTestThatStartedIt) {
  TempDir dir;
  const std::string pid_file = dir.path() + "/pid";
  ExpectGoneWithItsParent(
      [&] {
        // Never destroyed: only the kernel ends this child.
        new ChildProcess(SleeperWritingPidTo(pid_file));
      },
      pid_file);
}

TEST(ChildProcessTest, AProgramRunToCompletionDiesWithTheTestThatStartedIt) {
  TempDir dir;
  const std::string pid_file = dir.path() + "/pid";
  // What the fixtures' RunProgram starts its programs with.
  ExpectGoneWithItsParent([&] { SpawnChild(SleeperWritingPidTo(pid_file), -1, -1); }, pid_file);
}

TEST(ChildProcessTest, CapturesStderrAndTheExitStatus) {
  ChildProcess child({"/bin/sh", "-c", "echo started >&2; exit 3"});
  EXPECT_TRUE(child.WaitForLine("started", std::chrono::seconds(10)).has_value());
  EXPECT_EQ(child.Wait(std::chrono::seconds(10)), 3);
}

}  // namespace
}  // namespace esign::testing
