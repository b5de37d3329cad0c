// Waiting in tests for what another thread or process does.
#pragma once

#include <chrono>
#include <thread>

namespace esign::testing {

// How long a test waits for something that should happen at once: long enough for a loaded
// machine, and only ever waited in full when the test fails.
inline constexpr std::chrono::seconds kWaitLimit{30};

// Polls `done` until it holds or `limit` passes; whether it held.
template <class Done>
bool Eventually(const Done& done, std::chrono::milliseconds limit = kWaitLimit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

}  // namespace esign::testing
