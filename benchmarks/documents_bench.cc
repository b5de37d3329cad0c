// documents_bench: the evidence side of a completed contract, one Google Benchmark each, on a
// three-page services agreement (examples/templates/services-agreement.json; rendering it and
// sealing it are measured by seal_bench):
//   BM_SignPdf                   SignPdf over the rendered PDF (QPDF read, CMS with ECDSA P-256)
//   BM_CheckPdfSignatures        CheckPdfSignatures over the signed PDF (QPDF, CMS verify)
//   BM_BuildEvidenceBundle       BuildEvidenceBundle: replay of the records, audit trail, hashes
//   BM_VerifyEvidenceBundle      VerifyEvidenceBundle: every check of the verification report
// Each prints its time per operation and items/s (documents per second) on this machine.
//
//   build/benchmarks/documents_bench [--benchmark_filter=...] [--benchmark_repetitions=3]
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>

#include "documents/evidence_bundle.h"
#include "documents/pdf_renderer.h"
#include "documents/pdf_signature_check.h"
#include "documents/pdf_signer.h"
#include "domain/stream_kinds.h"
#include "domain/template_importer.h"
#include "eventstore/domain_events.h"
#include "eventstore/memory_event_store.h"
#include "eventstore/proof_bundle.h"

namespace esign {
namespace {

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "documents_bench: %s\n", what.c_str());
  std::exit(1);
}

