#include "commands/signer_attachments.h"

#include <algorithm>

#include "documents/attachment_check.h"
#include "domain/field_value.h"

namespace esign::commands {
namespace {

// The name shown for the file: its last path part, else "attachment" with the type's extension.
Result<std::string> FileName(std::string name, std::string_view media_type) {
  if (const size_t slash = name.find_last_of("/\\"); slash != std::string::npos) {
    name.erase(0, slash + 1);
  }
  if (CountCharacters(name) > kMaxAttachmentNameLength ||
      std::any_of(name.begin(), name.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; })) {
    return Fail(ErrorCode::kValidationFailed, "invalid attachment", "name",
                "at most " + std::to_string(kMaxAttachmentNameLength) +
                    " characters, without control characters");
  }
  if (!name.empty()) return name;
  return std::string(media_type == "application/pdf" ? "attachment.pdf"
                     : media_type == "image/png"     ? "attachment.png"
                                                     : "attachment.jpg");
}

}  // namespace

Result<UploadedAttachment> UploadSignerAttachment(ContractCommandHandler& commands,
                                                  eventstore::BlobStore& blobs,
                                                  AttachmentUpload upload,
                                                  const esign::Actor& actor,
                                                  const CommandMeta& meta) {
  auto checked = documents::CheckAttachment(std::move(upload.bytes), upload.media_type);
  if (!checked) return std::unexpected(checked.error());
  auto name = FileName(std::move(upload.name), checked->media_type);
  if (!name) return std::unexpected(name.error());
  auto stored = blobs.Put(checked->bytes);
  if (!stored) return std::unexpected(stored.error());
  SignerAttachment attachment{*stored, std::move(*name), checked->media_type,
                              static_cast<int64_t>(checked->bytes.size())};
  RecordSignerAttachment command{upload.session_id, upload.link_sha256, attachment};
  auto outcome = commands.Execute(actor, upload.contract_id, command, meta);
  if (!outcome) return std::unexpected(outcome.error());
  // The same file twice in one session is one file: the first upload's name stands.
  for (const SigningSession& session : outcome->state.sessions) {
    if (session.session_id != upload.session_id) continue;
    for (const SignerAttachment& held : session.attachments) {
      if (held.sha256 == attachment.sha256) {
        return UploadedAttachment{held, !outcome->appended};
      }
    }
  }
  return UploadedAttachment{std::move(attachment), !outcome->appended};
}

}  // namespace esign::commands
