#include "commands/evidence_commands.h"

#include "base/time_text.h"
#include "documents/evidence_bundle.h"
#include "domain/stream_kinds.h"
#include "eventstore/proof_bundle.h"

namespace esign::commands {

EvidenceCommands::EvidenceCommands(eventstore::EventStore& store, std::string certificate_pem,
                                   const Clock& clock)
    : store_(store), certificate_pem_(std::move(certificate_pem)), clock_(clock) {}

Result<boost::json::object> EvidenceCommands::Bundle(const ContractState& state) {
  if (auto head = store_.ledger().SignTreeHead(); !head) return std::unexpected(head.error());
  auto proof = eventstore::BuildProofBundle(store_, ContractStreamId(state.id));
  if (!proof) return std::unexpected(proof.error());
  EvidenceSources sources;
  sources.contract_id = state.id;
  sources.ledger_proof = std::move(*proof);
  sources.blobs = &store_.blobs();
  sources.certificate_pem = certificate_pem_;
  sources.generated_at = FormatTimestamp(clock_.NowMicros());
  return BuildEvidenceBundle(sources);
}

Result<std::string> EvidenceCommands::Store(const ContractState& state) {
  auto bundle = Bundle(state);
  if (!bundle) return std::unexpected(bundle.error());
  return store_.blobs().Put(boost::json::serialize(*bundle));
}

Result<boost::json::object> EvidenceCommands::Verify(const ContractState& state) {
  auto bundle = Bundle(state);
  if (!bundle) return std::unexpected(bundle.error());
  const auto checks = VerifyEvidenceBundle(*bundle, &store_.blobs(), store_.ledger().PublicKeyPem(),
                                           certificate_pem_, trusted_tsa_ca_pem_);
  return VerificationReport(state.id, checks, bundle->at("unproven").at("generatedAt").as_string());
}

}  // namespace esign::commands
