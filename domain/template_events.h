// The events of a template's stream "template-<templateId>", and the Template they make.
//
// A platform template is written by the command line: each import is one
//   template.imported       {the whole template, as TemplateToJson writes it}
// An organization's own template (id "tpl_" + a server-assigned suffix) is written through the
// API, each change one event carrying the owner:
//   template.created        {templateId, organizationId, name, description}
//   template.version_added  {templateId, organizationId, version: {templateVersionId, settings,
//                            inputSchema, roles, body}}
//   template.published      {templateId, organizationId, templateVersionId}
//   template.archived       {templateId, organizationId}
// A version never changes once added (there is no event that would change one); publishing picks
// the version new contracts use by default, one at a time. A version made from uploads carries
// `documents` and `fields` in place of `inputSchema` and `body`; readers tell the kinds apart by
// which is present.
//
// Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/result.h"
#include "domain/template.h"
#include "domain/uploaded_document.h"

namespace esign {

namespace template_event {
inline constexpr std::string_view kImported = "template.imported";
inline constexpr std::string_view kCreated = "template.created";
inline constexpr std::string_view kVersionAdded = "template.version_added";
inline constexpr std::string_view kPublished = "template.published";
inline constexpr std::string_view kArchived = "template.archived";
}  // namespace template_event

// Limits of an organization's own templates (docs/security.md).
inline constexpr size_t kMaxActiveTemplatesPerOrganization = 100;       // not archived
inline constexpr size_t kMaxTemplatesPerOrganization = 1000;            // archived ones included
inline constexpr size_t kMaxVersionsPerTemplate = 50;                   // drafts included
inline constexpr size_t kMaxTemplateVersionBytes = size_t{256} * 1024;  // of a version's JSON
inline constexpr size_t kMaxTemplateBytes = size_t{2} * 1024 * 1024;    // of the template's JSON

// Whether the event type is one of a template stream's.
bool IsTemplateEvent(std::string_view type);

// Applies one event of the stream of `template_id` to `tmpl` (nullopt before the first event).
// kCorruption when the event does not fit: the log holds only what the writers accepted. Types
// that are not template events are ignored.
Status ApplyTemplateEvent(std::optional<Template>& tmpl, std::string_view template_id,
                          std::string_view type, std::string_view data);

// The data of each organization event. `version` goes in without its `published` flag.
std::string WriteTemplateCreated(const Template& tmpl);
std::string WriteTemplateVersionAdded(const Template& tmpl, const TemplateVersion& version);
std::string WriteTemplatePublished(const Template& tmpl, std::string_view template_version_id);
std::string WriteTemplateArchived(const Template& tmpl);

// A request to create a template: the template file's shape without the ids the server assigns
// (`templateId`, each version's `templateVersionId`), which are given here; or `{name,
// description?}` with one version made from uploads (domain/uploads_template_version.h), published
// unless it says `"published": false`. `uploads`: the caller's uploads that the request names.
// kTemplateInvalid names every problem by its JSON path in the request; kValidationFailed for
// more than kMaxVersionsPerTemplate versions or a version over kMaxTemplateVersionBytes.
Result<Template> ParseTemplateRequest(const boost::json::value& request,
                                      const std::string& template_id,
                                      const std::function<std::string()>& next_version_id,
                                      const std::vector<UploadedDocument>& uploads);

// A request to add a version: one version of the file's shape without `templateVersionId`, or
// one made from uploads. Problems are named by their path in the request, as above.
Result<TemplateVersion> ParseTemplateVersionRequest(const boost::json::value& request,
                                                    const std::string& template_version_id,
                                                    const std::vector<UploadedDocument>& uploads);

}  // namespace esign
