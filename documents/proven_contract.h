// What the proven records of a contract say: the records of a proof bundle's events
// (eventstore/proof_bundle.h), replayed with the domain's Apply, and everything an evidence bundle
// shows that follows from them (the audit trail, the status, the version, the documents). The
// evidence bundle is built from this and its verification recomputes it, so every part a reader
// relies on is either equal to what the records say or fails by name.
// Thread safety: a pure function of its argument.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "domain/contract_state.h"

namespace esign::documents {

// A document of the contract as its events recorded it.
struct RecordedDocument {
  std::string kind;  // rendered_unsigned, signed_content, signed_pdf, evidence_bundle
  std::string sha256;
  int64_t revision = 0;  // 0: not a numbered revision

  // {"kind","sha256","revision"?}
  boost::json::object ToJson() const;
};

struct ProvenContract {
  ContractState state;                      // Apply over the records, in bundle order
  boost::json::array audit_trail;           // projections/audit_entry.h of every record
  std::vector<RecordedDocument> documents;  // RecordedDocuments(state)
};

// Every document the state records: the frozen unsigned PDF, each artifact revision, the signed
// contract pages the certificate's hash is of, and the signed PDF the downloads serve when no
// revision lists it.
std::vector<RecordedDocument> RecordedDocuments(const ContractState& state);

// The contract of a proof bundle's "events": each record that parses as a canonical record whose
// data is a JSON object, in order. Whether the records are proven is VerifyProofBundle's to say;
// an event that does not parse is left out here (and fails there by name).
ProvenContract ReadProvenContract(const boost::json::value& proof_bundle);

}  // namespace esign::documents
