#include "commands/signer_completion.h"

#include "documents/signature_appearance.h"

namespace esign::commands {

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
                                         eventstore::BlobStore& blobs,
                                         const SignerCompletion& completion,
                                         const esign::Actor& actor, const CommandMeta& meta) {
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
