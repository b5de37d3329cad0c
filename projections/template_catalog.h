// TemplateCatalog: the templates imported into the log ("template.imported" events on the streams
// "template-<templateId>", data = the whole template as TemplateToJson writes it). A later import
// of the same template replaces it.
//
// Rows (under "templates/"):  t/<templateId> -> the template JSON, as imported.
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
  // nullptr when no such template was imported.
  TemplatePtr Find(std::string_view template_id) const;

 private:
  using Catalog = std::map<std::string, TemplatePtr, std::less<>>;

  // Imported by the batch being applied, not yet committed (projector thread only).
  Catalog pending_;

  mutable std::mutex mutex_;
  std::shared_ptr<const Catalog> published_ = std::make_shared<Catalog>();  // guarded by mutex_
};

}  // namespace esign::projections
