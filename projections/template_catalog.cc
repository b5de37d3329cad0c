#include "projections/template_catalog.h"

#include "domain/json_parse.h"
#include "domain/stream_kinds.h"
#include "domain/template_importer.h"
#include "projections/key_codec.h"

namespace esign::projections {
namespace {

std::string RowKey(std::string_view template_id) {
  std::string key = "t/";
  AppendKeyPart(key, template_id);
  return key;
}

Result<Template> ParseTemplate(std::string_view json, std::string_view where) {
  Result<boost::json::value> parsed = ParseJson(json);
  if (!parsed) {
    return Fail(ErrorCode::kCorruption,
                std::string(where) + ": not JSON: " + parsed.error().message);
  }
  Result<Template> imported = ImportTemplate(*parsed);
  if (!imported) {
    std::string message =
        std::string(where) + ": not a valid template: " + imported.error().message;
    if (!imported.error().details.empty()) {
      message += " (" + imported.error().details.front().field + ": " +
                 imported.error().details.front().issue + ")";
    }
    return Fail(ErrorCode::kCorruption, std::move(message));
  }
  return imported;
}

}  // namespace

Status TemplateCatalog::Apply(const eventstore::EventRecord& event, ViewBatch& batch) {
  const std::optional<std::string_view> template_id =
      IdInStream(StreamKind::kTemplate, event.stream_id);
  if (event.type != kTemplateImportedType || !template_id) return {};
  // The log holds only templates the importer accepted; one that no longer parses means the log
  // or the importer changed under us, which must stop the projector rather than hide a template.
  Result<Template> imported = ParseTemplate(event.data, "template event " + event.event_id);
  if (!imported) return Fail(imported.error());
  if (imported->template_id != *template_id) {
    return Fail(ErrorCode::kCorruption, "template event " + event.event_id + " on stream " +
                                            event.stream_id + " carries template " +
                                            imported->template_id);
  }
  batch.Put(RowKey(imported->template_id), event.data);
  auto tmpl = std::make_shared<const Template>(std::move(*imported));
  pending_.insert_or_assign(tmpl->template_id, std::move(tmpl));
  return {};
}

void TemplateCatalog::Committed() {
  if (pending_.empty()) return;
  std::shared_ptr<const Catalog> current;
  {
    std::lock_guard lock(mutex_);
    current = published_;
  }
  // Copy on write: readers keep whatever map they already hold.
  auto next = std::make_shared<Catalog>(*current);
  for (auto& [id, tmpl] : pending_) next->insert_or_assign(id, std::move(tmpl));
  pending_.clear();
  std::lock_guard lock(mutex_);
  published_ = std::move(next);
}

Status TemplateCatalog::Load(const ViewReader& rows) {
  pending_.clear();
  auto loaded = std::make_shared<Catalog>();
  Status failure;
  Status scanned = rows.Scan("t/", "", false, [&](std::string_view key, std::string_view value) {
    Result<Template> tmpl = ParseTemplate(value, "template row " + std::string(key));
    if (!tmpl) {
      failure = Fail(tmpl.error());
      return false;
    }
    auto ptr = std::make_shared<const Template>(std::move(*tmpl));
    loaded->insert_or_assign(ptr->template_id, std::move(ptr));
    return true;
  });
  if (!scanned) return scanned;
  if (!failure) return failure;
  std::lock_guard lock(mutex_);
  published_ = std::move(loaded);
  return {};
}

std::vector<TemplateCatalog::TemplatePtr> TemplateCatalog::List() const {
  std::shared_ptr<const Catalog> catalog;
  {
    std::lock_guard lock(mutex_);
    catalog = published_;
  }
  std::vector<TemplatePtr> out;
  out.reserve(catalog->size());
  for (const auto& [id, tmpl] : *catalog) out.push_back(tmpl);
  return out;
}

TemplateCatalog::TemplatePtr TemplateCatalog::Find(std::string_view template_id) const {
  std::shared_ptr<const Catalog> catalog;
  {
    std::lock_guard lock(mutex_);
    catalog = published_;
  }
  const auto it = catalog->find(template_id);
  return it == catalog->end() ? nullptr : it->second;
}

}  // namespace esign::projections
