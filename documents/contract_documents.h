// ContractDocuments: the PDFs of a contract, from its document source: its template version
// (rendered: pdf_renderer.h) or its uploaded documents (composed: uploaded_pdf_composer.h, from
// the cleaned blobs). Render makes the unsigned PDF; Freeze renders and stores it, as sending
// freezes it; Seal builds the signed PDF of a contract whose every signer has signed (each
// signature drawn: in the template's layout, or stamped into the frozen composition with every
// placed field, field_stamper.h; then the completion certificate appended and the service's seal
// applied: contract_sealer.h) and stores it. A template version the look-up does not know is
// kTemplateVersionNotFound; an uploaded document whose blob is missing is kNotFound.
// Thread safety: every method may be called from any thread (as the look-up and the store
// allow). Rendering and sealing are CPU-bound: callers keep them off the I/O threads. Render and
// Freeze lay the PDF out on the service's own render pool (render_pool.h, one thread per core):
// a burst of sends queues there instead of rendering all at once; the caller waits.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "documents/completion_certificate.h"
#include "documents/contract_sealer.h"
#include "documents/pdf_renderer.h"
#include "documents/render_pool.h"
#include "documents/service_certificate.h"
#include "documents/timestamp_authority.h"
#include "domain/clock.h"
#include "domain/contract_events.h"
#include "domain/contract_state.h"
#include "domain/result.h"
#include "eventstore/event_store.h"
#include "projections/template_catalog.h"

namespace esign::documents {

// What completing a contract knows besides its state: the events decided with the last
// signature, which are appended together with contract.completed once the sealed PDF is stored
// (so they have no position yet), who causes them, and when.
struct Completion {
  std::vector<DomainEvent> pending;
  eventstore::Actor actor;
  std::string completed_at;  // RFC 3339; empty: the clock's time
};

struct SealedDocument {
  std::string signed_pdf_key;  // the sealed PDF's blob key (its SHA-256, hex)
  // The signed contract pages, before the certificate and the seal, also stored as a blob.
  std::string signed_content_sha256;
};

class ContractDocuments {
 public:
  // Everything given by reference must outlive the service. `store` holds the blobs and the
  // contract's events and ledger, which the completion certificate lists; `clock` gives the
  // seal's signing time.
  ContractDocuments(projections::TemplateLookup templates, eventstore::EventStore& store,
                    const ServiceCertificate& certificate,
                    const Clock& clock = SystemClock::Instance());
  ~ContractDocuments();

  // The unsigned PDF of the contract as it stands.
  Result<std::string> Render(const ContractState& state) const;
  // The unsigned PDF as sending lays it out (a template's signature boxes kept with the text,
  // signature_keeping.h), stored as a blob: its SHA-256 (hex) and the boxes where it drew them,
  // which contract.prepared records.
  Result<FrozenDocument> Freeze(const ContractState& prepared) const;
  // The signed PDF, stored as a blob, with the signed contract pages it begins with. Each
  // signature as its signer gave it: the typed text, or the image they drew (a blob). Signs a
  // tree head over the log as it stands, which the certificate shows.
  Result<SealedDocument> Seal(const ContractState& all_signed,
                              const Completion& completion = {}) const;
  // Seals from now on carry its timestamps (PAdES B-LT; contract_sealer.h). Call before the
  // service is shared; `authority` must outlive it.
  void SetTimestampAuthority(const TimestampAuthority* authority) {
    timestamp_authority_ = authority;
  }

 private:
  // Where the contract's pages come from: a template version, or uploaded documents.
  struct TemplateSource {
    std::shared_ptr<const Template> tmpl;
    const TemplateVersion* version = nullptr;
  };
  // The documents are the state's; their blobs are read when composing, which sealing a frozen
  // composition does not need.
  // The template version the contract came from, if it came from one made from uploads.
  struct UploadSource {
    std::shared_ptr<const Template> tmpl;
    const TemplateVersion* version = nullptr;
  };
  using Source = std::variant<TemplateSource, UploadSource>;
  Result<Source> SourceOf(const ContractState& state) const;
  // The layout that reproduces the contract's frozen PDF: the current one, or, for a contract
  // frozen before ligatures were turned off, the one with ligatures (its line breaks differ), so
  // its signed pages still differ from what its signers saw only inside the signature boxes.
  RenderOptions FrozenLayout(const TemplateSource& source, const ContractState& state) const;
  Result<std::string> RenderFrom(const Source& source, const ContractState& state) const;
  // The signed contract pages sealed with `options` (its certificate and time already set).
  Result<SealedContract> SealFrom(const Source& source, const ContractState& all_signed,
                                  const std::vector<SignatureAppearance>& appearances,
                                  SealOptions options) const;
  Result<CompletionCertificate> Certificate(const ContractState& all_signed, const Source& source,
                                            const Completion& completion,
                                            const std::string& completed_at) const;

  const projections::TemplateLookup templates_;
  eventstore::EventStore& store_;
  const ServiceCertificate& certificate_;
  const Clock& clock_;
  const TimestampAuthority* timestamp_authority_ = nullptr;
  std::unique_ptr<RenderPool> render_pool_;
};

}  // namespace esign::documents
