#include "projections/template_catalog.h"

#include "base/json_read.h"
#include "domain/json_parse.h"
#include "domain/stream_kinds.h"
#include "domain/template_events.h"
#include "domain/template_importer.h"
#include "domain/template_json.h"
#include "projections/key_codec.h"

namespace esign::projections {
namespace {

std::string RowKey(std::string_view template_id) {
  std::string key = "t/";
  AppendKeyPart(key, template_id);
  return key;
}

std::string RowOf(const Template& tmpl) {
  if (!tmpl.organization_id) return boost::json::serialize(TemplateToJson(tmpl));
  return boost::json::serialize(boost::json::object{{"organizationId", *tmpl.organization_id},
                                                    {"archived", tmpl.archived},
                                                    {"template", TemplateToJson(tmpl)}});
}

Result<Template> ParseTemplate(std::string_view json, std::string_view where) {
  Result<boost::json::value> parsed = ParseJson(json);
  if (!parsed) {
    return Fail(ErrorCode::kCorruption,
                std::string(where) + ": not JSON: " + parsed.error().message);
  }
  const boost::json::value* document = &*parsed;
  std::optional<std::string> organization;
  bool archived = false;
  if (const auto* row = parsed->if_object(); row != nullptr && row->contains("template")) {
    document = &row->at("template");
    if (auto owner = StringMember(*row, "organizationId")) organization = std::string(*owner);
    if (const auto* flag = Member(*row, "archived"); flag != nullptr && flag->is_bool()) {
      archived = flag->get_bool();
    }
    if (!organization) return Fail(ErrorCode::kCorruption, std::string(where) + ": no owner");
  }
  Result<Template> imported = ImportTemplate(*document);
  if (!imported) {
    std::string message =
        std::string(where) + ": not a valid template: " + imported.error().message;
    if (!imported.error().details.empty()) {
      message += " (" + imported.error().details.front().field + ": " +
                 imported.error().details.front().issue + ")";
    }
    return Fail(ErrorCode::kCorruption, std::move(message));
  }
  imported->organization_id = std::move(organization);
  imported->archived = archived;
  return imported;
}

}  // namespace

Status TemplateCatalog::Apply(const eventstore::EventRecord& event, ViewBatch& batch) {
  const std::optional<std::string_view> template_id =
      IdInStream(StreamKind::kTemplate, event.stream_id);
  if (!IsTemplateEvent(event.type) || !template_id) return {};
  std::optional<Template> tmpl;
  if (auto it = pending_.find(*template_id); it != pending_.end()) {
    tmpl = *it->second;
  } else if (TemplatePtr known = Find(*template_id)) {
    tmpl = *known;
  }
  // The log holds only templates the writers accepted; one that no longer applies means the log
  // or the rules changed under us, which must stop the projector rather than hide a template.
  if (Status applied = ApplyTemplateEvent(tmpl, *template_id, event.type, event.data); !applied) {
    return applied;
  }
  batch.Put(RowKey(tmpl->template_id), RowOf(*tmpl));
  auto ptr = std::make_shared<const Template>(std::move(*tmpl));
  pending_.insert_or_assign(ptr->template_id, std::move(ptr));
  return {};
}

void TemplateCatalog::Committed() {
  if (pending_.empty()) return;
  std::shared_ptr<const Catalog> current = Snapshot();
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

std::shared_ptr<const TemplateCatalog::Catalog> TemplateCatalog::Snapshot() const {
  std::lock_guard lock(mutex_);
  return published_;
}

std::vector<TemplateCatalog::TemplatePtr> TemplateCatalog::List() const {
  std::shared_ptr<const Catalog> catalog = Snapshot();
  std::vector<TemplatePtr> out;
  out.reserve(catalog->size());
  for (const auto& [id, tmpl] : *catalog) out.push_back(tmpl);
  return out;
}

std::vector<TemplateCatalog::TemplatePtr> TemplateCatalog::ListVisibleTo(
    std::string_view organization_id) const {
  std::vector<TemplatePtr> out;
  for (const auto& [id, tmpl] : *Snapshot()) {
    if (tmpl->VisibleTo(organization_id)) out.push_back(tmpl);
  }
  return out;
}

TemplateCatalog::TemplatePtr TemplateCatalog::Find(std::string_view template_id) const {
  std::shared_ptr<const Catalog> catalog = Snapshot();
  const auto it = catalog->find(template_id);
  return it == catalog->end() ? nullptr : it->second;
}

TemplateCatalog::OrganizationCounts TemplateCatalog::CountOf(
    std::string_view organization_id) const {
  OrganizationCounts counts;
  for (const auto& [id, tmpl] : *Snapshot()) {
    if (tmpl->organization_id != organization_id) continue;
    ++counts.total;
    if (!tmpl->archived) ++counts.active;
  }
  return counts;
}

}  // namespace esign::projections
