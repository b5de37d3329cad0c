// Documents and evidence (operations 5 to 13). The unsigned PDF is rendered (frozen at send, or
// from the draft as it stands); signed documents follow the specification's rules; evidence
// bundles carry the audit trail, document hashes and Merkle proofs (documents/evidence_bundle.h),
// built, stored and verified by commands/evidence_commands.h.
#include <algorithm>
#include <boost/json.hpp>
#include <charconv>

#include "base/json_read.h"
#include "base/sha256.h"
#include "http/contract_routes.h"
#include "projections/contract_queries.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

// The contract, if the caller may read it (kContractNotFound otherwise, as for a missing one).
Result<ContractState> Readable(const ContractRoutesDeps& deps, const ApiRequest& request,
                               std::string_view permission = "contracts:read") {
  if (auto ready = BeginRead(deps, request, permission); !ready) {
    return std::unexpected(ready.error());
  }
  auto row = deps.queries.Get(ReaderOf(request), request.params.Get("id"));
  if (!row) return std::unexpected(row.error());
  return deps.commands.Load(row->id, row->version);
}

// `download` is an optional boolean: true, false, 1 or 0.
Status CheckDownloadParameter(const ApiRequest& request) {
  auto value = request.Query("download");
  if (!value || *value == "true" || *value == "false" || *value == "1" || *value == "0") return {};
  return Fail(ErrorCode::kValidationFailed, "download must be true or false", "download",
              std::string(*value));
}

std::unexpected<Error> NoSignedDocument(const ContractState& state) {
  return std::unexpected(Error::Of(ErrorCode::kContractSignedDocumentNotAvailable,
                                   "contract " + state.id + " has no signed document", "id",
                                   state.id));
}

ApiResult ListRevisions(const ContractRoutesDeps& deps, const ApiRequest& request) {
  auto state = Readable(deps, request);
  if (!state) return std::unexpected(state.error());
  boost::json::array items;
  for (const auto& r : state->artifact_revisions) {
    items.push_back(boost::json::object{{"revision", r.revision},
                                        {"kind", r.kind},
                                        {"sha256", r.sha256},
                                        {"createdAt", r.created_at}});
  }
  return ApiResponse::Json(200, {{"items", std::move(items)}, {"nextCursor", nullptr}});
}

bool WantsAttachment(const ApiRequest& request) {
  auto value = request.Query("download");
  return value && (*value == "true" || *value == "1");
}

// Document bytes as the response: ETag is their SHA-256, If-None-Match answers 304, and
// `download` chooses attachment over inline.
ApiResult DocumentResponse(const ApiRequest& request, std::string bytes, const std::string& sha256,
                           const std::string& file_name,
                           const std::string& media_type = "application/pdf") {
  const std::string etag = "\"" + sha256 + "\"";
  const std::string_view if_none_match = request.Header("If-None-Match");
  if (!if_none_match.empty() &&
      (if_none_match == "*" || if_none_match.find(etag) != std::string_view::npos)) {
    return ApiResponse{304, "", media_type, {}}.WithHeader("ETag", etag);
  }
  const std::string disposition = std::string(WantsAttachment(request) ? "attachment" : "inline") +
                                  "; filename=\"" + file_name + "\"";
  return ApiResponse{200, std::move(bytes), media_type, {}}
      .WithHeader("ETag", etag)
      .WithHeader("Content-Disposition", disposition);
}

ApiResult StoredDocument(const ContractRoutesDeps& deps, const ApiRequest& request,
                         const std::string& sha256, const std::string& file_name) {
  auto bytes = deps.blobs.Get(sha256);
  if (!bytes) return std::unexpected(bytes.error());
  return DocumentResponse(request, std::move(*bytes), sha256, file_name);
}

