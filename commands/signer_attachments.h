// A file a signer attaches for an attachment field (DESIGN section 21), uploaded to their signing
// session before they sign: through the integrator's page (POST /signing-sessions/{id}/attachments)
// or on the hosted page (POST /hosted-signing/{token}/attachments). The file is checked
// (documents/attachment_check.h), stored as a blob named by its SHA-256, and recorded as
// signer.attachment_uploaded; `complete` then names it by that SHA-256 as the field's value.
//
// Thread safety: as ContractCommandHandler::Execute.
#pragma once

#include <string>

#include "commands/contract_commands.h"
#include "domain/signer_field_rules.h"
#include "eventstore/event_store.h"

namespace esign::commands {

struct AttachmentUpload {
  std::string contract_id;
  std::string session_id;
  std::string link_sha256;  // hosted: the link's token hash, which must be current
  std::string name;         // as the uploader gave it; a path is cut to its last part
  std::string media_type;   // the request's Content-Type
  std::string bytes;
};

struct UploadedAttachment {
  SignerAttachment attachment;
  bool replayed = false;  // the session held this file already: nothing was appended
};

// Errors: those of CheckAttachment; kValidationFailed on "name" for a name over
// kMaxAttachmentNameLength characters or with control characters; then the decision's
// (DecideSignerAttachment: the session open, the signer's turn, an attachment field,
// kMaxAttachmentsPerSession). A refused upload appends nothing; its bytes may remain as an
// unreferenced blob, as a refused signature image's do.
Result<UploadedAttachment> UploadSignerAttachment(ContractCommandHandler& commands,
                                                  eventstore::BlobStore& blobs,
                                                  AttachmentUpload upload,
                                                  const esign::Actor& actor,
                                                  const CommandMeta& meta);

}  // namespace esign::commands
