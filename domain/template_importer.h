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

Result<Template> ImportTemplate(const boost::json::value& document);

// Parses with ParseJson first; malformed text is kTemplateInvalid too.
Result<Template> ImportTemplateText(std::string_view text);

}  // namespace esign
