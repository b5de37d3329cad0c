// DocumentIndex: which uploads are still waiting for a contract, and until when (DESIGN section
// 20). An upload that no contract and no template version names by its expiry is deleted
// (commands/document_expiry.h); the index gives that sweep its due uploads and tells it whether
// another live upload shares the blob (blobs are stored by content, so two uploads of the same
// bytes share one).
//
// Rows (under "documents/"):  x/<expiresAt>/<documentId> -> cleaned SHA-256 (unused, not deleted)
//                             r/<documentId>              -> its x/ key
//                             u/<documentId>              -> the first contract (or template,
//                                                            by a version) that named it
//                             s/<cleanedSha256>/<documentId> -> "" (every upload not deleted)
// Thread safety: the look-ups may be called from any thread and see committed rows; Apply is the
// projector's.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "projections/projection.h"
#include "projections/view_store.h"

namespace esign::projections {

inline constexpr std::string_view kDocumentIndexName = "documents";

struct ExpiredUpload {
  std::string document_id;
  std::string cleaned_sha256;
  std::string expires_at;
};

class DocumentIndex final : public Projection {
 public:
  explicit DocumentIndex(const ViewStore& views) : views_(views) {}

  std::string_view Name() const override { return kDocumentIndexName; }
  Status Apply(const eventstore::EventRecord& event, ViewBatch& batch) override;

  // Unused uploads whose expiry (RFC 3339 UTC, as recorded) is at or before `now`, oldest first,
  // at most `limit`.
  Result<std::vector<ExpiredUpload>> Expired(std::string_view now, size_t limit) const;
  // The earliest expiry of an unused upload; empty when there is none.
  Result<std::string> NextExpiry() const;
  // Whether an upload other than `document_id` that is not deleted holds the blob.
  Result<bool> SharedWithAnother(std::string_view cleaned_sha256,
                                 std::string_view document_id) const;
  // Whether a contract named the upload.
  Result<bool> Used(std::string_view document_id) const;

 private:
  const ViewStore& views_;
};

}  // namespace esign::projections
