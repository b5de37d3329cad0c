// Turns a template file (JSON) into a validated Template. Every problem is reported at once, as
// kTemplateInvalid with one ErrorDetail per problem naming its JSON path, for example
// "versions[0].inputSchema.sections[1].fields[2].type". What a valid template guarantees is
// listed in template.h. Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <string_view>

#include "domain/result.h"
#include "domain/template.h"

namespace esign {

// What a version may be made from. A template file (the command line's import) has an input
// schema and a body; an organization's version written through the API may instead carry the
// documents and placed fields of uploads (template_events.h), as the server wrote them.
enum class VersionSources { kBody, kBodyOrUploads };

Result<Template> ImportTemplate(const boost::json::value& document,
                                VersionSources sources = VersionSources::kBody);

// Parses with ParseJson first; malformed text is kTemplateInvalid too.
Result<Template> ImportTemplateText(std::string_view text);

}  // namespace esign
