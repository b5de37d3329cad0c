// AppendAsync answers what Append would have, exactly once, for both stores: the RocksDB store
// from its syncer once the batch is durable, the in-memory twin at once.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "tests/eventstore/store_test_support.h"

namespace esign::eventstore {
namespace {

using testing::Events;

// Collects the outcomes of AppendAsync calls and waits for a given number of them.
class Outcomes {
 public:
  AppendCallback Callback() {
    return [this](Result<AppendResult> result) {
      std::lock_guard lock(mutex_);
      results_.push_back(std::move(result));
      changed_.notify_all();
    };
  }
  std::vector<Result<AppendResult>> WaitFor(size_t count) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return results_.size() >= count; });
    return results_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Result<AppendResult>> results_;
};

template <class Harness>
class AppendAsyncTest : public testing::OpenStoreTest<Harness> {};

TYPED_TEST_SUITE(AppendAsyncTest, testing::StoreHarnesses, testing::HarnessNames);

TYPED_TEST(AppendAsyncTest, AnswersEachAppendOnceAndPublishesItBeforeTheAnswer) {
  Outcomes outcomes;
  constexpr size_t kAppends = 20;
  for (size_t i = 0; i < kAppends; ++i) {
    const std::string stream = "stream-" + std::to_string(i);
    this->store_->AppendAsync(stream, ExpectedVersion::NoStream(), Events(stream, 2),
                              [callback = outcomes.Callback(), this](auto result) {
                                // Durable and published by the time the caller is told.
                                if (result) {
                                  EXPECT_GE(this->store_->Size(),
                                            result->first_position.value() + result->count);
                                }
                                callback(std::move(result));
                              });
  }
  const auto results = outcomes.WaitFor(kAppends);
  ASSERT_EQ(results.size(), kAppends);
  for (const auto& result : results) {
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->count, 2u);
    EXPECT_EQ(result->version, StreamVersion(2));
  }
  EXPECT_EQ(this->store_->Size(), 2 * kAppends);
}

TYPED_TEST(AppendAsyncTest, AConflictIsAnsweredAsAppendWouldAnswerIt) {
  ASSERT_TRUE(this->store_->Append("taken", ExpectedVersion::NoStream(), Events("first", 1)));
  Outcomes outcomes;
  this->store_->AppendAsync("taken", ExpectedVersion::NoStream(), Events("second", 1),
                            outcomes.Callback());
  const auto results = outcomes.WaitFor(1);
  ASSERT_FALSE(results[0]);
  EXPECT_EQ(results[0].error().code, ErrorCode::kStreamVersionConflict);
}

TYPED_TEST(AppendAsyncTest, AfterCloseTheCallbackIsToldAtOnce) {
  this->store_->Close();
  Outcomes outcomes;
  this->store_->AppendAsync("late", ExpectedVersion::Any(), Events("late", 1), outcomes.Callback());
  const auto results = outcomes.WaitFor(1);
  EXPECT_FALSE(results[0]);
}

}  // namespace
}  // namespace esign::eventstore
