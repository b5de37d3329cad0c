// Completing a signature: the one command that the three ways a signature arrives map their
// requests to (the hosted page, an integrator's own page, a signing provider's callback). It
// checks and stores a drawn signature image, builds the evidence that signer.completed records
// (and the certificate and the bundle read) from the same members for every channel, and carries
// the signer's field values to the decision (domain/contract_signing.cc), which checks them with
// domain/signer_field_rules.h. On the hosted page it also checks the signer's proof (the
// Signer-Proof a code they typed earned) and records how and when they proved who they are. The
// routes keep what belongs to HTTP: reading the body, finding the session and the link.
//
// Thread safety: as ContractCommandHandler::Execute.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>

#include "commands/contract_commands.h"
#include "domain/participant.h"
#include "domain/signer_secrets.h"
#include "eventstore/event_store.h"

namespace esign::commands {

inline constexpr size_t kMaxSignatureImageBytes = size_t{256} * 1024;

struct SignerCompletion {
  std::string contract_id;
  std::string participant_id;
  std::string session_id;
  ExecutionChannel channel = ExecutionChannel::kPlatformHosted;
  std::string link_sha256;      // hosted: the hash of the link's token used, which must be current
  std::string signer_proof;     // hosted: the Signer-Proof header as sent (checked here)
  std::string signer_name;      // the name signed with
  std::string signature_text;   // the typed signature; empty: signer_name
  std::string signature_image;  // the PNG the signer drew, as bytes; empty when none
  std::string signed_at;        // RFC 3339, the integrator's or provider's; empty: now
  // How the signer was seen: their address and user agent (none from a provider), how they
  // proved who they are, and when (as reported; for a hosted signer both follow from the proof).
  std::string ip_address;
  std::string user_agent;
  std::string authentication_method;
  std::string authenticated_at;
  std::string document_sha256;  // the document the session showed
  // Who reported the signature besides the signer: {"reportedBy": client} for an integrator's
  // page, {"providerId", "providerEventId"} for a provider.
  boost::json::object reported_by;
  boost::json::value field_values;  // [{field, value}], or null
};

// The evidence signer.completed records; `image_sha256` names the stored image, if any.
boost::json::object SigningEvidence(const SignerCompletion& completion,
                                    std::string_view image_sha256);

// Checks a hosted signer's proof against the session (kSignerAuthenticationRequired on
// "Signer-Proof" when their authentication asks for a code and the proof is missing or not one
// of the session's, checked with `secrets`), checks the image (kValidationFailed on
// "signatureImage": over kMaxSignatureImageBytes, not a PNG that decodes whole, or too large to
// draw), stores it, and records the signature through `commands` as `actor`. A refused completion
// changes nothing in the log; an image stored for a completion the decision then refuses stays in
// the blob store unreferenced (blobs are stored by content, so a retry stores nothing new).
Result<CommandOutcome> CompleteSignature(ContractCommandHandler& commands,
                                         eventstore::BlobStore& blobs, const SignerSecrets* secrets,
                                         SignerCompletion completion, const esign::Actor& actor,
                                         const CommandMeta& meta);

}  // namespace esign::commands
