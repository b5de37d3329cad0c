#include "commands/document_commands.h"

#include <boost/json.hpp>

#include "base/sha256.h"
#include "base/time_text.h"
#include "domain/field_value.h"
#include "domain/stream_kinds.h"

namespace esign::commands {
namespace {

constexpr int64_t kMaxNameLength = 200;
constexpr std::string_view kDefaultName = "document.pdf";
// How long a deletion waits for the read side to show every upload before it deletes a blob.
constexpr std::chrono::seconds kIndexWait{10};

std::string DocumentStreamId(std::string_view document_id) {
  return StreamIdOf(StreamKind::kDocument, document_id);
}

std::unexpected<Error> DocumentNotFound(std::string_view document_id) {
  return Fail(ErrorCode::kDocumentNotFound, "document " + std::string(document_id) + " not found");
}

}  // namespace

DocumentCommands::DocumentCommands(eventstore::EventStore& store,
                                   const projections::DocumentIndex& index,
                                   const projections::Projector& projector, IdGenerator& ids,
                                   const Clock& clock, DocumentOptions options)
    : store_(store),
      index_(index),
      projector_(projector),
      ids_(ids),
      clock_(clock),
      options_(options) {}

Result<DocumentCommands::Uploaded> DocumentCommands::Upload(
    const eventstore::Actor& actor, std::string_view bytes, std::string name,
    const std::optional<eventstore::IdempotentRequest>& idempotency) {
  if (name.empty()) name = kDefaultName;
  if (CountCharacters(name) > kMaxNameLength) {
    return Fail(ErrorCode::kValidationFailed, "invalid document name", "name",
                "at most " + std::to_string(kMaxNameLength) + " characters");
  }
  auto inspected = documents::InspectUpload(bytes, options_.limits);
  if (!inspected) return std::unexpected(inspected.error());

  std::unique_lock<std::mutex> keyed(idempotent_, std::defer_lock);
  std::optional<eventstore::IdempotencyReservation> reservation;
  std::string document_id = ids_.Next("doc_");
  if (idempotency) {
    keyed.lock();
    auto reserved =
        eventstore::ReserveIdempotencyKey(store_, *idempotency, "documentId", document_id);
    if (!reserved) return std::unexpected(reserved.error());
    reservation = std::move(*reserved);
    std::optional<uint64_t> done = reservation->completed_version;
    if (!done) {
      // Appended before a crash kept the key from being completed: the upload is there.
      auto seeded = eventstore::FindSeededVersion(
          store_, DocumentStreamId(reservation->resource_id), *reservation);
      if (!seeded) return std::unexpected(seeded.error());
      done = *seeded;
    }
    if (done) {
      if (!reservation->completed_version) {
        if (Status completed =
                eventstore::CompleteIdempotencyKey(store_, *reservation, *done, actor);
            !completed) {
          return std::unexpected(completed.error());
        }
      }
      auto first = Find(actor.organization_id, reservation->resource_id);
      if (!first) return std::unexpected(first.error());
      return Uploaded{std::move(*first), true};
    }
    document_id = reservation->resource_id;
  }

  const int64_t now = clock_.NowMicros();
  UploadedDocument document;
  document.document_id = std::move(document_id);
  document.organization_id = actor.organization_id;
  document.name = std::move(name);
  document.sha256 = Sha256Hex(bytes);
  document.size = bytes.size();
  document.cleaned_size = inspected->cleaned_pdf.size();
  document.pages = std::move(inspected->pages);
  document.removed = std::move(inspected->removed);
  document.warnings = std::move(inspected->warnings);
  document.text_tags = std::move(inspected->text_tags);
  document.form_fields = std::move(inspected->form_fields);
  document.uploaded_at = FormatTimestamp(now);
  document.uploaded_by = actor.client_id;
  document.expires_at =
      FormatTimestamp(now + std::chrono::microseconds(options_.retention).count());

  eventstore::NewEvent event;
  event.event_id = reservation ? eventstore::SeededEventId(*reservation, 0) : ids_.Next("evt_");
  event.type = std::string(kDocumentUploaded);
  event.actor = actor;
  std::lock_guard lock(blobs_mutex_);
  auto stored = store_.blobs().Put(inspected->cleaned_pdf);
  if (!stored) return std::unexpected(stored.error());
  document.cleaned_sha256 = *stored;
  event.data = boost::json::serialize(UploadedDocumentToJson(document));
  auto appended = store_.Append(DocumentStreamId(document.document_id),
                                eventstore::ExpectedVersion::NoStream(), {std::move(event)});
  if (!appended) return std::unexpected(appended.error());
  if (reservation) {
    if (Status completed = eventstore::CompleteIdempotencyKey(store_, *reservation,
                                                              appended->version.value(), actor);
        !completed) {
      return std::unexpected(completed.error());
    }
  }
  return Uploaded{std::move(document), false};
}

Result<UploadedDocument> DocumentCommands::Find(std::string_view organization_id,
                                                std::string_view document_id) const {
  if (document_id.empty() || document_id.size() > 64) return DocumentNotFound(document_id);
  auto records = store_.ReadStream(DocumentStreamId(document_id), StreamVersion(1), 2);
  if (!records) return std::unexpected(records.error());
  if (records->empty() || records->size() > 1 || records->front().type != kDocumentUploaded) {
    return DocumentNotFound(document_id);  // unknown, or deleted
  }
  boost::system::error_code ec;
  boost::json::value data = boost::json::parse(records->front().data, ec);
  if (ec || !data.is_object()) {
    return Fail(ErrorCode::kCorruption, "document " + std::string(document_id) + " unreadable");
  }
  UploadedDocument document = UploadedDocumentFromJson(data.get_object());
  if (document.organization_id != organization_id) return DocumentNotFound(document_id);
  return document;
}

Result<std::vector<UploadedDocument>> DocumentCommands::FindAll(
    std::string_view organization_id, const std::vector<std::string>& ids) const {
  std::vector<UploadedDocument> found;
  found.reserve(ids.size());
  for (const auto& id : ids) {
    auto document = Find(organization_id, id);
    if (document) {
      found.push_back(std::move(*document));
    } else if (document.error().code != ErrorCode::kDocumentNotFound) {
      return std::unexpected(document.error());
    }
  }
  return found;
}

Result<std::string> DocumentCommands::Content(const UploadedDocument& document) const {
  return store_.blobs().Get(document.cleaned_sha256);
}

Result<size_t> DocumentCommands::DeleteExpired() {
  auto due = index_.Expired(FormatTimestamp(clock_.NowMicros()), options_.deletions_per_sweep);
  if (!due) return std::unexpected(due.error());
  size_t deleted = 0;
  for (const auto& upload : *due) {
    if (auto ok = DeleteOne(upload); !ok) return std::unexpected(ok.error());
    ++deleted;
  }
  return deleted;
}

Status DocumentCommands::DeleteOne(const projections::ExpiredUpload& upload) {
  std::lock_guard lock(blobs_mutex_);
  // Every upload and every contract appended so far must be in the index before it decides.
  if (!projector_.WaitFor(store_.Size(), kIndexWait)) {
    return Fail(ErrorCode::kUnavailable, "the document index is behind the log");
  }
  auto used = index_.Used(upload.document_id);
  if (!used) return Fail(used.error());
  if (*used) return {};
  const std::string stream = DocumentStreamId(upload.document_id);
  eventstore::NewEvent event;
  // One id per upload: a second sweep of the same upload is a replay that writes nothing.
  event.event_id = "evt_" + Sha256Hex("document.deleted " + upload.document_id).substr(0, 32);
  event.type = std::string(kDocumentDeleted);
  event.data = boost::json::serialize(
      boost::json::object{{"documentId", upload.document_id},
                          {"cleanedSha256", upload.cleaned_sha256},
                          {"reason", "unused for the retention period"},
                          {"expiresAt", upload.expires_at},
                          {"deletedAt", FormatTimestamp(clock_.NowMicros())}});
  event.actor = eventstore::Actor{.client_id = "system"};
  auto appended = store_.Append(stream, eventstore::ExpectedVersion::Exactly(StreamVersion(1)),
                                {std::move(event)});
  if (!appended && appended.error().code != ErrorCode::kStreamVersionConflict) {
    return Fail(appended.error());
  }
  auto shared = index_.SharedWithAnother(upload.cleaned_sha256, upload.document_id);
  if (!shared) return Fail(shared.error());
  if (*shared) return {};
  return store_.blobs().Delete(upload.cleaned_sha256);
}

Result<std::optional<int64_t>> DocumentCommands::NextExpiry() const {
  auto next = index_.NextExpiry();
  if (!next) return std::unexpected(next.error());
  if (next->empty()) return std::optional<int64_t>();
  return ParseFormattedTimestamp(*next);
}

}  // namespace esign::commands
