// seal_bench: the signed PDF of a completed contract, from layout to PAdES signature.
//
//   seal_bench [--benchmark_filter=...] [--benchmark_repetitions=N]
//
// The contract is the example services agreement (three pages: its signature boxes sit on page
// 3), every field and three table rows filled, two signers: one typed signature, one PNG image.
// Workloads:
//   BM_RenderUnsigned      RenderContractPdf: the unsigned PDF, for comparison
//   BM_RenderSigned        RenderSignedContractPdf: the pages with both signatures drawn
//   BM_RenderSentNda/by_cairo:0|1  RenderContractPdfForSend of the mutual NDA that
//                          benchmarks/load.sh creates and sends (its wrk/create.lua data, both
//                          signers prepared): what a send renders over HTTP, written by our own
//                          PDF writer (0) or by cairo (1, as before 2026-11-29)
//   BM_ComposeSentUploads  ComposeUploadedPdf of a one-page upload (the NDA's PDF): what a send
//                          of a contract from uploads does instead of rendering
//   BM_FirstRender         the NDA's first render on a fresh thread (its font map and shared
//                          template layouts are new): what a render pool thread's first send pays
//   BM_Seal                SealContractPdf: the same, then the service's PAdES signature
//   BM_SealWithCertificate the same with a two-page completion certificate (2 participants,
//                          12 events) appended before the signature, as completion seals it
//   BM_SealTimestamped     the same sealed PAdES B-LT by the RFC 3161 authority at $ESIGN_TSA_URL
//                          (e.g. tests/support/tsa_server.mjs on loopback); skipped without it
//   BM_RenderBurst/pooled:0|1  64 threads started at once, each rendering the unsigned PDF 4 times
//                          back to back, as 64 sends at once do: directly on each thread (0), or
//                          through a RenderPool of one thread per core (1), as ContractDocuments
//                          renders. Counts each thread's cold start (its first render loads the
//                          fonts); prints renders/s and the p50 and p99 of one render's latency.
// Each prints seals/s: documents per second of wall time on one thread.
// With SEAL_BENCH_PDF_DIR set, the unsigned PDFs measured are written there (services.pdf,
// nda.pdf) to look at what the render produced (qpdf --show-npages, --qdf).
#include <benchmark/benchmark.h>
#include <cairo.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "documents/contract_sealer.h"
#include "documents/pdf_renderer.h"
#include "documents/render_pool.h"
#include "documents/timestamp_authority.h"
#include "documents/uploaded_pdf_composer.h"
#include "domain/template_importer.h"

