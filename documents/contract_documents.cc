#include "documents/contract_documents.h"

#include <chrono>
#include <vector>

#include "base/json_read.h"
#include "base/sha256.h"
#include "base/time_text.h"
#include "documents/contract_sealer.h"
#include "documents/field_stamper.h"
#include "documents/pdf_renderer.h"
#include "documents/uploaded_pdf_composer.h"
#include "domain/stream_kinds.h"

namespace esign::documents {
namespace {

constexpr size_t kReadBatch = 1000;

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// The contract's documents composed from their cleaned blobs; kNotFound for a missing blob.
Result<std::string> ComposeUploads(const ContractState& state, const eventstore::BlobStore& blobs) {
  std::vector<std::string> cleaned;
  for (const ContractDocument& document : state.documents) {
    auto blob = blobs.Get(document.sha256);
    if (!blob) return std::unexpected(std::move(blob.error()));
    cleaned.push_back(std::move(*blob));
  }
  std::vector<UploadedPdf> documents;
  for (size_t i = 0; i < state.documents.size(); ++i) {
    documents.push_back({.document = &state.documents[i], .cleaned_pdf = cleaned[i]});
  }
  return ComposeUploadedPdf(documents);
}

// The name a signer signed with, else the participant's.
std::string SignerName(const Participant& p) {
  std::string name = StringMemberOrEmpty(p.signing_evidence, "signerName");
  return name.empty() ? p.name : name;
}

// Every placed field as the sealed PDF shows it: the integrator's texts, and the fields of each
// signer who signed, with what they signed with.
std::vector<FieldStamp> FieldStamps(const ContractState& state) {
  std::vector<FieldStamp> stamps;
  for (const PlacedField& field : state.fields) {
    FieldStamp stamp{.type = field.type, .box = field.box, .participant_id = field.participant_id};
    stamp.box.page =
        ComposedPage(state.documents, static_cast<size_t>(field.document_index), field.box.page);
    const Participant* p = state.FindParticipant(field.participant_id);
    const bool signed_it = p != nullptr && p->signed_at.has_value();
    switch (field.type) {
      case PlacedFieldType::kText:
      case PlacedFieldType::kNumber:
      case PlacedFieldType::kDate:
      case PlacedFieldType::kRadio:
      case PlacedFieldType::kDropdown:
      case PlacedFieldType::kPhone:
        // As stored: the text, the exact number, the date YYYY-MM-DD, the option, +digits.
        if (field.value.is_string()) stamp.text = field.value.get_string();
        break;
      case PlacedFieldType::kCheckbox:
        if (field.value.is_bool() && field.value.get_bool()) stamp.text = "\u2713";  // ✓
        break;
      case PlacedFieldType::kAttachment:
        // The file itself is embedded in the sealed PDF and listed in the certificate.
        if (const auto* file = field.value.if_object()) {
          stamp.text = "Attached: " + StringMemberOrEmpty(*file, "name");
        }
        break;
      case PlacedFieldType::kSignature:
        break;
      case PlacedFieldType::kInitials:
        if (signed_it) stamp.text = Initials(SignerName(*p));
        break;
      case PlacedFieldType::kName:
        if (signed_it) stamp.text = SignerName(*p);
        break;
      case PlacedFieldType::kEmail:
        if (signed_it) stamp.text = p->email.value_or("");
        break;
      case PlacedFieldType::kDateSigned:
        if (signed_it) stamp.text = SigningDate(*p->signed_at);
        break;
    }
    if (field.type == PlacedFieldType::kSignature ? signed_it : !stamp.text.empty()) {
      stamps.push_back(std::move(stamp));
    }
  }
  return stamps;
}

// The files signers attached (attachment fields), to embed in the sealed PDF.
Result<std::vector<EmbeddedFile>> AttachedFiles(const ContractState& state,
                                                const eventstore::BlobStore& blobs) {
  std::vector<EmbeddedFile> files;
  for (const PlacedField& field : state.fields) {
    const auto* file = field.value.if_object();
    if (field.type != PlacedFieldType::kAttachment || file == nullptr) continue;
    auto bytes = blobs.Get(StringMemberOrEmpty(*file, "sha256"));
    if (!bytes) return std::unexpected(bytes.error());
    const Participant* p = state.FindParticipant(field.participant_id);
    files.push_back(EmbeddedFile{
        .key = field.field_id,
        .name = StringMemberOrEmpty(*file, "name"),
        .description = "Attached by " + (p != nullptr ? p->name : field.participant_id) +
                       " to field " + (field.name.empty() ? field.field_id : field.name),
        .media_type = StringMemberOrEmpty(*file, "mediaType"),
        .bytes = std::move(*bytes)});
  }
  return files;
}

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
  if (state.from_uploads()) {
    UploadSource source;
    if (!state.template_id.empty()) source.tmpl = templates_(state.template_id);
    if (source.tmpl) source.version = source.tmpl->FindVersion(state.template_version_id);
    return source;
  }
  TemplateSource source{templates_(state.template_id)};
  if (source.tmpl) source.version = source.tmpl->FindVersion(state.template_version_id);
  if (source.version == nullptr) {
    return Fail(ErrorCode::kTemplateVersionNotFound,
                "template version " + state.template_version_id + " is not available");
  }
  return source;
}

Result<std::string> ContractDocuments::RenderFrom(const Source& source,
                                                  const ContractState& state) const {
  return std::visit(
      Overloaded{[&](const TemplateSource& from) {
                   return RenderContractPdf(*from.tmpl, *from.version, state);
                 },
                 [&](const UploadSource&) { return ComposeUploads(state, store_.blobs()); }},
      source);
}

Result<std::string> ContractDocuments::Render(const ContractState& state) const {
  auto source = SourceOf(state);
  if (!source) return std::unexpected(source.error());
  return render_pool_->Run([&] { return RenderFrom(*source, state); });
}

RenderOptions ContractDocuments::FrozenLayout(const TemplateSource& source,
                                              const ContractState& state) const {
  RenderOptions current;
  if (!state.rendered_document_sha256) return current;
  const auto reproduces = [&](const RenderOptions& options) {
    auto pdf = RenderContractPdf(*source.tmpl, *source.version, state, options);
    return pdf && Sha256Hex(*pdf) == *state.rendered_document_sha256;
  };
  if (reproduces(current)) return current;
  // Contracts frozen with ligatures were written by cairo.
  RenderOptions with_ligatures;
  with_ligatures.ligatures = true;
  with_ligatures.writer = RenderOptions::Writer::kCairo;
  return reproduces(with_ligatures) ? with_ligatures : current;
}

Result<FrozenDocument> ContractDocuments::Freeze(const ContractState& prepared) const {
  auto source = SourceOf(prepared);
  if (!source) return std::unexpected(source.error());
  FrozenDocument frozen;
  auto pdf = render_pool_->Run([&]() -> Result<std::string> {
    const auto* from = std::get_if<TemplateSource>(&*source);
    if (from == nullptr) return RenderFrom(*source, prepared);
    auto sent = RenderContractPdfForSend(*from->tmpl, *from->version, prepared);
    if (!sent) return std::unexpected(std::move(sent.error()));
    frozen.signature_placements = std::move(sent->signature_placements);
    return std::move(sent->pdf);
  });
  if (!pdf) return std::unexpected(std::move(pdf.error()));
  // Stored off the render pool, whose threads only render. contract.prepared, which names it, is
  // appended next.
  auto sha256 = store_.blobs().PutBeforeAppend(*pdf);
  if (!sha256) return std::unexpected(std::move(sha256.error()));
  frozen.sha256 = std::move(*sha256);
  return frozen;
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
  const auto [tmpl, version] = std::visit(
      [](const auto& from) {
        return std::pair{from.tmpl.get(), from.version};
      },
      source);
  return BuildCompletionCertificate({.state = &all_signed,
                                     .tmpl = tmpl,
                                     .version = version,
                                     .recorded = recorded,
                                     .pending = completion.pending,
                                     .pending_actor = completion.actor,
                                     .completed_at = completed_at,
                                     .tree_head = *head,
                                     .ledger_public_key_pem = store_.ledger().PublicKeyPem()});
}

Result<SealedContract> ContractDocuments::SealFrom(
    const Source& source, const ContractState& all_signed,
    const std::vector<SignatureAppearance>& appearances, SealOptions options) const {
  if (const auto* from = std::get_if<TemplateSource>(&source)) {
    options.layout = FrozenLayout(*from, all_signed);
    // The template draws a signature in each box of its signer's prepared role.
    std::vector<SignatureAppearance> prepared;
    for (const SignatureAppearance& appearance : appearances) {
      if (all_signed.PreparedRoleOf(appearance.participant_id) != nullptr) {
        prepared.push_back(appearance);
      }
    }
    if (all_signed.fields.empty()) {
      return SealContractPdf(*from->tmpl, *from->version, all_signed, prepared, certificate_,
                             options);
    }
    // Its template roles' fields are stamped on the signed pages, as on uploads.
    auto pages =
        RenderSignedContractPdf(*from->tmpl, *from->version, all_signed, prepared, options.layout);
    if (!pages) return std::unexpected(std::move(pages.error()));
    auto stamped = StampFields(*pages, FieldStamps(all_signed), appearances, options.layout,
                               PageContent::kMayChangeState);
    if (!stamped) return std::unexpected(std::move(stamped.error()));
    return SealSignedPages(std::move(*stamped), certificate_, options);
  }
  // What every signer was shown: the frozen composition, or the same composed again.
  auto frozen = all_signed.rendered_document_sha256
                    ? store_.blobs().Get(*all_signed.rendered_document_sha256)
                    : RenderFrom(source, all_signed);
  if (!frozen) return std::unexpected(std::move(frozen.error()));
  auto stamped = StampFields(*frozen, FieldStamps(all_signed), appearances);
  if (!stamped) return std::unexpected(std::move(stamped.error()));
  return SealSignedPages(std::move(*stamped), certificate_, options);
}

Result<SealedDocument> ContractDocuments::Seal(const ContractState& all_signed,
                                               const Completion& completion) const {
  auto source = SourceOf(all_signed);
  if (!source) return std::unexpected(source.error());
  std::vector<SignatureAppearance> appearances;
  for (const auto& p : all_signed.participants) {
    if (!p.signs() || !p.signed_at) continue;
    // Every signature as its signer gave it: the typed text, or the image they drew.
    SignatureAppearance appearance{p.participant_id, SignerName(p),
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
  auto attachments = AttachedFiles(all_signed, store_.blobs());
  if (!attachments) return std::unexpected(attachments.error());
  options.attachments = std::move(*attachments);
  auto sealed = SealFrom(*source, all_signed, appearances, std::move(options));
  if (!sealed) return std::unexpected(sealed.error());
  auto content_key = store_.blobs().Put(sealed->signed_content());
  if (!content_key) return std::unexpected(std::move(content_key.error()));
  auto key = store_.blobs().Put(sealed->pdf);
  if (!key) return std::unexpected(std::move(key.error()));
  return SealedDocument{std::move(*key), std::move(*content_key)};
}

}  // namespace esign::documents
