// Uploads (commands/document_commands.h): the routes, the look-up that contract creation uses,
// the larger body their requests may have, and the sweep that deletes uploads no contract named.
#include <iostream>

#include "app/service.h"
#include "domain/signer_field_rules.h"
#include "http/upload_routes.h"

namespace esign::app {
namespace {

// Room for a multipart body's boundaries and part headers around the PDF.
constexpr uint64_t kMultipartOverhead = 64 << 10;

}  // namespace

http::ServerOptions ServerOptionsOf(const ServeConfig& config) {
  http::ServerOptions options = config.server;
  options.large_bodies = {
      http::LargeBodyOptions{
          .path = "/api/v1/documents",
          .limit = config.document_limit + kMultipartOverhead,
          .too_large = ErrorCode::kDocumentTooLarge,
      },
      // A file a signer attaches, through their integrator's page or the hosted one.
      http::LargeBodyOptions{.path = "/api/v1/signing-sessions/*/attachments",
                             .limit = kMaxAttachmentBytes,
                             .too_large = ErrorCode::kDocumentTooLarge},
      http::LargeBodyOptions{.path = "/api/v1/hosted-signing/*/attachments",
                             .limit = kMaxAttachmentBytes,
                             .too_large = ErrorCode::kDocumentTooLarge},
      // A bulk send's rows: a CSV of at most 5 MiB, or their JSON, which takes more room.
      http::LargeBodyOptions{.path = "/api/v1/bulk-sends",
                             .limit = kMaxBulkSendJsonBytes,
                             .too_large = ErrorCode::kPayloadTooLarge},
  };
  return options;
}

void Service::AddUploads(const ServeConfig& config) {
  commands::DocumentOptions options;
  options.limits.max_bytes = config.document_limit;
  document_commands_ = std::make_unique<commands::DocumentCommands>(
      *store_, *document_index_, *projector_, RandomIdGenerator::Instance(), clock_, options);
  FindUploads find = [this](std::string_view organization_id, const std::vector<std::string>& ids) {
    return document_commands_->FindAll(organization_id, ids);
  };
  contract_commands_->SetFindUploads(find);
  organization_templates_->SetFindUploads(std::move(find));
  http::AddUploadRoutes(routes_, *document_commands_,
                        http::UploadRoutesOptions{.uploads_per_hour = static_cast<double>(
                                                      config.document_uploads_per_hour)});
}

void Service::StartDocumentExpiry() {
  document_expiry_ = std::make_unique<commands::DocumentExpiry>(
      *document_commands_, clock_,
      commands::DocumentExpiryOptions{
          .log = [](const std::string& line) { std::cerr << "contractd: " << line << std::endl; }});
  document_expiry_->Start();
}

}  // namespace esign::app
