#include "commands/template_commands.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "base/sha256.h"
#include "domain/stream_kinds.h"
#include "domain/template_importer.h"
#include "domain/template_json.h"

namespace esign::commands {

Result<TemplateImport> ImportTemplateFromText(eventstore::EventStore& store, std::string_view text,
                                              const std::string& file_name,
                                              const eventstore::Actor& actor) {
  auto parsed = ImportTemplateText(text);
  if (!parsed) {
    Error error = parsed.error();
    error.message = file_name + ": " + error.message;
    return std::unexpected(std::move(error));
  }
  const std::string stream = TemplateStreamId(parsed->template_id);
  // An organization's template keeps its stream: an import there would make it a platform one.
  auto first = store.ReadStream(stream, StreamVersion(1), 1);
  if (!first) return std::unexpected(first.error());
  if (!first->empty() && first->front().type != kTemplateImported) {
    return Fail(ErrorCode::kTemplateInvalid,
                file_name + ": template " + parsed->template_id + " is an organization's template",
                "templateId", "taken by an organization's template");
  }
  eventstore::NewEvent event;
  event.type = std::string(kTemplateImported);
  event.data = boost::json::serialize(TemplateToJson(*parsed));
  event.actor = actor;
  event.event_id = "evt_" + Sha256Hex(stream + "\n" + event.data).substr(0, 32);

  auto appended = store.Append(stream, eventstore::ExpectedVersion::Any(), {std::move(event)});
  if (!appended) return std::unexpected(appended.error());
  return TemplateImport{parsed->template_id, file_name, !appended->replayed};
}

Result<TemplateImport> ImportTemplateFile(eventstore::EventStore& store,
                                          const std::filesystem::path& file,
                                          const eventstore::Actor& actor) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    return Fail(ErrorCode::kTemplateInvalid, "cannot read template file " + file.string(), "file",
                file.string());
  }
  std::stringstream text;
  text << in.rdbuf();
  return ImportTemplateFromText(store, text.str(), file.filename().string(), actor);
}

Result<std::vector<TemplateImport>> ImportTemplateDirectory(eventstore::EventStore& store,
                                                            const std::filesystem::path& dir,
                                                            const eventstore::Actor& actor) {
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") {
      files.push_back(entry.path());
    }
  }
  if (ec) {
    return Fail(ErrorCode::kTemplateInvalid, "cannot read template directory " + dir.string(),
                "templates", ec.message());
  }
  std::sort(files.begin(), files.end());
  std::vector<TemplateImport> imports;
  for (const auto& file : files) {
    auto imported = ImportTemplateFile(store, file, actor);
    if (!imported) return std::unexpected(imported.error());
    imports.push_back(std::move(*imported));
  }
  return imports;
}

}  // namespace esign::commands
