// Read-your-writes without making every write wait for the read side. A write records how much of
// the log must be applied before its client may read again; that client's next read waits until
// the projector has got there, which it usually has. Other clients' reads are never held up. What
// a signer or the service itself writes on a contract (a signature, a decline, an expiry) counts
// as written for every client of the contract's organization: an integrator that reads a contract
// after its signer was answered, or after its webhook arrived, sees what the signer did. A list
// with `q` waits for the text index's projector as well, when it runs apart.
// Thread safety: every method may be called from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "domain/result.h"
#include "projections/projector.h"
#include "projections/view_store.h"

namespace esign::projections {

// Which projectors a read needs: the views, or the views and the text index (a list with `q`).
enum class ReadsFrom { kViews, kViewsAndText };

class ReadYourWrites {
 public:
  // `text`: the projector of the text index (contract_text_index.h) when it runs apart from the
  // views; null when the views' projector applies it too.
  ReadYourWrites(const Projector& projector, std::chrono::milliseconds timeout,
                 const Projector* text = nullptr)
      : projector_(projector), text_(text), timeout_(timeout) {}

  // `client_id` appended events below `log_size`; an empty `client_id` (a signer, the service)
  // wrote on a contract of `organization_id`.
  void Wrote(std::string_view client_id, std::string_view organization_id, uint64_t log_size);
  // True when the read side already shows every write the client must see: its own, and those
  // made without a client on its organization's contracts (no wait needed).
  bool CaughtUp(std::string_view client_id, std::string_view organization_id) const;
  // Waits until it does; kUnavailable after the timeout, kStorageUnavailable (after at most
  // kFullDiskWait) while the read side waits for disk space.
  Status AwaitOwnWrites(std::string_view client_id, std::string_view organization_id,
                        ReadsFrom reads = ReadsFrom::kViews) const;
  // The same for every event below `size`, whoever wrote it; `what` names it in the error.
  Status AwaitApplied(uint64_t size, std::string_view what) const;

  static constexpr std::chrono::milliseconds kFullDiskWait{2500};

 private:
  using Watermarks = std::unordered_map<std::string, uint64_t, StringHash, std::equal_to<>>;
  uint64_t Watermark(std::string_view client_id, std::string_view organization_id) const;
  Status AwaitApplied(const Projector& projector, uint64_t size, std::string_view what,
                      std::chrono::steady_clock::time_point deadline) const;

  const Projector& projector_;
  const Projector* const text_;
  const std::chrono::milliseconds timeout_;
  mutable std::shared_mutex mutex_;
  // Looked up by string_view (StringHash is transparent): a read allocates nothing.
  Watermarks by_client_;        // guarded by mutex_
  Watermarks by_organization_;  // guarded by mutex_: writes made without a client
};

}  // namespace esign::projections
