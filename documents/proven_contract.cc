#include "documents/proven_contract.h"

#include <algorithm>
#include <string_view>

#include "base/json_read.h"
#include "domain/contract.h"
#include "eventstore/domain_events.h"
#include "eventstore/event_record.h"
#include "projections/audit_entry.h"

namespace esign::documents {

boost::json::object RecordedDocument::ToJson() const {
  boost::json::object out{{"kind", kind}, {"sha256", sha256}};
  if (revision > 0) out["revision"] = revision;
  return out;
}

std::vector<RecordedDocument> RecordedDocuments(const ContractState& state) {
  std::vector<RecordedDocument> out;
  if (state.rendered_document_sha256) {
    out.push_back({"rendered_unsigned", *state.rendered_document_sha256, 0});
  }
  for (const auto& r : state.artifact_revisions) out.push_back({r.kind, r.sha256, r.revision});
  // The signed contract pages before the certificate and the seal: the sealed PDF's first bytes.
  if (state.signed_content_sha256) {
    out.push_back({"signed_content", *state.signed_content_sha256, 0});
  }
  // The signed PDF the downloads serve, unless a revision already lists it.
  if (state.signed_pdf_key && std::none_of(out.begin(), out.end(), [&](const RecordedDocument& d) {
        return d.sha256 == *state.signed_pdf_key;
      })) {
    out.push_back({"signed_pdf", *state.signed_pdf_key, 0});
  }
  return out;
}

ProvenContract ReadProvenContract(const boost::json::value& proof_bundle) {
  ProvenContract out;
  const auto* bundle = proof_bundle.if_object();
  const boost::json::array* events = bundle ? ArrayMember(*bundle, "events") : nullptr;
  if (events == nullptr) return out;
  for (const boost::json::value& event : *events) {
    const auto* object = event.if_object();
    const std::optional<std::string_view> bytes =
        object ? StringMember(*object, "record") : std::nullopt;
    if (!bytes) continue;
    Result<eventstore::EventRecord> record = eventstore::ParseRecord(*bytes);
    if (!record) continue;
    Result<DomainEvent> domain_event = eventstore::ToDomainEvent(*record);
    if (!domain_event) continue;
    out.audit_trail.push_back(projections::AuditEntryOf(*record, domain_event->data));
    out.state = Apply(std::move(out.state), *domain_event);
  }
  out.documents = RecordedDocuments(out.state);
  return out;
}

}  // namespace esign::documents
