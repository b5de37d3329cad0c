#include "documents/contract_documents.h"

#include <chrono>
#include <vector>

#include "base/json_read.h"
#include "base/sha256.h"
#include "base/time_text.h"
#include "documents/contract_sealer.h"
#include "documents/pdf_renderer.h"
#include "domain/stream_kinds.h"

namespace esign::documents {
namespace {

constexpr size_t kReadBatch = 1000;

}  // namespace

ContractDocuments::ContractDocuments(projections::TemplateLookup templates,
                                     eventstore::EventStore& store,
                                     const ServiceCertificate& certificate, const Clock& clock)
    : templates_(std::move(templates)),
      store_(store),
      certificate_(certificate),
      clock_(clock),
      render_pool_(std::make_unique<RenderPool>()) {}

ContractDocuments::~ContractDocuments() = default;

Result<ContractDocuments::Source> ContractDocuments::SourceOf(const ContractState& state) const {
  Source source{templates_(state.template_id)};
  if (source.tmpl) source.version = source.tmpl->FindVersion(state.template_version_id);
  if (source.version == nullptr) {
    return Fail(ErrorCode::kTemplateVersionNotFound,
                "template version " + state.template_version_id + " is not available");
  }
  return source;
}

Result<std::string> ContractDocuments::Render(const ContractState& state) const {
  auto source = SourceOf(state);
  if (!source) return std::unexpected(source.error());
  return render_pool_->Run(
      [&] { return RenderContractPdf(*source->tmpl, *source->version, state); });
}

RenderOptions ContractDocuments::FrozenLayout(const Source& source,
                                              const ContractState& state) const {
  RenderOptions current;
  if (!state.rendered_document_sha256) return current;
  const auto reproduces = [&](const RenderOptions& options) {
    auto pdf = RenderContractPdf(*source.tmpl, *source.version, state, options);
    return pdf && Sha256Hex(*pdf) == *state.rendered_document_sha256;
  };
  if (reproduces(current)) return current;
  RenderOptions with_ligatures;
  with_ligatures.ligatures = true;
  return reproduces(with_ligatures) ? with_ligatures : current;
}

Result<std::string> ContractDocuments::Freeze(const ContractState& prepared) const {
  auto pdf = Render(prepared);
  if (!pdf) return std::unexpected(pdf.error());
  return store_.blobs().Put(*pdf);
}

Result<CompletionCertificate> ContractDocuments::Certificate(
    const ContractState& all_signed, const Source& source, const Completion& completion,
    const std::string& completed_at) const {
  std::vector<eventstore::EventRecord> recorded;
  const std::string stream = ContractStreamId(all_signed.id);
  for (;;) {
    auto batch = store_.ReadStream(stream, StreamVersion(recorded.size() + 1), kReadBatch);
    if (!batch) return std::unexpected(std::move(batch.error()));
    recorded.insert(recorded.end(), std::make_move_iterator(batch->begin()),
                    std::make_move_iterator(batch->end()));
    if (batch->size() < kReadBatch) break;
  }
  // A head over the log as it stands covers every recorded event of the contract.
  auto head = store_.ledger().SignTreeHead();
  if (!head) return std::unexpected(std::move(head.error()));
  return BuildCompletionCertificate({.state = &all_signed,
                                     .tmpl = source.tmpl.get(),
                                     .version = source.version,
                                     .recorded = recorded,
                                     .pending = completion.pending,
                                     .pending_actor = completion.actor,
                                     .completed_at = completed_at,
                                     .tree_head = *head,
                                     .ledger_public_key_pem = store_.ledger().PublicKeyPem()});
}

Result<SealedDocument> ContractDocuments::Seal(const ContractState& all_signed,
                                               const Completion& completion) const {
  auto source = SourceOf(all_signed);
  if (!source) return std::unexpected(source.error());
  std::vector<SignatureAppearance> appearances;
  for (const auto& p : all_signed.participants) {
    if (!p.signs() || !p.signed_at || all_signed.PreparedRoleOf(p.participant_id) == nullptr) {
      continue;
    }
    // Every signature as its signer gave it: the typed text, or the image they drew.
    const std::string signer_name = StringMemberOrEmpty(p.signing_evidence, "signerName");
    SignatureAppearance appearance{p.participant_id, signer_name.empty() ? p.name : signer_name,
                                   StringMemberOrEmpty(p.signing_evidence, "signatureText"),
                                   *p.signed_at, ""};
    if (const std::string image = StringMemberOrEmpty(p.signing_evidence, "signatureImageSha256");
        !image.empty()) {
      auto png = store_.blobs().Get(image);
      if (!png) return std::unexpected(png.error());
      appearance.image_png = std::move(*png);
    }
    appearances.push_back(std::move(appearance));
  }
  const int64_t now = clock_.NowMicros();
  const std::string completed_at =
      completion.completed_at.empty() ? FormatTimestamp(now) : completion.completed_at;
  auto certificate = Certificate(all_signed, *source, completion, completed_at);
  if (!certificate) return std::unexpected(std::move(certificate.error()));
  SealOptions options;
  options.signing_time = std::chrono::system_clock::time_point(std::chrono::microseconds(now));
  options.certificate = std::move(*certificate);
  options.timestamp_authority = timestamp_authority_;
  options.layout = FrozenLayout(*source, all_signed);
  auto sealed = SealContractPdf(*source->tmpl, *source->version, all_signed, appearances,
                                certificate_, options);
  if (!sealed) return std::unexpected(sealed.error());
  auto content_key = store_.blobs().Put(sealed->signed_content());
  if (!content_key) return std::unexpected(std::move(content_key.error()));
  auto key = store_.blobs().Put(sealed->pdf);
  if (!key) return std::unexpected(std::move(key.error()));
  return SealedDocument{std::move(*key), std::move(*content_key)};
}

}  // namespace esign::documents
