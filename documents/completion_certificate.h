// The certificate of completion of a contract (DESIGN section 16): who took part and how, every
// event of the contract's life with who caused it, from where and how they authenticated, the
// hashes of the unsigned and the signed document, and where the events stand in the ledger. A
// plain value built from the contract's state and the records of its stream; the last pages of
// the sealed PDF draw it (certificate_pages.h).
//
// Every text is as the records hold it (names, titles and user agents come from clients); the
// drawing escapes and clips them.
// Thread safety: pure functions and a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "domain/contract_events.h"
#include "domain/contract_state.h"
#include "domain/template.h"
#include "eventstore/event_record.h"
#include "eventstore/tree_head.h"

namespace esign::documents {

struct CertificateParticipant {
  std::string name;
  // The e-mail address, else "Organization <name> (<id>)" (the contract's own organization, by
  // the name it recorded) or "Organization <id>".
  std::string contact;
  std::string role;     // the bound template role's name; empty when unbound
  std::string action;   // what the participant was asked to do: "Sign", "View", "Receive a copy"
  std::string outcome;  // "Signed", "Declined", "Not signed", "Sent for viewing", "Received a copy"
  std::string when;     // RFC 3339 time of the outcome; empty when none
  // How the participant had to authenticate: "None (signing link)", "Access code", "E-mail code".
  std::string required_authentication;
  // How the signature was given, from signer.completed's evidence: the method and channel.
  std::string signing_method;
  std::string ip;          // the signer's, as the evidence records it
  std::string user_agent;  // likewise
};

struct CertificateEvent {
  // Nothing for an event decided with the completion, appended after the seal.
  std::optional<uint64_t> position;
  uint64_t stream_version = 0;  // 0 with no position
  std::string time;             // RFC 3339
  std::string type;             // as recorded, e.g. "signer.completed"
  std::string description;      // in words, e.g. "Signed by Ada Lovelace"
  std::string actor;            // "Client cli_...", a participant's name, "contractd"
  // The request's origin, only when the actor is the person or client that made the request
  // (the service acting on its own, or on a request about someone else, shows none).
  std::string ip;
  std::string user_agent;
  std::string authentication;  // "API client credentials", "Access code", "Signing link", ...
};

struct CertificateTreeHead {
  uint64_t size = 0;  // events in the log it covers
  std::string root_hex;
  std::string time;             // RFC 3339, from the head's timestamp
  std::string key_fingerprint;  // KeyFingerprint of the ledger's public key
};

// A value a signer entered in a field (DESIGN section 21), as recorded.
struct CertificateEntry {
  std::string field;   // the field's name, else its kind, and its id: "Hours a week (fld_2)"
  std::string signer;  // the participant's name
  int64_t page = 0;    // in the sealed PDF
  std::string value;   // as stored; a checkbox "Ticked" or "Not ticked"
};

// One uploaded document of a contract made from uploads (DESIGN section 20).
struct CertificateDocument {
  std::string name;
  std::string upload_sha256;   // the bytes as uploaded
  std::string cleaned_sha256;  // the cleaned copy, shown and sealed
  int64_t first_page = 0;      // its pages in the sealed PDF, 1-based
  int64_t last_page = 0;
};

struct CompletionCertificate {
  std::string contract_id;
  std::string title;
  std::string organization_id;
  std::string organization_name;  // as contract.prepared recorded it; empty: none recorded
  std::string template_name;      // "<name> (<template version id>)"; empty for uploads
  // The uploaded documents in order; empty for a contract from a template.
  std::vector<CertificateDocument> documents;
  std::string sent_at;
  std::string completed_at;
  std::vector<CertificateParticipant> participants;
  std::vector<CertificateEntry> entries;  // what signers filled in, in field order
  std::vector<CertificateEvent> events;
  std::string unsigned_sha256;  // the PDF frozen at send (contract.prepared)
  // The signed contract pages (the sealed PDF's first signed_size bytes); set by the sealer.
  std::string signed_sha256;
  uint64_t signed_size = 0;
  std::string stream_id;
  std::optional<CertificateTreeHead> tree_head;
};

// What the certificate is built from at completion, before contract.completed is appended.
struct CertificateSources {
  const ContractState* state = nullptr;               // every signer signed; not yet completed
  const Template* tmpl = nullptr;                     // for role and template names; may be null
  const TemplateVersion* version = nullptr;           // likewise
  std::span<const eventstore::EventRecord> recorded;  // the contract's stream so far, in order
  // Decided with the last signature and appended together with contract.completed after the seal
  // (which the certificate lists last), recorded with `pending_actor` at `completed_at`.
  std::span<const DomainEvent> pending;
  eventstore::Actor pending_actor;
  std::string completed_at;
  std::optional<eventstore::SignedTreeHead> tree_head;  // signed at seal time
  std::string ledger_public_key_pem;
};

CompletionCertificate BuildCompletionCertificate(const CertificateSources& sources);

// The SHA-256 (lower-case hex) of the DER SubjectPublicKeyInfo inside a PEM public key: what
// `openssl pkey -pubin -outform DER | sha256sum` prints. Empty when `pem` holds no key.
std::string KeyFingerprint(std::string_view public_key_pem);

// "2026-11-21 10:04:33 UTC" for an RFC 3339 UTC time (fractions dropped); other text as given.
std::string CertificateTime(std::string_view rfc3339);

}  // namespace esign::documents
