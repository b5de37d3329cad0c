#include "projections/document_index.h"

#include <boost/json.hpp>

#include "base/json_read.h"
#include "domain/contract_events.h"
#include "domain/template_events.h"
#include "domain/uploaded_document.h"
#include "projections/view_batch.h"

namespace esign::projections {
namespace {

std::string ExpiryKey(std::string_view expires_at, std::string_view document_id) {
  return "x/" + std::string(expires_at) + "/" + std::string(document_id);
}
std::string ExpiryRefKey(std::string_view document_id) { return "r/" + std::string(document_id); }
std::string UsedKey(std::string_view document_id) { return "u/" + std::string(document_id); }
std::string HolderPrefix(std::string_view sha256) { return "s/" + std::string(sha256) + "/"; }

Result<boost::json::object> ParseData(const eventstore::EventRecord& event) {
  boost::system::error_code ec;
  boost::json::value parsed = boost::json::parse(event.data, ec);
  if (ec || !parsed.is_object()) {
    return Fail(ErrorCode::kCorruption, "event " + event.event_id + " is not an object");
  }
  return std::move(parsed.get_object());
}

// The upload leaves the expiry rows: named by a contract, or deleted.
Status ForgetExpiry(ViewBatch& batch, std::string_view document_id) {
  auto expiry = batch.Get(ExpiryRefKey(document_id));
  if (!expiry) return Fail(expiry.error());
  if (*expiry) batch.Delete(**expiry);
  batch.Delete(ExpiryRefKey(document_id));
  return {};
}

}  // namespace

Status DocumentIndex::Apply(const eventstore::EventRecord& event, ViewBatch& batch) {
  const bool uploaded = event.type == kDocumentUploaded;
  const bool deleted = event.type == kDocumentDeleted;
  // Only a contract or a template version made from uploads names documents; others are skipped
  // without a parse.
  const bool contract = event.type == event_type::kContractCreated;
  const bool version = event.type == template_event::kVersionAdded;
  const bool user = (contract || version) && event.data.find("\"documents\"") != std::string::npos;
  if (!uploaded && !deleted && !user) return {};
  auto data = ParseData(event);
  if (!data) return Fail(data.error());
  if (user) {
    const std::string user_id = StringMemberOrEmpty(*data, contract ? "contractId" : "templateId");
    const boost::json::object* holder = contract ? &*data : ObjectMember(*data, "version");
    const auto* documents = holder != nullptr ? ArrayMember(*holder, "documents") : nullptr;
    if (documents == nullptr) return {};
    for (const auto& document : *documents) {
      if (!document.is_object()) continue;
      const std::string id = StringMemberOrEmpty(document.get_object(), "documentId");
      auto used = batch.Get(UsedKey(id));
      if (!used) return Fail(used.error());
      if (!*used) batch.Put(UsedKey(id), user_id);
      if (auto ok = ForgetExpiry(batch, id); !ok) return ok;
    }
    return {};
  }
  const std::string id = StringMemberOrEmpty(*data, "documentId");
  const std::string sha256 = StringMemberOrEmpty(*data, "cleanedSha256");
  if (uploaded) {
    const std::string key = ExpiryKey(StringMemberOrEmpty(*data, "expiresAt"), id);
    batch.Put(key, sha256);
    batch.Put(ExpiryRefKey(id), key);
    batch.Put(HolderPrefix(sha256) + id, "");
    return {};
  }
  batch.Delete(HolderPrefix(sha256) + id);
  return ForgetExpiry(batch, id);
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
