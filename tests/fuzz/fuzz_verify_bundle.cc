// The bundles `contract-ledger verify-bundle` checks (app/ledger_commands.cc): an evidence bundle
// (documents/evidence_bundle.h) or a proof bundle (eventstore/proof_bundle.h), chosen the way
// the command chooses. A bundle is the normal case of hostile input: an auditor checks what
// someone handed over. Every input yields a report (or, for a proof bundle that is not an
// object, an error), never a crash; no trusted key is given, so a genuine bundle in the corpus
// passes every check and the fuzzer starts from the deepest paths.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <boost/json.hpp>

#include "documents/evidence_bundle.h"
#include "eventstore/proof_bundle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  boost::system::error_code ec;
  const boost::json::value bundle = boost::json::parse(text, ec);
  if (ec) return 0;
  if (esign::IsEvidenceBundle(bundle) ||
      (bundle.is_object() && bundle.as_object().contains("ledger"))) {
    const auto checks = esign::VerifyEvidenceBundle(bundle.as_object(), nullptr, {});
    (void)esign::VerificationReport("ctr_fuzz", checks);
    return 0;
  }
  auto report = esign::eventstore::VerifyProofBundle(bundle);
  if (!report && bundle.is_object()) __builtin_trap();  // only a non-object is an error
  if (report) (void)report->first_failure();
  return 0;
}