Template ServicesTemplate() {
  std::ifstream in(std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/services-agreement.json");
  std::stringstream text;
  text << in.rdbuf();
  auto imported = ImportTemplateText(text.str());
  if (!imported) Die("cannot import services-agreement.json: " + imported.error().message);
  return *imported;
}

// A services agreement whose milestone table takes the document to `rows` rows.
ContractState ServicesContract(const Template& tmpl, int rows) {
  ContractState state;
  state.id = "ctr_bench";
  state.version = 3;
  state.status = ContractStatus::kCompleted;
  state.title = "Services agreement";
  state.template_id = tmpl.template_id;
  state.template_version_id = tmpl.versions.front().template_version_id;
  state.organization_id = "org_bench";
  state.created_at = "2026-11-21T09:00:00Z";
  state.data.field_values = {
      {"clientName", "Zoë Ñúñez"},     {"providerName", "Bench Consulting Ltd"},
      {"effectiveDate", "2026-04-01"}, {"currency", "EUR"},
      {"totalFee", "48250.50"},        {"governingLaw", "Spain"}};
  boost::json::array milestones;
  for (int i = 1; i <= rows; ++i) {
    milestones.push_back(boost::json::object{{"description", "Milestone " + std::to_string(i)},
                                             {"dueDate", "2026-05-01"},
                                             {"amount", std::to_string(i * 100) + ".00"}});
  }
  state.data.table_data = {{"paymentMilestones", std::move(milestones)}};
  return state;
}

// cairo writes one "/Type /Page" dictionary per page (and "/Type /Pages" for the tree).
int PageCount(const std::string& pdf) {
  int pages = 0;
  for (size_t at = pdf.find("/Type /Page"); at != std::string::npos;
       at = pdf.find("/Type /Page", at + 1)) {
    pages += pdf.compare(at, 12, "/Type /Pages") != 0 ? 1 : 0;
  }
  return pages;
}

// Everything the benchmarks share, made once: the template, a contract that renders to exactly
// three pages, its PDF signed, a signing identity and a ledger holding the contract's events.
struct Fixture {
  Fixture() {
    tmpl = ServicesTemplate();
    for (int rows = 10; rows < 400 && pages != 3; rows += 5) {
      state = ServicesContract(tmpl, rows);
      auto pdf = RenderContractPdf(tmpl, tmpl.versions.front(), state);
      if (!pdf) Die("render: " + pdf.error().message);
      pages = PageCount(*pdf);
      unsigned_pdf = std::move(*pdf);
    }
    if (pages != 3) Die("no milestone count gives three pages");
    auto created = documents::ServiceCertificate::CreateEphemeral();
    if (!created) Die("certificate: " + created.error().message);
    cert = std::move(*created);
    auto signed_once = documents::SignPdf(unsigned_pdf, *cert);
    if (!signed_once) Die("sign: " + signed_once.error().message);
    signed_pdf = std::move(*signed_once);

    auto opened = eventstore::MemoryEventStore::Create();
    if (!opened) Die("store: " + opened.error().message);
    store = std::move(*opened);
    // created, prepared, sent, signatures, completed: the bundle shows what these records say.
    const std::string unsigned_sha = *store->blobs().Put(unsigned_pdf);
    const std::string signed_sha = *store->blobs().Put(signed_pdf);
    std::vector<eventstore::NewEvent> events;
    events.push_back({"evt_bench_0", "contract.created", 1,
                      boost::json::serialize(boost::json::object{{"contractId", state.id}})});
    events.push_back(
        {"evt_bench_1", "contract.prepared", 1,
         boost::json::serialize(boost::json::object{{"renderedDocumentSha256", unsigned_sha}})});
    for (int i = 2; i < 7; ++i) {
      events.push_back({"evt_bench_" + std::to_string(i), "contract.bench", 1,
                        R"({"step":)" + std::to_string(i) + "}"});
    }
    events.push_back(
        {"evt_bench_7", "contract.completed", 1,
         boost::json::serialize(boost::json::object{
             {"signedPdfKey", signed_sha}, {"signedPdfSha256", signed_sha}, {"revision", 1}})});
    if (!store->Append(ContractStreamId(state.id), eventstore::ExpectedVersion::Any(),
                       std::move(events)) ||
        !store->ledger().SignTreeHead()) {
      Die("cannot write the contract's events");
    }
  }

  EvidenceSources Sources() const {
    auto proof = eventstore::BuildProofBundle(*store, ContractStreamId(state.id));
    if (!proof) Die("proof bundle: " + proof.error().message);
    EvidenceSources sources;
    sources.contract_id = state.id;
    sources.ledger_proof = std::move(*proof);
    sources.blobs = &store->blobs();
    sources.certificate_pem = cert->CertificatePem();
    sources.generated_at = "2026-11-21T09:30:00Z";
    return sources;
  }

  Template tmpl;
  ContractState state;
  int pages = 0;
  std::string unsigned_pdf;
  std::string signed_pdf;
  std::unique_ptr<documents::ServiceCertificate> cert;
  std::unique_ptr<eventstore::MemoryEventStore> store;
};

const Fixture& Shared() {
  static const Fixture fixture;
  return fixture;
}

void BM_SignPdf(benchmark::State& bench) {
  const Fixture& f = Shared();
  for (auto _ : bench) {
    auto signed_pdf = documents::SignPdf(f.unsigned_pdf, *f.cert);
    if (!signed_pdf) Die("sign: " + signed_pdf.error().message);
    benchmark::DoNotOptimize(signed_pdf->data());
  }
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_SignPdf)->Unit(benchmark::kMillisecond);

void BM_CheckPdfSignatures(benchmark::State& bench) {
  const Fixture& f = Shared();
  for (auto _ : bench) {
    auto checked = documents::CheckPdfSignatures(f.signed_pdf, f.cert->CertificatePem());
    if (!checked || !documents::UnmodifiedSinceLastSignature(*checked)) Die("check failed");
  }
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_CheckPdfSignatures)->Unit(benchmark::kMillisecond);

void BM_BuildEvidenceBundle(benchmark::State& bench) {
  const Fixture& f = Shared();
  for (auto _ : bench) {
    auto bundle = BuildEvidenceBundle(f.Sources());
    if (!bundle) Die("bundle: " + bundle.error().message);
    benchmark::DoNotOptimize(bundle->size());
  }
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_BuildEvidenceBundle)->Unit(benchmark::kMillisecond);

void BM_VerifyEvidenceBundle(benchmark::State& bench) {
  const Fixture& f = Shared();
  auto bundle = BuildEvidenceBundle(f.Sources());
  if (!bundle) Die("bundle: " + bundle.error().message);
  const std::string key = f.store->ledger().PublicKeyPem();
  const std::string cert = f.cert->CertificatePem();
  for (auto _ : bench) {
    const auto checks = VerifyEvidenceBundle(*bundle, &f.store->blobs(), key, cert);
    if (!VerificationReport(f.state.id, checks).at("valid").as_bool()) Die("report fails");
  }
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_VerifyEvidenceBundle)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace esign

BENCHMARK_MAIN();
