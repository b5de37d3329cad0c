// The deliveries the intake stored just now and queued once: no other copy of them can have been
// attempted (a copy read again later replaces a queued one in its lane, and an attempted one
// is recorded before its lane serves the next), so their first attempt need not read their
// record to learn whether they are still pending. That read was a tenth of a delivery's work.
//
// Bounded by the deliveries queued: an id is forgotten when its attempt begins, when it is
// settled without one (its endpoint deleted), or when its partition goes to another member.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <mutex>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

namespace esign::webhooks {

class FirstCopies {
 public:
  void Add(std::vector<std::string> ids);
  // True, once, for an id added and not forgotten since.
  bool Take(const std::string& id);
  void Forget(const std::string& id);
  void Forget(const std::set<std::string>& ids);

 private:
  std::mutex mutex_;
  std::unordered_set<std::string> ids_;  // guarded by mutex_
};

}  // namespace esign::webhooks