// The unsigned PDF: frozen at send, or rendered from the draft as it stands.
ApiResult RenderedUnsigned(const ContractRoutesDeps& deps, const ApiRequest& request) {
  if (auto ok = CheckDownloadParameter(request); !ok) return std::unexpected(ok.error());
  auto state = Readable(deps, request);
  if (!state) return std::unexpected(state.error());
  const std::string file_name = state->id + "-rendered-unsigned.pdf";
  if (state->rendered_document_sha256) {
    return StoredDocument(deps, request, *state->rendered_document_sha256, file_name);
  }
  auto pdf = deps.render_pdf(*state);
  if (!pdf) return std::unexpected(pdf.error());
  const std::string sha256 = Sha256Hex(*pdf);
  return DocumentResponse(request, std::move(*pdf), sha256, file_name);
}

ApiResult SignedDocument(const ContractRoutesDeps& deps, const ApiRequest& request, bool strict) {
  if (auto ok = CheckDownloadParameter(request); !ok) return std::unexpected(ok.error());
  auto state = Readable(deps, request);
  if (!state) return std::unexpected(state.error());
  const std::string kind = strict ? "signed-only" : "signed-latest";
  if (state->signed_pdf_key) {
    return StoredDocument(deps, request, *state->signed_pdf_key, state->id + "-" + kind + ".pdf");
  }
  // signed-latest falls back to the rendered version frozen at send; a draft has none.
  if (!strict && state->rendered_document_sha256) {
    return StoredDocument(deps, request, *state->rendered_document_sha256,
                          state->id + "-" + kind + ".pdf");
  }
  return NoSignedDocument(*state);
}

ApiResult DownloadRevision(const ContractRoutesDeps& deps, const ApiRequest& request) {
  const std::string_view text = request.params.Get("revision");
  int64_t revision = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), revision);
  if (ec != std::errc() || ptr != text.data() + text.size() || revision < 1) {
    return Fail(ErrorCode::kValidationFailed, "revision must be a positive integer", "revision",
                std::string(text));
  }
  if (auto ok = CheckDownloadParameter(request); !ok) return std::unexpected(ok.error());
  auto state = Readable(deps, request);
  if (!state) return std::unexpected(state.error());
  for (const auto& r : state->artifact_revisions) {
    if (r.revision != revision) continue;
    const bool bundle = r.kind == "evidence_bundle";
    auto response = StoredDocument(
        deps, request, r.sha256,
        state->id + "-revision-" + std::to_string(revision) + (bundle ? ".json" : ".pdf"));
    if (response && bundle && response->status == 200) response->content_type = "application/json";
    return response;
  }
  return Fail(ErrorCode::kArtifactRevisionNotFound,
              "contract " + state->id + " has no revision " + std::string(text), "revision",
              std::string(text));
}

ApiResult GetEvidenceBundle(const ContractRoutesDeps& deps, const ApiRequest& request) {
  auto state = Readable(deps, request);
  if (!state) return std::unexpected(state.error());
  auto bundle = deps.evidence.Bundle(*state);
  if (!bundle) return std::unexpected(bundle.error());
  return ApiResponse::Json(200, *bundle);
}

// Decided before anything is stored (the handler stores the bundle through EvidenceCommands::Store
// once the command is accepted); an Idempotency-Key replays the first answer without a new bundle.
ApiResult PersistEvidenceBundle(const ContractRoutesDeps& deps, const ApiRequest& request) {
  auto state = Readable(deps, request, "evidence:write");
  if (!state) return std::unexpected(state.error());
  commands::CommandMeta meta;
  meta.actor = EventActor(request);
  auto key = IdempotencyKeyOf(request);
  if (!key) return std::unexpected(key.error());
  if (*key) {
    meta.idempotency_key = std::move((*key)->key);
    meta.request_sha256 = std::move((*key)->request_sha256);
  }
  auto outcome =
      deps.commands.Execute(DomainActor(request.Caller()), state->id, PersistEvidence{}, meta);
  if (!outcome) return std::unexpected(outcome.error());
  const auto& created = outcome->state.artifact_revisions.back();
  auto bytes = deps.blobs.Get(created.sha256);
  if (!bytes) return std::unexpected(bytes.error());
  // The stored bundle is an artifact revision: Location is where its bytes are fetched again.
  return ApiResponse::Json(201, {{"revision", created.revision},
                                 {"kind", created.kind},
                                 {"sha256", created.sha256},
                                 {"size", bytes->size()},
                                 {"createdAt", created.created_at}})
      .WithHeader("Location", "/api/v1/contracts/" + state->id + "/documents/artifact-revisions/" +
                                  std::to_string(created.revision) + "/download");
}

