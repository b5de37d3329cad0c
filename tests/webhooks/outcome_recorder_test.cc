// The outcome recorder with a fake write: records written many at once and in order, an action
// run only once the records before it are written, the state of a record not yet written, a
// failing write tried again with its actions held, and a stop that writes what is queued and
// drops what cannot be written.
#include "delivery/outcome_recorder.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "tests/support/eventually.h"

namespace esign::delivery {
namespace {

using esign::testing::Eventually;

Delivery Numbered(int n) { return Delivery{.id = "dlv_" + std::to_string(n)}; }

class OutcomeRecorderTest : public ::testing::Test {
 protected:
  // Records each call's ids; holds while `hold_` is set; fails while `failing_` is set.
  Status Write(const std::vector<Delivery>& records) {
    std::unique_lock lock(mutex_);
    ++calls_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return !hold_; });
    if (failing_) return Fail(ErrorCode::kInternal, "the disk is gone");
    std::vector<std::string> ids;
    for (const Delivery& d : records) ids.push_back(d.id);
    batches_.push_back(ids);
    for (std::string& id : ids) written_.push_back(std::move(id));
    return {};
  }
  OutcomeRecorder::Write Writer() {
    return [this](const std::vector<Delivery>& records) { return Write(records); };
  }
  void Hold(bool hold) {
    std::lock_guard lock(mutex_);
    hold_ = hold;
    changed_.notify_all();
  }
  void Failing(bool failing) {
    std::lock_guard lock(mutex_);
    failing_ = failing;
  }
  size_t Calls() {
    std::lock_guard lock(mutex_);
    return calls_;
  }
  std::vector<std::string> Written() {
    std::lock_guard lock(mutex_);
    return written_;
  }
  // An action that notes which records were written when it ran.
  std::function<void()> Note(const std::string& name) {
    return [this, name] {
      std::lock_guard lock(mutex_);
      ran_.push_back({name, written_.size()});
    };
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  bool hold_ = false;
  bool failing_ = false;
  size_t calls_ = 0;
  std::vector<std::vector<std::string>> batches_;
  std::vector<std::string> written_;
  std::vector<std::pair<std::string, size_t>> ran_;  // action, records written when it ran
};

TEST_F(OutcomeRecorderTest, WritesWhatQueuedMeanwhileInOneWriteAndRunsActionsBehindTheirRecords) {
  OutcomeRecorder recorder(Writer(), /*max_batch=*/3);
  Hold(true);
  recorder.Record(Numbered(0));
  ASSERT_TRUE(Eventually([&] { return Calls() == 1; }));  // the first write is under way
  for (int n = 1; n <= 5; ++n) {
    recorder.Record(Numbered(n));
    recorder.After(Note("after " + std::to_string(n)));
  }
  Hold(false);
  ASSERT_TRUE(recorder.Flush());
  EXPECT_EQ(Written(),
            (std::vector<std::string>{"dlv_0", "dlv_1", "dlv_2", "dlv_3", "dlv_4", "dlv_5"}));
  std::lock_guard lock(mutex_);
  // One write for the first, then at most three at once.
  EXPECT_EQ(batches_, (std::vector<std::vector<std::string>>{
                          {"dlv_0"}, {"dlv_1", "dlv_2", "dlv_3"}, {"dlv_4", "dlv_5"}}));
  ASSERT_EQ(ran_.size(), 5u);
  for (size_t i = 0; i < ran_.size(); ++i) {
    EXPECT_EQ(ran_[i].first, "after " + std::to_string(i + 1));
    EXPECT_GE(ran_[i].second, i + 2) << "ran before its record was written";
  }
}

TEST_F(OutcomeRecorderTest, TellsTheStateOfARecordUntilItIsWritten) {
  OutcomeRecorder recorder(Writer());
  Hold(true);
  recorder.Record(Numbered(1));  // pending, being written
  ASSERT_TRUE(Eventually([&] { return Calls() == 1; }));
  EXPECT_EQ(recorder.QueuedState("dlv_1"), DeliveryState::kPending);
  Delivery sent = Numbered(1);
  sent.state = DeliveryState::kSucceeded;
  recorder.Record(sent);  // queued behind it: the later record tells
  EXPECT_EQ(recorder.QueuedState("dlv_1"), DeliveryState::kSucceeded);
  EXPECT_EQ(recorder.QueuedState("dlv_2"), std::nullopt);
  Hold(false);
  ASSERT_TRUE(recorder.Flush());
  EXPECT_EQ(recorder.QueuedState("dlv_1"), std::nullopt);  // the store has it now
  EXPECT_EQ(Written(), (std::vector<std::string>{"dlv_1", "dlv_1"}));
}

TEST_F(OutcomeRecorderTest, AFailedWriteIsTriedAgainAndItsActionsWait) {
  OutcomeRecorder recorder(Writer());
  Failing(true);
  recorder.Record(Numbered(1));
  recorder.After(Note("settle 1"));
  ASSERT_TRUE(Eventually([&] { return Calls() >= 2; }));  // tried again a second later
  {
    std::lock_guard lock(mutex_);
    EXPECT_TRUE(ran_.empty());
  }
  Failing(false);
  ASSERT_TRUE(recorder.Flush());
  EXPECT_EQ(Written(), std::vector<std::string>{"dlv_1"});
  std::lock_guard lock(mutex_);
  ASSERT_EQ(ran_.size(), 1u);
  EXPECT_EQ(ran_[0].second, 1u);
}

TEST_F(OutcomeRecorderTest, StopWritesWhatIsQueuedAndDropsWhatCannotBeWritten) {
  {
    OutcomeRecorder recorder(Writer());
    Hold(true);
    recorder.Record(Numbered(1));
    ASSERT_TRUE(Eventually([&] { return Calls() == 1; }));
    recorder.Record(Numbered(2));
    recorder.After(Note("settle 2"));
    Hold(false);
    recorder.Stop();
    EXPECT_EQ(Written(), (std::vector<std::string>{"dlv_1", "dlv_2"}));
    std::lock_guard lock(mutex_);
    EXPECT_EQ(ran_.size(), 1u);
  }
  {
    OutcomeRecorder recorder(Writer());
    Failing(true);
    recorder.Record(Numbered(3));
    recorder.After(Note("settle 3"));
    ASSERT_TRUE(Eventually([&] { return Calls() >= 3; }));  // 2 above, then this one failing
    recorder.Stop();               // the write fails once more: its action is dropped
    recorder.Record(Numbered(4));  // after the stop: dropped
    EXPECT_TRUE(recorder.Flush());
    std::lock_guard lock(mutex_);
    EXPECT_EQ(ran_.size(), 1u);
    EXPECT_EQ(written_, (std::vector<std::string>{"dlv_1", "dlv_2"}));
  }
}

TEST_F(OutcomeRecorderTest, AFlushGivesUpWhenItsStopIsRequested) {
  OutcomeRecorder recorder(Writer());
  Failing(true);
  recorder.Record(Numbered(1));
  std::stop_source stop;
  std::jthread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stop.request_stop();
  });
  EXPECT_FALSE(recorder.Flush(stop.get_token()));
  Failing(false);
  EXPECT_TRUE(recorder.Flush());
}

}  // namespace
}  // namespace esign::delivery
