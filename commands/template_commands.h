// Importing templates into the log. Each import is one `template.imported` event on the stream
// "template-<templateId>" carrying the whole template; its event id is derived from the stream
// and the template's canonical JSON, so importing an unchanged template again is an idempotent
// replay that writes nothing, while a changed one appends a new event. The id of an organization's
// template (commands/organization_templates.h) is refused.
// Thread safety: as the EventStore's.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "domain/result.h"
#include "eventstore/event_store.h"

namespace esign::commands {

inline constexpr std::string_view kTemplateImported = "template.imported";

struct TemplateImport {
  std::string template_id;
  std::string file;
  bool changed = false;  // false when the same template was already imported
};

// Validates the template text and appends it. kTemplateInvalid names the file and each problem.
Result<TemplateImport> ImportTemplateFromText(eventstore::EventStore& store, std::string_view text,
                                              const std::string& file_name,
                                              const eventstore::Actor& actor);

Result<TemplateImport> ImportTemplateFile(eventstore::EventStore& store,
                                          const std::filesystem::path& file,
                                          const eventstore::Actor& actor);

// Every *.json file of the directory, in name order; stops at the first invalid one.
Result<std::vector<TemplateImport>> ImportTemplateDirectory(eventstore::EventStore& store,
                                                            const std::filesystem::path& dir,
                                                            const eventstore::Actor& actor);

}  // namespace esign::commands