ApiResult VerifyEvidence(const ContractRoutesDeps& deps, const ApiRequest& request) {
  auto state = Readable(deps, request);
  if (!state) return std::unexpected(state.error());
  auto report = deps.evidence.Verify(*state);
  if (!report) return std::unexpected(report.error());
  return ApiResponse::Json(200, *report);
}

ApiResult AuditTrail(const ContractRoutesDeps& deps, const ApiRequest& request) {
  if (auto ready = BeginRead(deps, request); !ready) return std::unexpected(ready.error());
  const std::string id(request.params.Get("id"));
  auto entries = deps.queries.AuditTrail(ReaderOf(request), id);
  if (!entries) return std::unexpected(entries.error());
  std::string body =
      "{\"contractId\":" + boost::json::serialize(boost::json::value(id)) + ",\"events\":[";
  for (size_t i = 0; i < entries->size(); ++i) {
    if (i > 0) body.push_back(',');
    body += (*entries)[i].json;
  }
  body += "]}";
  return ApiResponse{200, std::move(body), "application/json", {}};
}

// The contract's documents: its uploads in order with their page ranges, or the one document its
// template renders.
ApiResult ListContractDocuments(const ContractRoutesDeps& deps, const ApiRequest& request) {
  auto state = Readable(deps, request);
  if (!state) return std::unexpected(state.error());
  boost::json::array items = ContractDocumentListToJson(*state);
  if (!state->from_uploads()) {
    boost::json::object rendered{{"documentIndex", 0},
                                 {"source", "template"},
                                 {"templateId", state->template_id},
                                 {"templateVersionId", state->template_version_id},
                                 {"name", state->title}};
    rendered["sha256"] = state->rendered_document_sha256
                             ? boost::json::value(*state->rendered_document_sha256)
                             : boost::json::value(nullptr);
    items.push_back(std::move(rendered));
  } else {
    for (auto& item : items) item.as_object()["source"] = "upload";
  }
  return ApiResponse::Json(200, {{"items", std::move(items)}, {"nextCursor", nullptr}});
}

// Every field placed on the contract's documents (or, from a template, on its rendered pages by
// the template's roles), with its signer, its page in the contract's PDF and, once signed, its
// value.
ApiResult ListContractFields(const ContractRoutesDeps& deps, const ApiRequest& request) {
  auto state = Readable(deps, request);
  if (!state) return std::unexpected(state.error());
  boost::json::array items;
  for (const PlacedField& field : state->fields) {
    boost::json::object item = PlacedFieldToJson(field);
    item["pdfPage"] =
        ComposedPage(state->documents, static_cast<size_t>(field.document_index), field.box.page);
    items.push_back(std::move(item));
  }
  return ApiResponse::Json(200, {{"items", std::move(items)}, {"nextCursor", nullptr}});
}

