// TemplateCatalog: every template of the log, from the events of the streams
// "template-<templateId>" (domain/template_events.h): the platform templates the command line
// imports (a later import of the same template replaces it) and the organizations' own, with their
// versions, the one published, and whether they are archived.
//
// Rows (under "templates/"):  t/<templateId> -> a platform template's JSON, as imported; or, for an
// organization's template, {"organizationId", "archived", "template": the template's JSON}.
// Besides the rows it keeps every template parsed in memory (loaded in Load, published in
// Committed), so look-ups cost a map search, not a parse.
//
// Thread safety: List and Find may be called from any thread; they see templates once their rows
// are committed. Apply, Flush, Committed and Load are the projector's.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "domain/template.h"
#include "projections/projection.h"

namespace esign::projections {

inline constexpr std::string_view kTemplateImportedType = "template.imported";

// Finds a template by id; null when unknown (contractd: TemplateCatalog::Find).
using TemplateLookup = std::function<std::shared_ptr<const Template>(std::string_view)>;

class TemplateCatalog final : public Projection {
 public:
  using TemplatePtr = std::shared_ptr<const Template>;

  std::string_view Name() const override { return "templates"; }
  Status Apply(const eventstore::EventRecord& event, ViewBatch& batch) override;
  void Committed() override;
  Status Load(const ViewReader& rows) override;

  // Every template, by templateId.
  std::vector<TemplatePtr> List() const;
  // The templates the organization sees (the platform's and its own), by templateId.
  std::vector<TemplatePtr> ListVisibleTo(std::string_view organization_id) const;
  // nullptr when there is no such template, whoever owns it (contracts that exist keep theirs).
  TemplatePtr Find(std::string_view template_id) const;

  struct OrganizationCounts {
    size_t active = 0;  // not archived
    size_t total = 0;
  };
  OrganizationCounts CountOf(std::string_view organization_id) const;

 private:
  using Catalog = std::map<std::string, TemplatePtr, std::less<>>;

  std::shared_ptr<const Catalog> Snapshot() const;

  // Changed by the batch being applied, not yet committed (projector thread only).
  Catalog pending_;

  mutable std::mutex mutex_;
  std::shared_ptr<const Catalog> published_ = std::make_shared<Catalog>();  // guarded by mutex_
};

}  // namespace esign::projections
