#include "domain/template_events.h"

#include "base/json_read.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/json_parse.h"
#include "domain/json_util.h"
#include "domain/template_importer.h"
#include "domain/template_json.h"
#include "domain/uploads_template_version.h"

namespace esign {
namespace {

std::unexpected<Error> Corrupt(std::string_view template_id, std::string_view type,
                               std::string_view why) {
  return Fail(ErrorCode::kCorruption, std::string(type) + " of template " +
                                          std::string(template_id) + ": " + std::string(why));
}

// A template of one version read through the importer; the problems of the version are named by
// their path in it, prefixed with `path`.
Result<Template> ImportOneVersion(const boost::json::object& tmpl, std::string_view path,
                                  std::string message) {
  auto imported = ImportTemplate(tmpl, VersionSources::kBodyOrUploads);
  if (imported) return imported;
  Error error = std::move(imported.error());
  constexpr std::string_view kWrapped = "versions[0]";
  for (ErrorDetail& detail : error.details) {
    if (!detail.field.starts_with(kWrapped)) continue;
    std::string rest = detail.field.substr(kWrapped.size());
    if (path.empty() && rest.starts_with(".")) rest.erase(0, 1);
    detail.field = std::string(path) + rest;
  }
  error.message = std::move(message);
  return std::unexpected(std::move(error));
}

// One version read through the importer, inside a template made up around it.
Result<TemplateVersion> ImportVersion(const boost::json::value& version, std::string_view path) {
  boost::json::object wrapper{
      {"templateId", "t"}, {"name", "t"}, {"versions", boost::json::array{version}}};
  auto imported = ImportOneVersion(wrapper, path, "template version is invalid");
  if (!imported) return std::unexpected(std::move(imported.error()));
  return std::move(imported->versions.front());
}

std::string OrganizationOf(const Template& tmpl) { return tmpl.organization_id.value_or(""); }

void RefuseMember(const boost::json::object& object, std::string_view key, std::string_view path,
                  Details& details) {
  if (Member(object, key) != nullptr) {
    AddDetail(details, JoinPath(path, key), "assigned by the server; leave it out");
  }
}

void WithinSize(const boost::json::value& version, std::string path, Details& details) {
  if (boost::json::serialize(version).size() > kMaxTemplateVersionBytes) {
    AddDetail(details, path.empty() ? "body" : std::move(path),
              "a version's JSON is at most " + std::to_string(kMaxTemplateVersionBytes) + " bytes");
  }
}

// What the importer made of a request, refused also for the ids it should not have carried.
template <class T>
Result<T> Checked(Result<T> imported, Details assigned, std::string message) {
  if (imported && assigned.empty()) return imported;
  if (!imported) {
    for (auto& detail : imported.error().details) assigned.push_back(std::move(detail));
  }
  return std::unexpected(
      Error{ErrorCode::kTemplateInvalid, std::move(message), std::move(assigned)});
}

// One On per event of an organization's template (the stream's first is template.created).

Status On(std::optional<Template>& tmpl, std::string_view template_id,
          const TemplateCreatedData& data) {
  if (tmpl) return Corrupt(template_id, data.kType, "the template exists already");
  if (data.organization_id.empty() || data.name.empty()) {
    return Corrupt(template_id, data.kType, "no organizationId or name");
  }
  Template created;
  created.template_id = std::string(template_id);
  created.organization_id = data.organization_id;
  created.name = data.name;
  created.description = data.description;
  tmpl = std::move(created);
  return {};
}

Status On(std::optional<Template>& tmpl, std::string_view template_id,
          const TemplateVersionAddedData& data) {
  auto added = ImportVersion(data.version, "version");
  if (!added) return Corrupt(template_id, data.kType, added.error().message);
  if (tmpl->FindVersion(added->template_version_id) != nullptr) {
    return Corrupt(template_id, data.kType, "version " + added->template_version_id + " exists");
  }
  added->published = false;
  tmpl->versions.push_back(std::move(*added));
  return {};
}

Status On(std::optional<Template>& tmpl, std::string_view template_id,
          const TemplatePublishedData& data) {
  if (tmpl->FindVersion(data.template_version_id) == nullptr) {
    return Corrupt(template_id, data.kType, "names no version of the template");
  }
  for (TemplateVersion& version : tmpl->versions) {
    version.published = version.template_version_id == data.template_version_id;
  }
  return {};
}

Status On(std::optional<Template>& tmpl, std::string_view /*template_id*/,
          const TemplateArchivedData& /*data*/) {
  tmpl->archived = true;
  return {};
}

using OrganizationTemplateEvents =
    boost::mp11::mp_list<TemplateCreatedData, TemplateVersionAddedData, TemplatePublishedData,
                         TemplateArchivedData>;

Status ApplyOrganizationEvent(std::optional<Template>& tmpl, std::string_view template_id,
                              std::string_view type, const boost::json::object& data) {
  if (type != template_event::kCreated && (!tmpl || !tmpl->organization_id)) {
    return Corrupt(template_id, type, "not an organization's template");
  }
  Status status;
  const auto visited = event_codec::Visit<OrganizationTemplateEvents>(
      type, data, [&](const auto& event) { status = On(tmpl, template_id, event); });
  if (visited == event_codec::Visited::kUnreadable) {
    return Corrupt(template_id, type, "data does not read");
  }
  return status;
}

}  // namespace

bool IsTemplateEvent(std::string_view type) {
  return type == template_event::kImported || type == template_event::kCreated ||
         type == template_event::kVersionAdded || type == template_event::kPublished ||
         type == template_event::kArchived;
}

Status ApplyTemplateEvent(std::optional<Template>& tmpl, std::string_view template_id,
                          std::string_view type, std::string_view data) {
  if (!IsTemplateEvent(type)) return {};
  auto parsed = ParseJson(data);
  if (!parsed || !parsed->is_object()) return Corrupt(template_id, type, "data is not an object");
  if (type == template_event::kImported) {
    if (tmpl && tmpl->organization_id) {
      return Corrupt(template_id, type, "an import over an organization's template");
    }
    auto imported = ImportTemplate(*parsed);
    if (!imported) {
      std::string why = imported.error().message;
      if (!imported.error().details.empty()) {
        why += " (" + imported.error().details.front().field + ": " +
               imported.error().details.front().issue + ")";
      }
      return Corrupt(template_id, type, why);
    }
    if (imported->template_id != template_id) {
      return Corrupt(template_id, type, "carries template " + imported->template_id);
    }
    tmpl = std::move(*imported);
    return {};
  }
  return ApplyOrganizationEvent(tmpl, template_id, type, parsed->get_object());
}

std::string WriteTemplateCreated(const Template& tmpl) {
  return boost::json::serialize(event_codec::Write(
      TemplateCreatedData{tmpl.template_id, OrganizationOf(tmpl), tmpl.name, tmpl.description}));
}

std::string WriteTemplateVersionAdded(const Template& tmpl, const TemplateVersion& version) {
  boost::json::object json = TemplateVersionToJson(version);
  json.erase("published");
  return boost::json::serialize(event_codec::Write(
      TemplateVersionAddedData{tmpl.template_id, OrganizationOf(tmpl), std::move(json)}));
}

std::string WriteTemplatePublished(const Template& tmpl, std::string_view template_version_id) {
  return boost::json::serialize(event_codec::Write(TemplatePublishedData{
      tmpl.template_id, OrganizationOf(tmpl), std::string(template_version_id)}));
}

std::string WriteTemplateArchived(const Template& tmpl) {
  return boost::json::serialize(
      event_codec::Write(TemplateArchivedData{tmpl.template_id, OrganizationOf(tmpl)}));
}

namespace {

// A version made from uploads as stored, within the size of a version.
Result<boost::json::object> UploadsVersion(const boost::json::object& request,
                                           const std::string& template_version_id,
                                           const std::vector<UploadedDocument>& uploads) {
  auto version = UploadsVersionDocument(request, template_version_id, uploads);
  if (!version) return version;
  Details limits;
  WithinSize(*version, "", limits);
  if (!limits.empty()) {
    return std::unexpected(Error{ErrorCode::kValidationFailed, "the template version is too large",
                                 std::move(limits)});
  }
  return version;
}

// {name, description?, ...a version made from uploads}: a template of that one version,
// published unless the request says `"published": false`.
Result<Template> ParseUploadsTemplateRequest(const boost::json::object& request,
                                             const std::string& template_id,
                                             const std::string& template_version_id,
                                             const std::vector<UploadedDocument>& uploads) {
  boost::json::object head{{"templateId", template_id}};
  boost::json::object version_request;
  Details assigned;
  for (const auto& member : request) {
    if (member.key() == "name" || member.key() == "description") {
      head[member.key()] = member.value();
    } else if (member.key() == "templateId" || member.key() == "templateVersionId") {
      AddDetail(assigned, member.key(), "assigned by the server; leave it out");
    } else {
      version_request[member.key()] = member.value();
    }
  }
  if (!version_request.contains("published")) version_request["published"] = true;
  auto version = UploadsVersion(version_request, template_version_id, uploads);
  if (!version) return std::unexpected(std::move(version.error()));
  head["versions"] = boost::json::array{std::move(*version)};
  return Checked(ImportOneVersion(head, "", "template is invalid"), std::move(assigned),
                 "template is invalid");
}

}  // namespace

Result<Template> ParseTemplateRequest(const boost::json::value& request,
                                      const std::string& template_id,
                                      const std::function<std::string()>& next_version_id,
                                      const std::vector<UploadedDocument>& uploads) {
  if (!request.is_object()) {
    return Fail(ErrorCode::kTemplateInvalid, "template is invalid", "body", "must be an object");
  }
  if (IsUploadsVersionRequest(request.get_object())) {
    return ParseUploadsTemplateRequest(request.get_object(), template_id, next_version_id(),
                                       uploads);
  }
  boost::json::object document = request.get_object();
  Details assigned;
  RefuseMember(document, "templateId", "", assigned);
  Details limits;
  if (auto* versions = document.if_contains("versions"); versions && versions->is_array()) {
    auto& list = versions->get_array();
    if (list.size() > kMaxVersionsPerTemplate) {
      AddDetail(limits, "versions",
                "at most " + std::to_string(kMaxVersionsPerTemplate) + " versions per template");
    }
    for (size_t i = 0; i < list.size() && limits.empty(); ++i) {
      if (!list[i].is_object()) continue;
      const std::string path = IndexPath("versions", i);
      WithinSize(list[i], path, limits);
      RefuseMember(list[i].get_object(), "templateVersionId", path, assigned);
      list[i].get_object()["templateVersionId"] = next_version_id();
    }
  }
  if (!limits.empty()) {
    return std::unexpected(
        Error{ErrorCode::kValidationFailed, "the template is over a limit", std::move(limits)});
  }
  document["templateId"] = template_id;
  return Checked(ImportTemplate(document), std::move(assigned), "template is invalid");
}

Result<TemplateVersion> ParseTemplateVersionRequest(const boost::json::value& request,
                                                    const std::string& template_version_id,
                                                    const std::vector<UploadedDocument>& uploads) {
  if (!request.is_object()) {
    return Fail(ErrorCode::kTemplateInvalid, "template version is invalid", "body",
                "must be an object");
  }
  if (IsUploadsVersionRequest(request.get_object())) {
    auto version = UploadsVersion(request.get_object(), template_version_id, uploads);
    if (!version) return std::unexpected(std::move(version.error()));
    return ImportVersion(*version, "");
  }
  Details limits;
  WithinSize(request, "", limits);
  if (!limits.empty()) {
    return std::unexpected(Error{ErrorCode::kValidationFailed, "the template version is too large",
                                 std::move(limits)});
  }
  boost::json::object version = request.get_object();
  Details assigned;
  RefuseMember(version, "templateVersionId", "", assigned);
  version["templateVersionId"] = template_version_id;
  return Checked(ImportVersion(version, ""), std::move(assigned), "template version is invalid");
}

}  // namespace esign
