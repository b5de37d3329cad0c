#include "commands/signer_completion.h"

#include "documents/signature_appearance.h"
#include "domain/signer_authentication.h"

namespace esign::commands {
namespace {

// The hosted signer's proof: none needed (the link alone), or a Signer-Proof of one of the
// session's authentications, whose time the evidence records.
Status ProveHostedSigner(const ContractCommandHandler& commands, const SignerSecrets* secrets,
                         SignerCompletion& completion) {
  auto state = commands.Load(completion.contract_id);
  if (!state) return std::unexpected(state.error());
  const Participant* signer = state->FindParticipant(completion.participant_id);
  const SigningSession* session = state->FindSession(completion.session_id);
  const SignerAuthentication method =
      signer != nullptr ? signer->authentication : SignerAuthentication::kNone;
  if (method == SignerAuthentication::kNone) {
    completion.authentication_method = "signing_link";
    return {};
  }
  const std::optional<int> proof =
      secrets != nullptr && session != nullptr
          ? ProvenAuthentication(*secrets, *session, completion.signer_proof.substr(0, 128))
          : std::nullopt;
  if (!proof || *proof < 1 || static_cast<size_t>(*proof) > session->authenticated_at.size()) {
    return Fail(
        ErrorCode::kSignerAuthenticationRequired,
        "the signer must first give the code asked for (" + std::string(ToString(method)) + ")",
        "Signer-Proof", "missing or invalid");
  }
  completion.authentication_method = std::string(ToString(method));
  completion.authenticated_at = session->authenticated_at[static_cast<size_t>(*proof) - 1];
  return {};
}

}  // namespace

boost::json::object SigningEvidence(const SignerCompletion& completion,
                                    std::string_view image_sha256) {
  boost::json::object evidence{
      {"signerName", completion.signer_name},
      {"signatureText",
       completion.signature_text.empty() ? completion.signer_name : completion.signature_text}};
  if (completion.channel != ExecutionChannel::kProviderManaged) {
    evidence["ipAddress"] = completion.ip_address;
    evidence["userAgent"] = completion.user_agent;
  }
  evidence["authenticationMethod"] = completion.authentication_method;
  evidence["consent"] = true;
  evidence["channel"] = ToString(completion.channel);
  for (const auto& [key, value] : completion.reported_by) evidence[key] = value;
  evidence["sessionId"] = completion.session_id;
  evidence["documentSha256"] = completion.document_sha256;
  if (!image_sha256.empty()) evidence["signatureImageSha256"] = image_sha256;
  if (!completion.authenticated_at.empty()) {
    evidence["authenticatedAt"] = completion.authenticated_at;
  }
  return evidence;
}

Result<CommandOutcome> CompleteSignature(ContractCommandHandler& commands,
                                         eventstore::BlobStore& blobs, const SignerSecrets* secrets,
                                         SignerCompletion completion, const esign::Actor& actor,
                                         const CommandMeta& meta) {
  if (completion.channel == ExecutionChannel::kPlatformHosted) {
    if (auto proven = ProveHostedSigner(commands, secrets, completion); !proven) {
      return std::unexpected(proven.error());
    }
  }
  std::string image_sha256;
  if (!completion.signature_image.empty()) {
    if (completion.signature_image.size() > kMaxSignatureImageBytes) {
      return Fail(ErrorCode::kValidationFailed, "invalid signature record", "signatureImage",
                  "at most 256 KiB");
    }
    if (auto usable = documents::CheckSignatureImage(completion.signature_image, "signatureImage");
        !usable) {
      return std::unexpected(usable.error());
    }
    auto stored = blobs.Put(completion.signature_image);
    if (!stored) return std::unexpected(stored.error());
    image_sha256 = *stored;
  }
  RecordSignerCompleted command{completion.participant_id, completion.signed_at,
                                SigningEvidence(completion, image_sha256), completion.session_id,
                                completion.link_sha256};
  command.field_values = completion.field_values;
  return commands.Execute(actor, completion.contract_id, command, meta);
}

}  // namespace esign::commands
