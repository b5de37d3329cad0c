// A template version made from uploads (DESIGN section 20), read from a request of
// POST /templates or POST /templates/{id}/versions:
//   {documents: [{documentId, name?}], roles: [...], fields?: [...], formFieldMapping?: [...],
//    settings?, published?}
// Documents and fields are a contract's (placed_field_rules.h), except that a field names a role
// (`templateRoleId` or `roleIndex`, 0-based) and a text tag's number is the role's 1-based place
// in `roles`. Roles are a template file's without `signaturePlacement`: the role's signature
// fields are its placements. Every sign role needs at least one signature field.
// Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <string_view>
#include <vector>

#include "domain/result.h"
#include "domain/uploaded_document.h"

namespace esign {

// Whether the request is of this kind (it names documents) rather than a template file's.
bool IsUploadsVersionRequest(const boost::json::object& request);

// The version as the server stores it (template.version_added, read back by the importer with
// VersionSources::kBodyOrUploads): the request's roles with their placements, the documents as
// the uploads hold them, the fields placed on them, and the id given. kTemplateInvalid names the
// problems of the documents and fields by their path in the request; kDocumentNotFound for an id
// that is not among `uploads`. Roles and settings are checked when the importer reads it back.
Result<boost::json::object> UploadsVersionDocument(const boost::json::object& request,
                                                   std::string_view template_version_id,
                                                   const std::vector<UploadedDocument>& uploads);

}  // namespace esign
