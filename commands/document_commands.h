// Uploads (DESIGN section 20): a PDF an organization brings, checked and cleaned before anything
// of it is stored (documents/pdf_upload.h), kept as a blob under its cleaned copy's SHA-256 and
// recorded by document.uploaded on "document-<documentId>". An upload belongs to its
// organization: to any other it does not exist (kDocumentNotFound, as for an unknown id). An
// upload that no contract names within the retention (7 days) is deleted: document.deleted, then
// its blob unless another upload shares it (DeleteExpired, run by document_expiry.h).
// Uploads and deletions take one lock, so a blob is never deleted between a new upload's store
// and its event.
// Thread safety: every method may be called from any thread.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "documents/pdf_upload.h"
#include "domain/clock.h"
#include "domain/contract.h"
#include "domain/id_generator.h"
#include "domain/result.h"
#include "domain/uploaded_document.h"
#include "eventstore/event_store.h"
#include "eventstore/idempotency_keys.h"
#include "projections/document_index.h"
#include "projections/projector.h"

namespace esign::commands {

struct DocumentOptions {
  documents::UploadLimits limits;
  std::chrono::seconds retention{std::chrono::hours(24 * 7)};
  // Uploads deleted by one DeleteExpired call at most (the next call goes on).
  size_t deletions_per_sweep = 200;
};

class DocumentCommands {
 public:
  // Everything given by reference must outlive this object. The index and projector are the
  // read side's (DeleteExpired waits for the projector so that the index is complete).
  DocumentCommands(eventstore::EventStore& store, const projections::DocumentIndex& index,
                   const projections::Projector& projector, IdGenerator& ids, const Clock& clock,
                   DocumentOptions options = {});

  // Checks the bytes, stores the cleaned copy and appends document.uploaded. `name` defaults to
  // "document.pdf"; at most 200 characters. Errors as InspectUpload's (nothing stored), or
  // kValidationFailed for the name. With an Idempotency-Key (eventstore/idempotency_keys.h), the
  // same key and request again answers the upload the first request made, `replayed`, without a
  // second one; a refused upload reserves no key.
  struct Uploaded {
    UploadedDocument document;
    bool replayed = false;
  };
  Result<Uploaded> Upload(const eventstore::Actor& actor, std::string_view bytes, std::string name,
                          const std::optional<eventstore::IdempotentRequest>& idempotency = {});

  // The upload as its organization sees it; kDocumentNotFound for an unknown or deleted id and
  // for another organization's. Read from the log, so an upload is there as soon as it is
  // acknowledged.
  Result<UploadedDocument> Find(std::string_view organization_id,
                                std::string_view document_id) const;

  // Each of `ids` the organization has, in order; the others are left out.
  Result<std::vector<UploadedDocument>> FindAll(std::string_view organization_id,
                                                const std::vector<std::string>& ids) const;

  // The cleaned copy's bytes.
  Result<std::string> Content(const UploadedDocument& document) const;

  // Deletes every upload whose retention ended unused, up to deletions_per_sweep; how many.
  Result<size_t> DeleteExpired();

  // When the next unused upload expires (microseconds since the epoch); nothing when none does.
  Result<std::optional<int64_t>> NextExpiry() const;

  const DocumentOptions& options() const { return options_; }

 private:
  Status DeleteOne(const projections::ExpiredUpload& upload);

  eventstore::EventStore& store_;
  const projections::DocumentIndex& index_;
  const projections::Projector& projector_;
  IdGenerator& ids_;
  const Clock& clock_;
  const DocumentOptions options_;
  std::mutex blobs_mutex_;  // held by an upload's store and append, and by a deletion
  // One keyed upload at a time: two requests with one key must not both carry it out.
  std::mutex idempotent_;
};

}  // namespace esign::commands
