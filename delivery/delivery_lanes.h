// DeliveryLanes: every destination's pending deliveries (a webhook endpoint's, a mail
// recipient's, a signing provider's), sent by a fixed pool of threads.
//
// A lane is one endpoint's queue, in log order (so per contract in order). It is passive: a
// pool thread serves it for one step (examine the head; send it when due) and hands it back.
// At most one thread serves a lane at a time, so an endpoint has at most one delivery in flight
// and its order holds whichever thread sends next. A lane is, at any moment, in one place:
//   - ready: its head is due now, or something changed (a push, Wake); waiting for a thread, in
//     turn (a lane goes to the back after each attempt, so a busy endpoint does not starve others);
//   - waiting: its head is due later; kept by due time, and the nearest due time bounds how long
//     an idle thread sleeps (no polling);
//   - parked: its endpoint is disabled; it keeps its deliveries and is woken by Wake;
//   - served: a thread has it.
// A lane whose queue is empty after a step, or whose endpoint is gone (its deliveries settled),
// is removed: lanes exist only for endpoints with pending deliveries, and threads for none.
//
// Fairness, work-conserving (docs/webhooks.md, "Sharing the sender threads"): while another
// organization's lane waits, the lanes of one organization are served by at most a quarter of the
// threads at once (its share, at least one), so an organization with many slow endpoints cannot
// hold every thread. While no lane of an organization within its share waits, a thread that
// would idle is lent to the first ready lane over its share, up to all threads but a quarter (the
// reserve), so a lane of another organization that becomes ready finds a thread at once; a lent
// thread goes back to the share's order when its attempt ends.
//
// Thread safety: every method may be called from any thread; the callbacks of LaneDeps are
// called from the pool threads (and `find` from Push's caller), never with a lock held.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "delivery/delivery_store.h"
#include "domain/clock.h"

namespace esign::delivery {

// Where a lane's deliveries go, as the lanes see it: a webhook endpoint, or a mail recipient.
struct LaneDestination {
  std::string id;  // Delivery::destination_id: an endpoint, a recipient, a provider
  std::string organization_id;
  bool enabled = true;
  uint64_t version = 0;  // grows with every change (an endpoint's version)
};

struct LaneDeps {
  // The destination as it is now; nothing once deleted.
  std::function<std::optional<LaneDestination>(std::string_view destination_id)> find;
  enum class Attempted { kDone, kEndpointDisabled };
  // One attempt of the delivery to the endpoint, recorded before it returns; updates the delivery
  // (its attempts, and its state or next attempt). kEndpointDisabled when the attempt disabled
  // the endpoint (410, or the schedule ran out).
  std::function<Attempted(const std::stop_token&, const LaneDestination&, Delivery&)> attempt;
  // The delivery no longer holds its message: it succeeded, or its endpoint is gone.
  std::function<void(const std::string& delivery_id)> settle;
  const Clock& clock;
};

class DeliveryLanes {
 public:
  // Starts `threads` threads (at least one).
  DeliveryLanes(LaneDeps deps, size_t threads);
  ~DeliveryLanes();  // Stop
  DeliveryLanes(const DeliveryLanes&) = delete;
  DeliveryLanes& operator=(const DeliveryLanes&) = delete;

  // Queues a pending delivery in its endpoint's lane, in position order; a delivery already
  // queued (a retry) is replaced.
  void Push(Delivery delivery);
  // The same for many, under one lock.
  void PushAll(std::vector<Delivery> deliveries);
  // Every lane examines its endpoint again (it changed: disabled, enabled, deleted).
  void Wake();
  // Forgets the deliveries (another member sends them now).
  void Drop(const std::set<std::string>& delivery_ids);
  // Ends the threads once their current attempts return; queued deliveries are forgotten.
  void Stop();

  // Lanes that exist now (tests).
  size_t lanes() const;
  // The most lanes of one organization served at once.
  size_t per_organization() const { return per_organization_; }

 private:
  // Where a lane is (see above); each ready lane is in ready_ once, each waiting one in
  // waiting_ once, and no other lane is in either.
  enum class Place { kReady, kWaiting, kParked, kServed };
  struct Lane {
    std::string destination_id;
    std::string organization_id;
    std::deque<Delivery> queue;  // pending, by position
    Place place = Place::kParked;
    std::multimap<int64_t, Lane*>::iterator waiting_at;  // kWaiting: its entry in waiting_
    bool woken = false;                                  // something changed while it was served
    bool paused = false;                                 // its endpoint was seen disabled
    uint64_t awaiting_version = 0;  // after disabling it: until the directory shows that
  };
  void Run(const std::stop_token& stop);
  // One step of a served lane, which then goes where it belongs; `lock` is held on entry and
  // exit, released around the callbacks.
  void Serve(std::unique_lock<std::mutex>& lock, Lane& lane, const std::stop_token& stop);
  // The next ready lane to serve (see Fairness), now served; or none.
  Lane* TakeReady();
  Lane* Take(const std::deque<Lane*>::iterator& ready_at);
  // To the back of ready_, true when it was not there (a served lane is examined again after
  // its step instead). The caller notifies a thread when one is needed.
  bool MakeReady(Lane& lane);
  void MakeWaiting(Lane& lane, int64_t due_us);
  void Remove(Lane& lane);
  // Waiting lanes whose time has come become ready; the nearest due time left, if any.
  std::optional<int64_t> PromoteDue(int64_t now_us);
  void Notify();

  const LaneDeps deps_;
  const size_t threads_count_;
  const size_t per_organization_;
  mutable std::mutex mutex_;
  std::condition_variable_any work_;
  uint64_t changes_ = 0;  // guarded by mutex_: wakes idle threads
  std::map<std::string, std::unique_ptr<Lane>, std::less<>> lanes_;  // guarded by mutex_, by id
  std::deque<Lane*> ready_;                                          // guarded by mutex_: in turn
  std::multimap<int64_t, Lane*> waiting_;  // guarded by mutex_: by due time
  std::map<std::string, size_t> served_;   // guarded by mutex_: lanes served, per organization
  size_t serving_ = 0;                     // guarded by mutex_: lanes served, in all
  std::vector<std::jthread> threads_;
};

}  // namespace esign::delivery