namespace esign::documents {
namespace {

struct Contract {
  Template tmpl;
  ContractState state;
  std::vector<SignatureAppearance> appearances;
  std::unique_ptr<ServiceCertificate> certificate;
  std::string label;  // "3 pages, 2 signatures", read from the rendered page tree
};

// A sample value of the field's type, so every placeholder of the body is filled.
boost::json::value Sample(const FieldDef& field, int row) {
  switch (field.type) {
    case FieldType::kInteger:
      return 30 + row;
    case FieldType::kDecimal:
      return boost::json::string(std::to_string(1000 * (row + 1)) + ".50");
    case FieldType::kBoolean:
      return true;
    case FieldType::kDate:
      return boost::json::string("2026-11-0" + std::to_string(row + 1));
    case FieldType::kEnum:
      return boost::json::string(field.options.front());
    default:
      return boost::json::string(field.label + " of Ñúñez & 王 " + std::to_string(row + 1));
  }
}

cairo_status_t Append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

// A 400x120 signature-pad style image.
std::string PadImage() {
  cairo_surface_t* pad = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 400, 120);
  cairo_t* pen = cairo_create(pad);
  cairo_set_line_width(pen, 5);
  for (int loop = 0; loop < 4; ++loop) cairo_arc(pen, 60.0 + 90 * loop, 60, 40, 0, 5);
  cairo_stroke(pen);
  cairo_destroy(pen);
  std::string png;
  cairo_surface_write_to_png_stream(pad, Append, &png);
  cairo_surface_destroy(pad);
  return png;
}

const Contract& TheContract() {
  static const Contract contract = [] {
    Contract c;
    std::ifstream in(std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/services-agreement.json");
    std::stringstream text;
    text << in.rdbuf();
    c.tmpl = ImportTemplateText(text.str()).value();
    const TemplateVersion& version = c.tmpl.versions.front();
    c.state.id = "ctr_01JD4T5Y2M8Q";
    c.state.version = 9;
    c.state.status = ContractStatus::kCompleted;
    c.state.title = "Services agreement";
    c.state.organization_id = "org_acme";
    c.state.created_at = "2026-11-20T08:00:00Z";
    for (const auto& section : version.sections) {
      for (const auto& field : section.fields)
        c.state.data.field_values[field.key] = Sample(field, 0);
      for (const auto& table : section.tables) {
        boost::json::array rows;
        for (int row = 0; row < 3; ++row) {
          boost::json::object cells;
          for (const auto& column : table.columns) cells[column.key] = Sample(column, row);
          rows.push_back(std::move(cells));
        }
        c.state.data.table_data[table.table_key] = std::move(rows);
      }
    }
    const std::vector<std::string> signers = {"Zoë Ñúñez", "王小明"};
    for (const auto& role : version.roles) {
      if (role.action != ParticipantAction::kSign) continue;
      const size_t n = c.appearances.size();
      const std::string id = "p_" + std::to_string(n);
      Participant participant;
      participant.participant_id = id;
      participant.name = signers[n % signers.size()];
      c.state.participants.push_back(participant);
      c.state.prepared_roles.push_back({.template_role_id = role.template_role_id,
                                        .participant_id = id,
                                        .routing_order = role.routing_order,
                                        .signature_placement = role.signature_placement});
      c.appearances.push_back({.participant_id = id,
                               .signer_name = participant.name,
                               .signature_text = participant.name,
                               .signed_at = "2026-11-21T10:04:00Z"});
    }
    c.appearances.back().image_png = PadImage();
    c.certificate = ServiceCertificate::CreateEphemeral().value();
    const std::string pdf = RenderContractPdf(c.tmpl, version, c.state).value();
    const size_t count = pdf.find("/Count ");
    c.label = (count == std::string::npos
                   ? "?"
                   : pdf.substr(count + 7, pdf.find_first_of(" />\n", count + 7) - count - 7)) +
              " pages, " + std::to_string(c.appearances.size()) + " signatures";
    return c;
  }();
  return contract;
}

// The mutual NDA as benchmarks/wrk/create.lua creates it, prepared as sending prepares it.
const Contract& SentNda() {
  static const Contract contract = [] {
    Contract c;
    std::ifstream in(std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/mutual-nda.json");
    std::stringstream text;
    text << in.rdbuf();
    c.tmpl = ImportTemplateText(text.str()).value();
    const TemplateVersion& version = c.tmpl.versions.front();
    c.state.id = "ctr_01JD4T5Y2M8QNDA";
    c.state.version = 2;
    c.state.status = ContractStatus::kSent;
    c.state.title = "Mutual NDA";
    c.state.organization_id = "org_load";
    c.state.created_at = "2026-11-20T08:00:00Z";
    c.state.data.field_values = {{"partyAName", "Acme GmbH"},
                                 {"partyAAddress", "Hauptstrasse 1, Berlin"},
                                 {"partyBName", "Globex Ltd"},
                                 {"partyBAddress", "1 High Street, London"},
                                 {"effectiveDate", "2026-12-01"},
                                 {"purpose", "Evaluating a joint venture"},
                                 {"termMonths", 24},
                                 {"confidentialityYears", 5},
                                 {"governingLaw", "England and Wales"}};
    const std::vector<std::string> signers = {"Ada Lovelace", "Grace Hopper"};
    for (const auto& role : version.roles) {
      if (role.action != ParticipantAction::kSign) continue;
      const size_t n = c.state.participants.size();
      Participant participant;
      participant.participant_id = "p_" + std::to_string(n);
      participant.name = signers[n % signers.size()];
      c.state.participants.push_back(participant);
      c.state.prepared_roles.push_back({.template_role_id = role.template_role_id,
                                        .participant_id = participant.participant_id,
                                        .routing_order = role.routing_order,
                                        .signature_placement = role.signature_placement});
    }
    c.label = "mutual NDA";
    return c;
  }();
  return contract;
}

// Writes `pdf` to $SEAL_BENCH_PDF_DIR/name when that is set.
void KeepPdf(const std::string& name, const std::string& pdf) {
  const char* dir = std::getenv("SEAL_BENCH_PDF_DIR");
  if (dir == nullptr) return;
  std::ofstream(std::string(dir) + "/" + name, std::ios::binary) << pdf;
}

void Report(benchmark::State& state) {
  state.SetLabel(TheContract().label);
  state.counters["seals/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_RenderUnsigned(benchmark::State& state) {
  const Contract& c = TheContract();
  for (auto _ : state) {
    auto pdf = RenderContractPdf(c.tmpl, c.tmpl.versions.front(), c.state);
    if (!pdf) state.SkipWithError(pdf.error().message.c_str());
    benchmark::DoNotOptimize(pdf);
    if (pdf) KeepPdf("services.pdf", *pdf);
  }
  Report(state);
}

// Arg 0: our own writer (as sends write since 2026-11-29); 1: cairo, as before (the reference).
void BM_RenderSentNda(benchmark::State& state) {
  const Contract& c = SentNda();
  RenderOptions options;
  if (state.range(0) == 1) options.writer = RenderOptions::Writer::kCairo;
  for (auto _ : state) {
    auto sent = RenderContractPdfForSend(c.tmpl, c.tmpl.versions.front(), c.state, options);
    if (!sent) state.SkipWithError(sent.error().message.c_str());
    benchmark::DoNotOptimize(sent);
    if (sent) KeepPdf("nda.pdf", sent->pdf);
  }
  state.SetLabel(c.label);
  state.counters["renders/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// What a send composes instead for a contract from uploads: no render, the cleaned uploads'
// pages put together (the NDA's rendered PDF standing in for an uploaded one-page document).
void BM_ComposeSentUploads(benchmark::State& state) {
  const Contract& c = SentNda();
  const std::string upload = RenderContractPdf(c.tmpl, c.tmpl.versions.front(), c.state).value();
  ContractDocument document;
  document.document_id = "doc_nda";
  document.pages = {{.width = 595.28, .height = 841.89}};  // the NDA is one page
  const std::vector<UploadedPdf> documents = {{&document, upload}};
  for (auto _ : state) {
    auto pdf = ComposeUploadedPdf(documents);
    if (!pdf) state.SkipWithError(pdf.error().message.c_str());
    benchmark::DoNotOptimize(pdf);
  }
  state.counters["composes/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_FirstRender(benchmark::State& state) {
  const Contract& c = SentNda();
  for (auto _ : state) {
    double seconds = 0;
    std::thread([&] {
      const auto start = std::chrono::steady_clock::now();
      auto pdf = RenderContractPdf(c.tmpl, c.tmpl.versions.front(), c.state);
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      benchmark::DoNotOptimize(pdf);
    }).join();
    state.SetIterationTime(seconds);
  }
  state.SetLabel(c.label);
}

void BM_RenderSigned(benchmark::State& state) {
  const Contract& c = TheContract();
  for (auto _ : state) {
    auto pdf = RenderSignedContractPdf(c.tmpl, c.tmpl.versions.front(), c.state, c.appearances);
    if (!pdf) state.SkipWithError(pdf.error().message.c_str());
    benchmark::DoNotOptimize(pdf);
  }
  Report(state);
}

void BM_RenderBurst(benchmark::State& state) {
  constexpr int kThreads = 64;
  constexpr int kRendersPerThread = 4;
  const Contract& c = TheContract();
  std::vector<double> latencies;  // milliseconds, every render of every iteration
  for (auto _ : state) {
    std::unique_ptr<RenderPool> pool =
        state.range(0) != 0 ? std::make_unique<RenderPool>() : nullptr;
    std::vector<std::vector<double>> measured(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < kRendersPerThread; ++i) {
          const auto start = std::chrono::steady_clock::now();
          const auto render = [&] {
            return RenderContractPdf(c.tmpl, c.tmpl.versions.front(), c.state);
          };
          auto pdf = pool != nullptr ? pool->Run(render) : render();
          benchmark::DoNotOptimize(pdf);
          measured[t].push_back(
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                  .count());
        }
      });
    }
    for (auto& thread : threads) thread.join();
    for (const auto& one : measured) latencies.insert(latencies.end(), one.begin(), one.end());
  }
  std::sort(latencies.begin(), latencies.end());
  const auto percentile = [&](double p) {
    return latencies[std::min(latencies.size() - 1,
                              static_cast<size_t>(p * static_cast<double>(latencies.size())))];
  };
  state.SetLabel(TheContract().label);
  state.counters["renders/s"] =
      benchmark::Counter(static_cast<double>(latencies.size()), benchmark::Counter::kIsRate);
  state.counters["p50_ms"] = percentile(0.50);
  state.counters["p99_ms"] = percentile(0.99);
}

// SealContractPdf of the contract with `options`, once per iteration. `accept` (optional) says
// whether a seal is what the workload measures; the first one it refuses ends the run.
void SealEach(benchmark::State& state, const SealOptions& options,
              bool (*accept)(const SealedContract&) = nullptr) {
  const Contract& c = TheContract();
  for (auto _ : state) {
    auto pdf = SealContractPdf(c.tmpl, c.tmpl.versions.front(), c.state, c.appearances,
                               *c.certificate, options);
    if (!pdf) {
      state.SkipWithError(pdf.error().message.c_str());
    } else if (accept != nullptr && !accept(*pdf)) {
      state.SkipWithError("the seal is not what this workload measures");
      return;
    }
    benchmark::DoNotOptimize(pdf);
  }
  Report(state);
}

void BM_Seal(benchmark::State& state) {
  SealEach(state, {.signing_time = std::chrono::sys_days{std::chrono::November / 21 / 2026}});
}

// What the certificate of a contract signed in one sitting lists: its two signers and twelve
// events.
CompletionCertificate SampleCertificate(const Contract& c) {
  CompletionCertificate certificate{.contract_id = c.state.id,
                                    .title = c.state.title,
                                    .organization_id = c.state.organization_id,
                                    .template_name = c.tmpl.name,
                                    .sent_at = "2026-11-20T08:05:00.000000Z",
                                    .completed_at = "2026-11-21T10:04:00.000000Z",
                                    .unsigned_sha256 = std::string(64, 'a'),
                                    .stream_id = "contract-" + c.state.id};
  for (const auto& p : c.state.participants) {
    certificate.participants.push_back(
        {.name = p.name,
         .contact = p.participant_id + "@example.com",
         .role = "Signatory",
         .action = "Sign",
         .outcome = "Signed",
         .when = "2026-11-21T10:04:00.000000Z",
         .required_authentication = "Signing link and e-mail code",
         .signing_method = "E-mail code; via the hosted page",
         .ip = "203.0.113.41",
         .user_agent = "Mozilla/5.0 (X11; Linux x86_64) Firefox/132"});
  }
  for (uint64_t i = 0; i < 12; ++i) {
    certificate.events.push_back({.position = 100 + i,
                                  .stream_version = i + 1,
                                  .time = "2026-11-21T10:04:00.000000Z",
                                  .type = "signing_session.created",
                                  .description = "Signing session opened for Zoë Ñúñez",
                                  .actor = "Client cli_01M88AJ94M115CZ5VJF9EN6MTE",
                                  .ip = "198.51.100.7",
                                  .user_agent = "acme-backend/2.3",
                                  .authentication = "API client credentials"});
  }
  certificate.tree_head = CertificateTreeHead{.size = 112,
                                              .root_hex = std::string(64, 'b'),
                                              .time = "2026-11-21T10:04:00.000000Z",
                                              .key_fingerprint = std::string(64, 'c')};
  return certificate;
}

void BM_SealWithCertificate(benchmark::State& state) {
  SealOptions options{.signing_time = std::chrono::sys_days{std::chrono::November / 21 / 2026}};
  options.certificate = SampleCertificate(TheContract());
  SealEach(state, options);
}

void BM_SealTimestamped(benchmark::State& state) {
  const char* url = std::getenv("ESIGN_TSA_URL");
  if (url == nullptr) {
    state.SkipWithError("ESIGN_TSA_URL is not set");
    return;
  }
  auto authority = TimestampAuthority::Create({.url = url});
  if (!authority) {
    state.SkipWithError(authority.error().message.c_str());
    return;
  }
  // A seal without /DSS fell back to B-B: not the timestamped seal this measures.
  SealEach(
      state,
      {.signing_time = std::chrono::sys_days{std::chrono::November / 21 / 2026},
       .timestamp_authority = authority->get()},
      [](const SealedContract& sealed) { return sealed.pdf.find("/DSS") != std::string::npos; });
}

BENCHMARK(BM_RenderUnsigned)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RenderSentNda)
    ->ArgName("by_cairo")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_ComposeSentUploads)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FirstRender)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(BM_RenderSigned)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RenderBurst)
    ->ArgName("pooled")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_Seal)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SealWithCertificate)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SealTimestamped)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace esign::documents

BENCHMARK_MAIN();
