// OrganizationTemplates: the writes of an organization's own templates (POST /templates and the
// version, publish and archive operations). Each loads the template from its stream, applies the
// rules below and appends the events of domain/template_events.h with the stream's version
// expected, so concurrent changes conflict and are decided again instead of overwriting each
// other.
//
// Rules: another organization's template is kTemplateNotFound, like a missing one; a platform
// template (the command line's) is kPermissionDenied; an archived one takes no version and no
// publication (kTemplateArchived), and archiving it again changes nothing. Publishing the
// published version changes nothing. A version never changes once added. Limits
// (kValidationFailed): the counts and sizes of domain/template_events.h. Creations are carried out
// one at a time, each counting after the one before it was written, so concurrent requests cannot
// pass the limit together.
//
// Every write returns once the catalog shows it (`after_write`), so the caller's next request,
// a contract from the template above all, finds it. Idempotency-Key (eventstore/
// idempotency_keys.h): the same key and request again answers the template as the first request
// left it, without a second effect; the events of a keyed request have ids the key seeds, so a
// retry after a crash between the append and the key's completion finds them.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/clock.h"
#include "domain/id_generator.h"
#include "domain/result.h"
#include "domain/template.h"
#include "domain/uploaded_document.h"
#include "eventstore/event_store.h"
#include "eventstore/idempotency_keys.h"
#include "projections/template_catalog.h"

namespace esign::commands {

struct TemplateCaller {
  std::string organization_id;
  eventstore::Actor actor;
};

using TemplateCounts = projections::TemplateCatalog::OrganizationCounts;
// The organization's templates, counting every template written before the call (contractd: the
// catalog, once it has applied the whole log).
using TemplateCounter = std::function<Result<TemplateCounts>(std::string_view organization_id)>;
// Told that `client_id` appended events below `log_size`; returns once the catalog shows them.
using AfterTemplateWrite = std::function<Status(std::string_view client_id, uint64_t log_size)>;

class OrganizationTemplates {
 public:
  // Everything given by reference must outlive the handler.
  OrganizationTemplates(eventstore::EventStore& store, TemplateCounter counter,
                        AfterTemplateWrite after_write, IdGenerator& ids);
  // The caller's uploads, for versions made from them; without it such a request finds none.
  void SetFindUploads(FindUploads find) { find_uploads_ = std::move(find); }

  struct Outcome {
    Template tmpl;                    // as the request left it
    std::string template_version_id;  // AddVersion: the version added
    bool replayed = false;
  };
  // `request`: the template document (domain/template_events.h ParseTemplateRequest).
  Result<Outcome> Create(const TemplateCaller& caller, const boost::json::value& request,
                         const std::optional<eventstore::IdempotentRequest>& idempotency = {});
  // `request`: one version (ParseTemplateVersionRequest); `"published": true` publishes it too.
  Result<Outcome> AddVersion(const TemplateCaller& caller, std::string_view template_id,
                             const boost::json::value& request,
                             const std::optional<eventstore::IdempotentRequest>& idempotency = {});
  Result<Outcome> Publish(const TemplateCaller& caller, std::string_view template_id,
                          std::string_view template_version_id,
                          const std::optional<eventstore::IdempotentRequest>& idempotency = {});
  Result<Outcome> Archive(const TemplateCaller& caller, std::string_view template_id,
                          const std::optional<eventstore::IdempotentRequest>& idempotency = {});

 private:
  // The template as `version` of its stream (0: the latest) left it, with that version.
  struct Loaded {
    std::optional<Template> tmpl;
    uint64_t version = 0;
    std::vector<eventstore::EventRecord> events;
  };
  Result<Loaded> Load(std::string_view template_id, uint64_t version = 0) const;
  // The caller's own template, writable (see the rules above).
  Result<Loaded> LoadWritable(const TemplateCaller& caller, std::string_view template_id) const;

  struct NewEvent {
    std::string_view type;
    std::string data;
  };
  // Decides the events of a request on the template as loaded (nullopt when creating it, with
  // the id it gets); none when the request changes nothing.
  using Decide = std::function<Result<std::vector<NewEvent>>(const std::optional<Template>& tmpl,
                                                             const std::string& template_id)>;
  // Decides and appends, deciding again after a concurrent change; with a key, once per key.
  Result<Outcome> Run(const TemplateCaller& caller, const std::string& template_id, bool creating,
                      const Decide& decide,
                      const std::optional<eventstore::IdempotentRequest>& idempotency);
  struct Appended {
    uint64_t version = 0;        // of the stream after the request
    std::string first_event_id;  // empty when the request appended nothing
  };
  Result<Appended> DecideAndAppend(const TemplateCaller& caller, const std::string& template_id,
                                   bool creating, const Decide& decide,
                                   const eventstore::IdempotencyReservation* seed);
  // The answer for the template at `version`: the template then, and the version that the first
  // event the request appended (its id `first_event_id`) added, if any.
  Result<Outcome> OutcomeAt(const std::string& template_id, uint64_t version,
                            std::string_view first_event_id) const;
  // The caller's uploads that a request (a version made from them) names.
  Result<std::vector<UploadedDocument>> UploadsNamedBy(const TemplateCaller& caller,
                                                       const boost::json::value& request) const;

  eventstore::EventStore& store_;
  const TemplateCounter counter_;
  const AfterTemplateWrite after_write_;
  IdGenerator& ids_;
  FindUploads find_uploads_;
  // One creation at a time, from counting to appending.
  std::mutex creating_;
  // One keyed request at a time: two requests with one key must not both carry it out.
  std::mutex idempotent_;
};

}  // namespace esign::commands