// The file a signer attached to an attachment field, once they signed, as they uploaded it (a PDF
// as cleaned on upload); its name in Content-Disposition reduced to printable ASCII.
ApiResult DownloadFieldAttachment(const ContractRoutesDeps& deps, const ApiRequest& request) {
  if (auto ok = CheckDownloadParameter(request); !ok) return std::unexpected(ok.error());
  auto state = Readable(deps, request);
  if (!state) return std::unexpected(state.error());
  const std::string field_id(request.params.Get("fieldId"));
  const auto field = std::find_if(state->fields.begin(), state->fields.end(),
                                  [&](const PlacedField& f) { return f.field_id == field_id; });
  if (field == state->fields.end() || field->type != PlacedFieldType::kAttachment) {
    return Fail(ErrorCode::kNotFound,
                "contract " + state->id + " has no attachment field " + field_id, "fieldId",
                field_id);
  }
  const auto* file = field->value.if_object();
  if (file == nullptr) {
    return Fail(ErrorCode::kNotFound, "nothing is attached to field " + field_id + " yet",
                "fieldId", "not signed yet");
  }
  std::string name = StringMemberOrEmpty(*file, "name");
  for (char& c : name) {
    if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') c = '_';
  }
  const std::string sha256 = StringMemberOrEmpty(*file, "sha256");
  auto bytes = deps.blobs.Get(sha256);
  if (!bytes) return std::unexpected(bytes.error());
  return DocumentResponse(request, std::move(*bytes), sha256, name,
                          StringMemberOrEmpty(*file, "mediaType"));
}

}  // namespace

void AddDocumentRoutes(ApiRoutes& routes, const ContractRoutesDeps& deps) {
  const std::string base = "/api/v1/contracts/{id}";
  routes.Add(verb::get, base + "/documents",
             {"listContractDocuments", Auth::kBearer,
              [deps](const ApiRequest& r) { return ListContractDocuments(deps, r); }});
  routes.Add(verb::get, base + "/fields",
             {"listContractFields", Auth::kBearer,
              [deps](const ApiRequest& r) { return ListContractFields(deps, r); }});
  routes.Add(verb::get, base + "/fields/{fieldId}/attachment",
             {"downloadContractFieldAttachment", Auth::kBearer,
              [deps](const ApiRequest& r) { return DownloadFieldAttachment(deps, r); }});
  routes.Add(verb::get, base + "/documents/artifact-revisions",
             {"listArtifactRevisions", Auth::kBearer,
              [deps](const ApiRequest& r) { return ListRevisions(deps, r); }});
  routes.Add(verb::get, base + "/documents/artifact-revisions/{revision}/download",
             {"downloadArtifactRevision", Auth::kBearer,
              [deps](const ApiRequest& r) { return DownloadRevision(deps, r); }});
  routes.Add(verb::get, base + "/documents/rendered-unsigned",
             {"getRenderedUnsignedDocument", Auth::kBearer,
              [deps](const ApiRequest& r) { return RenderedUnsigned(deps, r); }});
  routes.Add(verb::get, base + "/documents/signed-latest",
             {"getSignedLatestDocument", Auth::kBearer,
              [deps](const ApiRequest& r) { return SignedDocument(deps, r, false); }});
  routes.Add(verb::get, base + "/documents/signed-only",
             {"getSignedOnlyDocument", Auth::kBearer,
              [deps](const ApiRequest& r) { return SignedDocument(deps, r, true); }});
  routes.Add(verb::get, base + "/evidence/audit-trail",
             {"getAuditTrail", Auth::kBearer,
              [deps](const ApiRequest& r) { return AuditTrail(deps, r); }});
  routes.Add(verb::get, base + "/evidence/bundle",
             {"getEvidenceBundle", Auth::kBearer,
              [deps](const ApiRequest& r) { return GetEvidenceBundle(deps, r); }});
  routes.Add(verb::post, base + "/evidence/bundle",
             {"persistEvidenceBundle", Auth::kBearer,
              [deps](const ApiRequest& r) { return PersistEvidenceBundle(deps, r); }});
  routes.Add(verb::get, base + "/evidence/verification",
             {"getVerificationReport", Auth::kBearer,
              [deps](const ApiRequest& r) { return VerifyEvidence(deps, r); }});
}

}  // namespace esign::http
