#include "webhooks/first_copies.h"

#include <utility>

namespace esign::webhooks {

void FirstCopies::Add(std::vector<std::string> ids) {
  std::lock_guard lock(mutex_);
  for (std::string& id : ids) ids_.insert(std::move(id));
}

bool FirstCopies::Take(const std::string& id) {
  std::lock_guard lock(mutex_);
  return ids_.erase(id) > 0;
}

void FirstCopies::Forget(const std::string& id) { static_cast<void>(Take(id)); }

void FirstCopies::Forget(const std::set<std::string>& ids) {
  std::lock_guard lock(mutex_);
  for (const std::string& id : ids) ids_.erase(id);
}

}  // namespace esign::webhooks
