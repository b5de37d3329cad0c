// EvidenceCommands: the evidence of a contract (DESIGN section 12), built as of now. Building a
// bundle first signs a tree head covering the contract's events (a ledger write), so the
// evidence routes call this instead of reaching into the store. Store is the contract handler's
// StoreEvidence: PersistEvidence stores the bundle through it once the command is decided.
// Thread safety: every method may be called from any thread.
#pragma once

#include <string>

#include <boost/json.hpp>

#include "domain/clock.h"
#include "domain/contract_state.h"
#include "domain/result.h"
#include "eventstore/event_store.h"

namespace esign::commands {

class EvidenceCommands {
 public:
  // `certificate_pem`: the service's signing certificate, carried in every bundle and trusted by
  // verification. Everything given by reference must outlive the handler.
  EvidenceCommands(eventstore::EventStore& store, std::string certificate_pem, const Clock& clock);

  // The evidence bundle of `state` (documents/evidence_bundle.h), generated now.
  Result<boost::json::object> Bundle(const ContractState& state);
  // A bundle, stored as a blob; its SHA-256 (hex), which contract.evidence_persisted records.
  Result<std::string> Store(const ContractState& state);
  // The verification report of a bundle generated now: every check recomputed against the
  // stored documents, the ledger's key, the service's certificate and, when set, the CA of the
  // timestamp authority.
  Result<boost::json::object> Verify(const ContractState& state);
  // The CA every timestamp must chain to in reports from now on (--tsa-ca-file). Call before the
  // service is shared.
  void SetTrustedTimestampCa(std::string pem) { trusted_tsa_ca_pem_ = std::move(pem); }

 private:
  eventstore::EventStore& store_;
  const std::string certificate_pem_;
  std::string trusted_tsa_ca_pem_;
  const Clock& clock_;
};

}  // namespace esign::commands
