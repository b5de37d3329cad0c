#include "delivery/delivery_lanes.h"

#include <algorithm>
#include <chrono>

#include "base/thread_name.h"

namespace esign::delivery {

DeliveryLanes::DeliveryLanes(LaneDeps deps, size_t threads)
    : deps_(std::move(deps)),
      threads_count_(std::max<size_t>(1, threads)),
      per_organization_(std::max<size_t>(1, threads / 4)) {
  threads = threads_count_;
  threads_.reserve(threads);
  for (size_t i = 0; i < threads; ++i) {
    threads_.emplace_back([this](const std::stop_token& stop) {
      NameThisThread("esign-deliver");
      Run(stop);
    });
  }
}

DeliveryLanes::~DeliveryLanes() { Stop(); }

void DeliveryLanes::Stop() {
  for (std::jthread& thread : threads_) thread.request_stop();
  threads_.clear();  // joins
  std::lock_guard lock(mutex_);
  ready_.clear();
  waiting_.clear();
  lanes_.clear();
}

size_t DeliveryLanes::lanes() const {
  std::lock_guard lock(mutex_);
  return lanes_.size();
}

void DeliveryLanes::Push(Delivery delivery) {
  std::vector<Delivery> one;
  one.push_back(std::move(delivery));
  PushAll(std::move(one));
}

void DeliveryLanes::PushAll(std::vector<Delivery> deliveries) {
  // Whose lane each is, for the organization's share of the threads (it never changes): looked
  // up once per endpoint, without the lock.
  std::map<std::string, std::string, std::less<>> organizations;
  for (const Delivery& delivery : deliveries) {
    if (organizations.contains(delivery.destination_id)) continue;
    const std::optional<LaneDestination> endpoint = deps_.find(delivery.destination_id);
    organizations.emplace(delivery.destination_id,
                          endpoint ? endpoint->organization_id : std::string());
  }
  std::lock_guard lock(mutex_);
  for (Delivery& delivery : deliveries) {
    auto [found, created] = lanes_.try_emplace(delivery.destination_id);
    if (created) {
      found->second = std::make_unique<Lane>(Lane{
          .destination_id = delivery.destination_id,
          .organization_id = organizations.find(delivery.destination_id)->second,
      });
    }
    Lane& lane = *found->second;
    // The queue is in position order: a retried delivery may come back among newer ones, and
    // partitions interleave, but most deliveries go at the end.
    auto it = std::ranges::lower_bound(lane.queue, delivery.position, {}, &Delivery::position);
    if (it != lane.queue.end() && it->id == delivery.id) {
      *it = std::move(delivery);
    } else {
      it = lane.queue.insert(it, std::move(delivery));
    }
    // Only a new head changes what the lane waits for.
    if (it == lane.queue.begin() && MakeReady(lane)) Notify();
  }
}

void DeliveryLanes::Wake() {
  std::lock_guard lock(mutex_);
  for (auto& [id, lane] : lanes_) {
    if (MakeReady(*lane)) Notify();
  }
}

void DeliveryLanes::Drop(const std::set<std::string>& delivery_ids) {
  std::lock_guard lock(mutex_);
  std::vector<Lane*> emptied;
  for (auto& [id, lane] : lanes_) {
    std::erase_if(lane->queue, [&](const Delivery& d) { return delivery_ids.contains(d.id); });
    // A served lane is removed by its thread, once its step is over.
    if (lane->queue.empty() && lane->place != Place::kServed) emptied.push_back(lane.get());
  }
  for (Lane* lane : emptied) Remove(*lane);
}

void DeliveryLanes::Run(const std::stop_token& stop) {
  std::unique_lock lock(mutex_);
  while (!stop.stop_requested()) {
    const std::optional<int64_t> next_due = PromoteDue(deps_.clock.NowMicros());
    if (Lane* lane = TakeReady()) {
      Serve(lock, *lane, stop);
      continue;
    }
    const uint64_t seen = changes_;
    const auto changed = [&] { return changes_ != seen; };
    if (next_due) {
      const int64_t wait_us = *next_due - deps_.clock.NowMicros();
      work_.wait_for(lock, stop, std::chrono::microseconds(std::max<int64_t>(wait_us, 0)), changed);
    } else {
      work_.wait(lock, stop, changed);
    }
  }
}

void DeliveryLanes::Serve(std::unique_lock<std::mutex>& lock, Lane& lane,
                          const std::stop_token& stop) {
  lane.woken = false;
  lock.unlock();
  const std::optional<LaneDestination> endpoint = deps_.find(lane.destination_id);
  lock.lock();
  std::vector<std::string> settled;
  if (!endpoint) {  // deleted: nothing more goes there
    for (const Delivery& d : lane.queue) settled.push_back(d.id);
    lane.queue.clear();
  } else if (!endpoint->enabled || endpoint->version < lane.awaiting_version) {
    lane.paused = true;
  } else if (!lane.queue.empty()) {
    const int64_t now = deps_.clock.NowMicros();
    Delivery& head = lane.queue.front();
    if (lane.paused) {  // enabled again: a new round of the schedule, starting now
      lane.paused = false;
      head.round_start = head.attempts.size();
      head.next_attempt_us = now;
    }
    if (head.next_attempt_us <= now) {
      Delivery delivery = head;
      lock.unlock();
      const LaneDeps::Attempted attempted = deps_.attempt(stop, *endpoint, delivery);
      lock.lock();
      if (attempted == LaneDeps::Attempted::kEndpointDisabled) {
        lane.awaiting_version = endpoint->version + 1;  // until the directory shows the disable
        lane.paused = true;
      }
      // Deliveries of other partitions may have been queued ahead of it meanwhile, or it may
      // have been dropped (then it is another member's).
      auto it = std::find_if(lane.queue.begin(), lane.queue.end(),
                             [&delivery](const Delivery& d) { return d.id == delivery.id; });
      if (it != lane.queue.end()) {
        if (delivery.state == DeliveryState::kPending) {
          *it = std::move(delivery);
        } else {
          settled.push_back(delivery.id);
          lane.queue.erase(it);
        }
      }
    }
  }
  if (!settled.empty()) {
    lock.unlock();
    for (const std::string& id : settled) deps_.settle(id);
    lock.lock();
  }
  if (--served_[lane.organization_id] == 0) served_.erase(lane.organization_id);
  --serving_;
  lane.place = Place::kParked;
  if (lane.queue.empty()) {
    Remove(lane);
  } else if (!lane.woken && lane.paused) {
    // parked until Wake
  } else if (const int64_t due = lane.queue.front().next_attempt_us;
             !lane.woken && due > deps_.clock.NowMicros()) {
    MakeWaiting(lane, due);
  } else {
    // In turn with every other ready lane. This thread serves the front next: another one is
    // needed only when more lanes wait.
    MakeReady(lane);
    if (ready_.size() > 1) Notify();
  }
}

DeliveryLanes::Lane* DeliveryLanes::TakeReady() {
  // In turn, the first lane whose organization is within its share; failing that, while no such
  // lane waits, the first lane of all, on a thread lent from outside the reserve.
  auto lent = ready_.end();
  for (auto it = ready_.begin(); it != ready_.end(); ++it) {
    if (served_[(*it)->organization_id] < per_organization_) return Take(it);
    if (lent == ready_.end()) lent = it;
  }
  if (lent != ready_.end() && serving_ + per_organization_ < threads_count_) return Take(lent);
  return nullptr;
}

DeliveryLanes::Lane* DeliveryLanes::Take(const std::deque<Lane*>::iterator& ready_at) {
  Lane* lane = *ready_at;
  ++served_[lane->organization_id];
  ++serving_;
  lane->place = Place::kServed;
  ready_.erase(ready_at);
  return lane;
}

bool DeliveryLanes::MakeReady(Lane& lane) {
  switch (lane.place) {
    case Place::kReady:
      return false;
    case Place::kServed:
      lane.woken = true;
      return false;
    case Place::kWaiting:
      waiting_.erase(lane.waiting_at);
      break;
    case Place::kParked:
      break;
  }
  lane.place = Place::kReady;
  ready_.push_back(&lane);
  return true;
}

void DeliveryLanes::MakeWaiting(Lane& lane, int64_t due_us) {
  const bool nearest = waiting_.empty() || due_us < waiting_.begin()->first;
  lane.place = Place::kWaiting;
  lane.waiting_at = waiting_.emplace(due_us, &lane);
  if (nearest) Notify();  // an idle thread sleeps until the nearest due time
}

void DeliveryLanes::Remove(Lane& lane) {
  if (lane.place == Place::kReady) std::erase(ready_, &lane);
  if (lane.place == Place::kWaiting) waiting_.erase(lane.waiting_at);
  lanes_.erase(lanes_.find(lane.destination_id));
}

std::optional<int64_t> DeliveryLanes::PromoteDue(int64_t now_us) {
  // The calling thread serves one; each further one may need another thread.
  for (bool first = true; !waiting_.empty() && waiting_.begin()->first <= now_us; first = false) {
    Lane& lane = *waiting_.begin()->second;
    waiting_.erase(waiting_.begin());
    lane.place = Place::kReady;
    ready_.push_back(&lane);
    if (!first) Notify();
  }
  if (waiting_.empty()) return std::nullopt;
  return waiting_.begin()->first;
}

void DeliveryLanes::Notify() {
  ++changes_;
  work_.notify_one();
}

}  // namespace esign::delivery
