#include "projections/document_index.h"

#include <boost/json.hpp>

#include "base/json_read.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "projections/view_batch.h"

namespace esign::projections {
namespace {

std::string ExpiryKey(std::string_view expires_at, std::string_view document_id) {
  return "x/" + std::string(expires_at) + "/" + std::string(document_id);
}
std::string ExpiryRefKey(std::string_view document_id) { return "r/" + std::string(document_id); }
std::string UsedKey(std::string_view document_id) { return "u/" + std::string(document_id); }
std::string HolderPrefix(std::string_view sha256) { return "s/" + std::string(sha256) + "/"; }

// The upload leaves the expiry rows: named by a contract, or deleted.
Status ForgetExpiry(ViewBatch& batch, std::string_view document_id) {
  auto expiry = batch.Get(ExpiryRefKey(document_id));
  if (!expiry) return Fail(expiry.error());
  if (*expiry) batch.Delete(**expiry);
  batch.Delete(ExpiryRefKey(document_id));
  return {};
}

// Uploads named by a contract or a template version are used: the sweep keeps them.
Status MarkUsed(ViewBatch& batch, const std::string& user_id,
                const std::vector<boost::json::object>& documents) {
  for (const auto& document : documents) {
    const std::string id = StringMemberOrEmpty(document, "documentId");
    auto used = batch.Get(UsedKey(id));
    if (!used) return Fail(used.error());
    if (!*used) batch.Put(UsedKey(id), user_id);
    if (auto ok = ForgetExpiry(batch, id); !ok) return ok;
  }
  return {};
}

Status Index(ViewBatch& batch, const ContractCreatedData& data) {
  return MarkUsed(batch, data.contract_id,
                  data.documents.value_or(std::vector<boost::json::object>{}));
}

Status Index(ViewBatch& batch, const TemplateVersionAddedData& data) {
  std::vector<boost::json::object> documents;
  if (const auto* array = ArrayMember(data.version, "documents")) {
    for (const auto& document : *array) {
      if (document.is_object()) documents.push_back(document.get_object());
    }
  }
  return MarkUsed(batch, data.template_id, documents);
}

Status Index(ViewBatch& batch, const DocumentUploadedData& data) {
  const std::string key = ExpiryKey(data.expires_at, data.document_id);
  batch.Put(key, data.cleaned_sha256);
  batch.Put(ExpiryRefKey(data.document_id), key);
  batch.Put(HolderPrefix(data.cleaned_sha256) + data.document_id, "");
  return {};
}

Status Index(ViewBatch& batch, const DocumentDeletedData& data) {
  batch.Delete(HolderPrefix(data.cleaned_sha256) + data.document_id);
  return ForgetExpiry(batch, data.document_id);
}

using IndexedEvents = boost::mp11::mp_list<ContractCreatedData, TemplateVersionAddedData,
                                           DocumentUploadedData, DocumentDeletedData>;

}  // namespace

Status DocumentIndex::Apply(const eventstore::EventRecord& event, ViewBatch& batch) {
  // Only a contract or a template version made from uploads names documents; others are skipped
  // without a parse.
  const bool may_name =
      event.type == event_type::kContractCreated || event.type == template_event::kVersionAdded;
  if (may_name && event.data.find("\"documents\"") == std::string::npos) return {};
  Status status;
  const auto visited = event_codec::VisitText<IndexedEvents>(
      event.type, event.data, [&](const auto& data) { status = Index(batch, data); });
  if (visited == event_codec::Visited::kUnreadable) {
    return Fail(ErrorCode::kCorruption, "event " + event.event_id + " does not read");
  }
  return status;
}

Result<std::vector<ExpiredUpload>> DocumentIndex::Expired(std::string_view now,
                                                          size_t limit) const {
  const std::unique_ptr<const RowReader> snapshot = views_.Snapshot();
  std::vector<ExpiredUpload> out;
  auto scanned = PrefixedReader(*snapshot, kDocumentIndexName)
                     .Scan("x/", "", false, [&](std::string_view key, std::string_view value) {
                       const std::string_view rest = key.substr(2);
                       const size_t slash = rest.rfind('/');
                       if (slash == std::string_view::npos) return true;
                       const std::string_view expires_at = rest.substr(0, slash);
                       if (expires_at > now || out.size() >= limit) return false;
                       out.push_back(ExpiredUpload{std::string(rest.substr(slash + 1)),
                                                   std::string(value), std::string(expires_at)});
                       return true;
                     });
  if (!scanned) return Fail(scanned.error());
  return out;
}

Result<std::string> DocumentIndex::NextExpiry() const {
  const std::unique_ptr<const RowReader> snapshot = views_.Snapshot();
  std::string next;
  auto scanned = PrefixedReader(*snapshot, kDocumentIndexName)
                     .Scan("x/", "", false, [&](std::string_view key, std::string_view) {
                       const std::string_view rest = key.substr(2);
                       next = std::string(rest.substr(0, rest.rfind('/')));
                       return false;
                     });
  if (!scanned) return Fail(scanned.error());
  return next;
}

Result<bool> DocumentIndex::SharedWithAnother(std::string_view cleaned_sha256,
                                              std::string_view document_id) const {
  const std::unique_ptr<const RowReader> snapshot = views_.Snapshot();
  const std::string prefix = HolderPrefix(cleaned_sha256);
  bool shared = false;
  auto scanned = PrefixedReader(*snapshot, kDocumentIndexName)
                     .Scan(prefix, "", false, [&](std::string_view key, std::string_view) {
                       shared = key.substr(prefix.size()) != document_id;
                       return !shared;
                     });
  if (!scanned) return Fail(scanned.error());
  return shared;
}

Result<bool> DocumentIndex::Used(std::string_view document_id) const {
  const std::unique_ptr<const RowReader> snapshot = views_.Snapshot();
  auto row = PrefixedReader(*snapshot, kDocumentIndexName).Get(UsedKey(document_id));
  if (!row) return Fail(row.error());
  return row->has_value();
}

}  // namespace esign::projections
