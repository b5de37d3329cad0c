#include "domain/placed_field_rules.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <string>

#include "base/json_read.h"
#include "domain/field_value.h"
#include "domain/text_formats.h"

namespace esign {
namespace {

constexpr int64_t kMaxDocumentNameLength = 200;
constexpr int64_t kMaxFieldNameLength = 100;
// Rounding in a client's arithmetic must not refuse a box that ends on the page's edge.
constexpr double kEdgeTolerance = 0.01;

// "595.28" for a size in points: two decimals at most, no trailing zeros.
std::string Points(double value) {
  std::array<char, 32> text{};
  const int length = std::snprintf(text.data(), text.size(), "%.2f", value);
  std::string out(text.data(), static_cast<size_t>(std::max(0, length)));
  while (out.find('.') != std::string::npos && (out.back() == '0' || out.back() == '.')) {
    const bool dot = out.back() == '.';
    out.pop_back();
    if (dot) break;
  }
  return out;
}

const UploadedDocument* FindUpload(const std::vector<UploadedDocument>& uploads,
                                   std::string_view document_id) {
  for (const auto& upload : uploads) {
    if (upload.document_id == document_id) return &upload;
  }
  return nullptr;
}

// A field as read, with the path that names it in errors.
struct FieldAt {
  PlacedField field;
  std::string path;
};

// The participant (or role) a field names by its id or its 0-based index, as in roleBindings;
// "" after adding a detail.
std::string ReadFieldParticipant(const boost::json::object& item, const std::string& path,
                                 const std::vector<Participant>& participants,
                                 const FieldOwnerKeys& owners, Details& validation) {
  const auto* id = Member(item, owners.id);
  const auto* index = Member(item, owners.index);
  if ((id == nullptr) == (index == nullptr)) {
    AddDetail(validation, path,
              "give exactly one of " + std::string(owners.id) + ", " + std::string(owners.index));
    return "";
  }
  const Participant* participant = nullptr;
  std::string at;
  if (id != nullptr) {
    at = JoinPath(path, owners.id);
    if (id->is_string()) {
      for (const auto& p : participants) {
        if (p.participant_id == id->get_string()) participant = &p;
      }
    }
  } else {
    at = JoinPath(path, owners.index);
    auto number = AsInteger(*index);
    if (number && *number >= 0 && static_cast<size_t>(*number) < participants.size()) {
      participant = &participants[static_cast<size_t>(*number)];
    }
  }
  if (participant == nullptr) {
    AddDetail(validation, at, "must name a " + std::string(owners.noun) + " of this request");
    return "";
  }
  if (!participant->signs()) {
    AddDetail(validation, at,
              std::string(owners.noun) + " " + participant->participant_id + " does not sign");
    return "";
  }
  return participant->participant_id;
}

void ReadCommonAttributes(const boost::json::object& item, const std::string& path,
                          PlacedField& field, Details& validation) {
  if (const auto* required = Member(item, "required")) {
    if (required->is_bool()) {
      field.required = required->get_bool();
    } else {
      AddDetail(validation, JoinPath(path, "required"), "must be a boolean");
    }
  }
  if (const auto* name = Member(item, "name")) {
    if (!name->is_string() || name->get_string().empty() ||
        CountCharacters(name->get_string()) > kMaxFieldNameLength) {
      AddDetail(validation, JoinPath(path, "name"),
                "must be a non-empty string of at most " + std::to_string(kMaxFieldNameLength) +
                    " characters");
    } else {
      field.name = std::string(name->get_string());
    }
  }
  const auto* value = Member(item, "value");
  const auto* read_only = Member(item, "readOnly");
  const auto input = InputTypeOf(field.type);
  if (!input) {
    std::vector<std::string_view> given;
    for (std::string_view member : SignerRuleMembers()) {
      if (Member(item, member) != nullptr) given.push_back(member);
    }
    if (value != nullptr) given.emplace_back("value");
    if (read_only != nullptr) given.emplace_back("readOnly");
    for (std::string_view member : given) {
      AddDetail(validation, JoinPath(path, member),
                "a " + std::string(ToString(field.type)) +
                    " field is filled in at signing; only the fields a signer fills in take " +
                    std::string(member));
    }
    return;
  }
  auto rules = ReadSignerFieldRules(*input, item, path, validation);
  if (!rules) return;
  rules->required = field.required;
  field.rules = std::move(*rules);
  if (read_only != nullptr && !read_only->is_bool()) {
    AddDetail(validation, JoinPath(path, "readOnly"), "must be a boolean");
    return;
  }
  const bool said_read_only = read_only != nullptr && read_only->get_bool();
  if (value == nullptr) {
    if (said_read_only)
      AddDetail(validation, JoinPath(path, "value"), "a read-only field needs its value");
    return;
  }
  if (read_only != nullptr && !said_read_only) {
    AddDetail(
        validation, JoinPath(path, "readOnly"),
        "a field with a value is read-only; give `default` for a value the signer may change");
    return;
  }
  if (auto stored = CheckSignerValue(*field.rules, *value, JoinPath(path, "value"), validation)) {
    field.value = std::move(*stored);
    field.read_only = true;
  }
}

// Every member of `item` that is neither in `allowed` nor a signer field's rule (which
// ReadCommonAttributes judges) is "unknown field".
void RejectUnknownFieldMembers(const boost::json::object& item, const std::string& path,
                               std::initializer_list<std::string_view> allowed,
                               Details& validation) {
  const auto& rules = SignerRuleMembers();
  for (const auto& member : item) {
    const std::string_view key = member.key();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end() &&
        std::find(rules.begin(), rules.end(), key) == rules.end() && key != "value" &&
        key != "readOnly") {
      AddDetail(validation, JoinPath(path, key), "unknown field");
    }
  }
}

std::optional<PlacedFieldType> ReadType(const boost::json::object& item, const std::string& path,
                                        Details& validation) {
  const auto* type = Member(item, "type");
  auto parsed = type != nullptr && type->is_string() ? ParsePlacedFieldType(type->get_string())
                                                     : std::nullopt;
  if (!parsed) {
    AddDetail(validation, JoinPath(path, "type"),
              "one of signature, initials, name, email, date_signed, text, number, date, "
              "checkbox, radio, dropdown, phone, attachment");
  }
  return parsed;
}

std::optional<size_t> ReadDocumentIndex(const boost::json::object& item, const std::string& path,
                                        const std::vector<ContractDocument>& documents,
                                        Details& validation) {
  const auto* index = Member(item, "documentIndex");
  auto number = index != nullptr ? AsInteger(*index) : std::optional<int64_t>(0);
  if (!number || *number < 0 || static_cast<size_t>(*number) >= documents.size()) {
    AddDetail(
        validation, JoinPath(path, "documentIndex"),
        "must index this request's documents (0.." + std::to_string(documents.size() - 1) + ")");
    return std::nullopt;
  }
  return static_cast<size_t>(*number);
}

// The box must lie within its page.
void CheckBoxOnPage(const PageRect& box, const DocumentPage& page, const std::string& path,
                    Details& validation) {
  if (box.width < 1 || box.height < 1) {
    AddDetail(validation, path, "width and height must be at least 1 point");
  } else if (box.x < 0 || box.y < 0 || box.x + box.width > page.width + kEdgeTolerance ||
             box.y + box.height > page.height + kEdgeTolerance) {
    AddDetail(validation, path,
              "outside its page (" + Points(page.width) + " x " + Points(page.height) +
                  " points, origin at the top-left corner)");
  }
}

// The box must lie on an existing page of its document.
void CheckBox(const PageRect& box, const ContractDocument& document, const std::string& path,
              Details& validation) {
  const int64_t pages = static_cast<int64_t>(document.pages.size());
  if (box.page < 1 || box.page > pages) {
    AddDetail(validation, JoinPath(path, "page"),
              "the document has pages 1.." + std::to_string(pages));
    return;
  }
  CheckBoxOnPage(box, document.pages[static_cast<size_t>(box.page - 1)], path, validation);
}

// The members that place a field by coordinates, each reported when missing or not a number.
bool HasBoxMembers(const boost::json::object& item, const std::string& path, Details& validation) {
  bool complete = true;
  for (std::string_view key : {"page", "x", "y", "width", "height"}) {
    const auto* member = Member(item, key);
    bool ok = member != nullptr &&
              (key == "page" ? AsInteger(*member).has_value() : AsNumber(*member).has_value());
    if (!ok) {
      AddDetail(validation, JoinPath(path, key),
                key == "page" ? "required integer (1-based)" : "required number (points)");
      complete = false;
    }
  }
  return complete;
}

void ReadCoordinateFields(const boost::json::value& value,
                          const std::vector<ContractDocument>& documents,
                          const std::vector<Participant>& participants,
                          const FieldOwnerKeys& owners, std::vector<FieldAt>& out,
                          Details& validation) {
  if (value.is_null()) return;
  if (!value.is_array()) {
    AddDetail(validation, "fields", "must be an array");
    return;
  }
  const auto& items = value.get_array();
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string path = IndexPath("fields", i);
    if (!items[i].is_object()) {
      AddDetail(validation, path, "must be an object");
      continue;
    }
    const auto& item = items[i].get_object();
    RejectUnknownFieldMembers(item, path,
                              {"type", owners.id, owners.index, "documentIndex", "page", "x", "y",
                               "width", "height", "required", "name"},
                              validation);
    auto type = ReadType(item, path, validation);
    std::string participant = ReadFieldParticipant(item, path, participants, owners, validation);
    auto document = ReadDocumentIndex(item, path, documents, validation);
    PlacedField field;
    const bool placed = HasBoxMembers(item, path, validation);
    const bool complete = type && !participant.empty() && document && placed;
    if (type) field.type = *type;
    ReadCommonAttributes(item, path, field, validation);
    if (!complete) continue;
    field.participant_id = std::move(participant);
    field.document_index = static_cast<int64_t>(*document);
    field.box = PageRectFromJson(item);
    CheckBox(field.box, documents[*document], path, validation);
    out.push_back(FieldAt{std::move(field), path});
  }
}

void ReadTagFields(const std::vector<UploadedDocument>& uploads,
                   std::vector<ContractDocument>& documents,
                   const std::vector<Participant>& participants, const FieldOwnerKeys& owners,
                   std::vector<FieldAt>& out, Details& validation) {
  for (size_t d = 0; d < documents.size(); ++d) {
    const UploadedDocument* upload = FindUpload(uploads, documents[d].document_id);
    if (upload == nullptr) continue;
    for (size_t t = 0; t < upload->text_tags.size(); ++t) {
      const DocumentTextTag& tag = upload->text_tags[t];
      documents[d].covers.push_back(tag.box);
      const std::string path = IndexPath(JoinPath(IndexPath("documents", d), "textTags"), t);
      const std::string where = tag.text + " on page " + std::to_string(tag.box.page);
      auto type = ParsePlacedFieldType(tag.type);
      if (!type || *type == PlacedFieldType::kRadio || *type == PlacedFieldType::kDropdown) {
        AddDetail(validation, path,
                  where +
                      ": a tag's type is one of signature, initials, name, email, date_signed, "
                      "text, number, date, checkbox, phone, attachment (radio and dropdown fields "
                      "need their "
                      "options: place them with fields)");
        continue;
      }
      std::string names = where;
      names.append(" names ").append(owners.noun).append(" ").append(std::to_string(tag.signer));
      if (tag.signer < 1 || static_cast<size_t>(tag.signer) > participants.size()) {
        AddDetail(validation, path,
                  names + "; the request has " + std::to_string(participants.size()));
        continue;
      }
      const Participant& participant = participants[static_cast<size_t>(tag.signer - 1)];
      if (!participant.signs()) {
        AddDetail(validation, path, names + ", that does not sign");
        continue;
      }
      PlacedField field;
      field.type = *type;
      field.participant_id = participant.participant_id;
      field.document_index = static_cast<int64_t>(d);
      field.box = tag.box;
      field.required = !tag.optional;
      field.name = tag.name;
      field.placement = FieldPlacement::kTextTag;
      if (auto input = InputTypeOf(*type)) {
        field.rules = SignerFieldRules{.type = *input, .required = field.required};
      }
      CheckBox(field.box, documents[d], path, validation);
      out.push_back(FieldAt{std::move(field), path});
    }
  }
}

void ReadFormFieldMapping(const boost::json::value& value,
                          const std::vector<UploadedDocument>& uploads,
                          std::vector<ContractDocument>& documents,
                          const std::vector<Participant>& participants,
                          const FieldOwnerKeys& owners, std::vector<FieldAt>& out,
                          Details& validation) {
  if (value.is_null()) return;
  if (!value.is_array()) {
    AddDetail(validation, "formFieldMapping", "must be an array");
    return;
  }
  const auto& items = value.get_array();
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string path = IndexPath("formFieldMapping", i);
    if (!items[i].is_object()) {
      AddDetail(validation, path, "must be an object");
      continue;
    }
    const auto& item = items[i].get_object();
    RejectUnknownFieldMembers(
        item, path,
        {"documentIndex", "formField", "type", owners.id, owners.index, "required", "name"},
        validation);
    auto type = ReadType(item, path, validation);
    std::string participant = ReadFieldParticipant(item, path, participants, owners, validation);
    auto document = ReadDocumentIndex(item, path, documents, validation);
    PlacedField field;
    if (type) field.type = *type;
    ReadCommonAttributes(item, path, field, validation);
    auto name = StringMember(item, "formField");
    if (!name || name->empty()) {
      AddDetail(validation, JoinPath(path, "formField"), "required: the AcroForm field's name");
      continue;
    }
    if (!document) continue;
    const UploadedDocument* upload = FindUpload(uploads, documents[*document].document_id);
    const DocumentFormField* form_field = nullptr;
    if (upload != nullptr) {
      for (const auto& candidate : upload->form_fields) {
        if (candidate.name == *name) form_field = &candidate;
      }
    }
    if (form_field == nullptr) {
      AddDetail(validation, JoinPath(path, "formField"),
                "the document has no form field named " + std::string(*name));
      continue;
    }
    if (!type || participant.empty()) continue;
    auto& mapped = documents[*document].mapped_form_fields;
    if (std::find(mapped.begin(), mapped.end(), *name) != mapped.end()) {
      AddDetail(validation, JoinPath(path, "formField"), "mapped twice");
      continue;
    }
    mapped.emplace_back(*name);
    field.participant_id = std::move(participant);
    field.document_index = static_cast<int64_t>(*document);
    field.box = form_field->box;
    field.placement = FieldPlacement::kFormField;
    CheckBox(field.box, documents[*document], path, validation);
    out.push_back(FieldAt{std::move(field), path});
  }
}

// A showIf names another field the same signer fills in, by id, and a value that field takes
// (kept as that field stores it).
void CheckShowIf(std::vector<FieldAt>& read, Details& validation) {
  for (auto& at : read) {
    if (!at.field.rules || !at.field.rules->show_if) continue;
    ShowIf& show_if = *at.field.rules->show_if;
    const std::string path = JoinPath(JoinPath(at.path, "showIf"), "field");
    auto target = std::find_if(read.begin(), read.end(), [&](const FieldAt& other) {
      return other.field.field_id == show_if.field;
    });
    if (target == read.end() || &*target == &at ||
        target->field.participant_id != at.field.participant_id ||
        !target->field.filled_by_signer()) {
      AddDetail(validation, path, "the id of another field the same signer fills in");
      continue;
    }
    auto equals = CheckSignerValue(*target->field.rules, show_if.equals,
                                   JoinPath(JoinPath(at.path, "showIf"), "equals"), validation);
    if (equals) show_if.equals = std::move(*equals);
  }
}

bool Overlap(const PlacedField& a, const PlacedField& b) {
  if (a.document_index != b.document_index || a.box.page != b.box.page) return false;
  return a.box.x < b.box.x + b.box.width && b.box.x < a.box.x + a.box.width &&
         a.box.y < b.box.y + b.box.height && b.box.y < a.box.y + a.box.height;
}

// What every way of placing fields ends with: at most kMaxPlacedFields, no box over another
// signer's, ids given by `id_of` (the field, its 0-based place), showIf checked against them.
template <class IdOf>
std::vector<PlacedField> FinishFields(std::vector<FieldAt> read, std::string_view too_many_path,
                                      std::string_view too_many, IdOf id_of, Details& validation) {
  if (read.size() > kMaxPlacedFields) {
    AddDetail(
        validation, std::string(too_many_path),
        "at most " + std::to_string(kMaxPlacedFields) + " fields in one " + std::string(too_many));
    return {};
  }
  for (size_t i = 0; i < read.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (read[i].field.participant_id != read[j].field.participant_id &&
          Overlap(read[i].field, read[j].field)) {
        AddDetail(validation, read[i].path, "overlaps " + read[j].path + " of another signer");
        break;
      }
    }
  }
  for (size_t i = 0; i < read.size(); ++i) read[i].field.field_id = id_of(read[i].field, i);
  CheckShowIf(read, validation);
  std::vector<PlacedField> out;
  out.reserve(read.size());
  for (auto& at : read) out.push_back(std::move(at.field));
  return out;
}

// The fields of one template role: a contract's coordinate fields without an owner or a document.
void ReadOneRoleFields(const boost::json::object& role, const std::string& role_path,
                       std::vector<FieldAt>& out, Details& validation) {
  const auto* fields = Member(role, "fields");
  if (fields == nullptr) return;
  const std::string fields_path = JoinPath(role_path, "fields");
  if (!fields->is_array()) {
    AddDetail(validation, fields_path, "must be an array");
    return;
  }
  const auto action = ParseParticipantAction(StringMember(role, "action").value_or(""));
  if (action && *action != ParticipantAction::kSign && !fields->get_array().empty()) {
    AddDetail(validation, fields_path, "only sign roles have fields");
    return;
  }
  const auto& items = fields->get_array();
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string path = IndexPath(fields_path, i);
    if (!items[i].is_object()) {
      AddDetail(validation, path, "must be an object");
      continue;
    }
    const auto& item = items[i].get_object();
    RejectUnknownFieldMembers(
        item, path, {"type", "page", "x", "y", "width", "height", "required", "name"}, validation);
    auto type = ReadType(item, path, validation);
    const bool placed = HasBoxMembers(item, path, validation);
    PlacedField field;
    if (type) field.type = *type;
    ReadCommonAttributes(item, path, field, validation);
    if (!type || !placed) continue;
    field.participant_id = std::string(StringMember(role, "templateRoleId").value_or(""));
    field.box = PageRectFromJson(item);
    if (field.box.page < 1 || field.box.page > kMaxRenderedFieldPage) {
      AddDetail(validation, JoinPath(path, "page"),
                "a page of the rendered PDF, 1.." + std::to_string(kMaxRenderedFieldPage));
      continue;
    }
    CheckBoxOnPage(field.box, DocumentPage{kRenderedPageWidth, kRenderedPageHeight}, path,
                   validation);
    out.push_back(FieldAt{std::move(field), path});
  }
}

}  // namespace

std::vector<std::string> DocumentIdsNamedBy(const boost::json::value& documents) {
  std::vector<std::string> ids;
  if (!documents.is_array()) return ids;
  for (const auto& item : documents.get_array()) {
    if (ids.size() == kMaxContractDocuments) break;
    if (!item.is_object()) continue;
    auto id = StringMember(item.get_object(), "documentId");
    if (id && !id->empty()) ids.emplace_back(*id);
  }
  return ids;
}

Result<std::vector<ContractDocument>> ReadContractDocuments(
    const boost::json::value& value, const std::vector<UploadedDocument>& uploads,
    Details& validation) {
  std::vector<ContractDocument> documents;
  if (!value.is_array() || value.get_array().empty() ||
      value.get_array().size() > kMaxContractDocuments) {
    AddDetail(validation, "documents",
              "an array of 1 to " + std::to_string(kMaxContractDocuments) + " documents");
    return documents;
  }
  const auto& items = value.get_array();
  uint64_t bytes = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string path = IndexPath("documents", i);
    if (!items[i].is_object()) {
      AddDetail(validation, path, "must be an object {documentId, name?}");
      continue;
    }
    const auto& item = items[i].get_object();
    RejectUnknownMembers(item, path, {"documentId", "name"}, validation);
    auto id = StringMember(item, "documentId");
    if (!id || id->empty()) {
      AddDetail(validation, JoinPath(path, "documentId"), "required non-empty string");
      continue;
    }
    const UploadedDocument* upload = FindUpload(uploads, *id);
    if (upload == nullptr) {
      return Fail(ErrorCode::kDocumentNotFound, "document " + std::string(*id) + " not found",
                  JoinPath(path, "documentId"), "no such document");
    }
    ContractDocument document;
    document.document_id = upload->document_id;
    document.name = upload->name;
    if (const auto* name = Member(item, "name")) {
      if (!name->is_string() || name->get_string().empty() ||
          CountCharacters(name->get_string()) > kMaxDocumentNameLength) {
        AddDetail(validation, JoinPath(path, "name"),
                  "a non-empty string of at most " + std::to_string(kMaxDocumentNameLength) +
                      " characters");
      } else {
        document.name = std::string(name->get_string());
      }
    }
    document.sha256 = upload->cleaned_sha256;
    document.upload_sha256 = upload->sha256;
    document.pages = upload->pages;
    bytes += upload->cleaned_size;
    documents.push_back(std::move(document));
  }
  if (bytes > kMaxContractDocumentBytes) {
    AddDetail(validation, "documents",
              "at most " + std::to_string(kMaxContractDocumentBytes >> 20) +
                  " MiB of documents in one contract");
  }
  return documents;
}

std::vector<PlacedField> ReadPlacedFields(const boost::json::value& fields,
                                          const boost::json::value& form_field_mapping,
                                          const std::vector<UploadedDocument>& uploads,
                                          std::vector<ContractDocument>& documents,
                                          const std::vector<Participant>& participants,
                                          Details& validation, const FieldOwnerKeys& owners) {
  std::vector<FieldAt> read;
  ReadCoordinateFields(fields, documents, participants, owners, read, validation);
  ReadTagFields(uploads, documents, participants, owners, read, validation);
  ReadFormFieldMapping(form_field_mapping, uploads, documents, participants, owners, read,
                       validation);
  return FinishFields(
      std::move(read), "fields", "contract, text tags and mapped form fields included",
      [](const PlacedField&, size_t i) { return "fld_" + std::to_string(i + 1); }, validation);
}

std::vector<PlacedField> ReadRoleFields(const boost::json::array& roles,
                                        const std::string& roles_path, Details& validation) {
  std::vector<FieldAt> read;
  for (size_t i = 0; i < roles.size(); ++i) {
    if (roles[i].is_object()) {
      ReadOneRoleFields(roles[i].get_object(), IndexPath(roles_path, i), read, validation);
    }
  }
  std::map<std::string, size_t, std::less<>> names;
  for (const auto& at : read) ++names[at.field.name];
  return FinishFields(
      std::move(read), roles_path, "template version",
      [&](const PlacedField& field, size_t i) {
        const bool named = IsClientIdentifier(field.name) && !field.name.starts_with("fld_") &&
                           names[field.name] == 1;
        return named ? field.name : "fld_" + std::to_string(i + 1);
      },
      validation);
}

Status CheckPlacedFieldsForSend(const ContractState& state) {
  for (size_t f = 0; f < state.fields.size(); ++f) {
    const Participant* participant = state.FindParticipant(state.fields[f].participant_id);
    if (participant == nullptr || !participant->signs()) {
      return Fail(ErrorCode::kValidationFailed, "a field names no signer of the contract",
                  JoinPath(IndexPath("fields", f), "participantId"),
                  "participant " + state.fields[f].participant_id + " does not sign");
    }
    // A signing provider reports a signature, not values.
    if (state.fields[f].filled_by_signer() &&
        participant->execution_channel == ExecutionChannel::kProviderManaged) {
      return Fail(ErrorCode::kValidationFailed, "a provider_managed signer fills in no fields",
                  JoinPath(IndexPath("fields", f), "participantId"),
                  "participant " + participant->participant_id +
                      " signs through a provider, which reports no values; give the field a "
                      "value or place it for another signer");
    }
  }
  for (size_t i = 0; i < state.participants.size() && state.from_uploads(); ++i) {
    const Participant& p = state.participants[i];
    if (!p.signs()) continue;
    bool has_signature =
        std::any_of(state.fields.begin(), state.fields.end(), [&](const PlacedField& field) {
          return field.participant_id == p.participant_id &&
                 field.type == PlacedFieldType::kSignature;
        });
    if (!has_signature) {
      return Fail(ErrorCode::kValidationFailed,
                  "signer " + p.participant_id + " has no signature field",
                  IndexPath("participants", i), "every signer needs at least one signature field");
    }
  }
  return {};
}

std::vector<SignaturePlacement> SignaturePlacementsOf(
    const std::vector<ContractDocument>& documents, const std::vector<PlacedField>& fields,
    std::string_view owner) {
  std::vector<SignaturePlacement> placements;
  for (const auto& field : fields) {
    if (field.participant_id != owner || field.type != PlacedFieldType::kSignature) continue;
    const int64_t page =
        ComposedPage(documents, static_cast<size_t>(field.document_index), field.box.page);
    if (page == 0) continue;
    placements.push_back(
        SignaturePlacement{page, field.box.x, field.box.y, field.box.width, field.box.height});
  }
  return placements;
}

Result<boost::json::array> SignerValuesOf(const ContractState& state,
                                          std::string_view participant_id,
                                          const boost::json::value& field_values,
                                          const std::vector<SignerAttachment>& uploaded) {
  // Every field, so that a value for one the signer does not fill in is named as such: those
  // filled in at signing and those the integrator fixed are read-only here.
  std::vector<FillableField> fields;
  fields.reserve(state.fields.size());
  for (const PlacedField& field : state.fields) {
    fields.push_back(FillableField{field.field_id, field.participant_id,
                                   field.rules.value_or(SignerFieldRules{}),
                                   !field.filled_by_signer()});
  }
  const bool none_given =
      field_values.is_null() || (field_values.is_array() && field_values.get_array().empty());
  if (fields.empty() && !none_given) {
    return Fail(ErrorCode::kValidationFailed, "invalid field values", "fieldValues",
                "the contract has no fields to fill in");
  }
  auto filled = CheckSignerValues(fields, participant_id, field_values, uploaded);
  if (!filled) return std::unexpected(filled.error());
  boost::json::array out;
  for (auto& value : *filled) {
    out.push_back(
        boost::json::object{{"fieldId", value.field_id}, {"value", std::move(value.value)}});
  }
  return out;
}

TemplateVersion UploadsTemplateVersion(const ContractState& state) {
  TemplateVersion version;
  version.published = true;
  for (size_t i = 0; i < state.participants.size(); ++i) {
    const Participant& p = state.participants[i];
    RoleDef role;
    const RoleBinding* binding = state.BindingOf(p.participant_id);
    role.template_role_id = binding != nullptr ? binding->template_role_id : p.participant_id;
    role.name = "Participant " + std::to_string(i + 1);
    role.action = p.action;
    role.recipient_type = p.recipient_type;
    role.routing_order = p.routing_order.value_or(1);
    role.required = p.signs();
    role.signature_placement =
        SignaturePlacementsOf(state.documents, state.fields, p.participant_id);
    version.roles.push_back(std::move(role));
  }
  return version;
}

std::vector<RoleBinding> UploadsRoleBindings(const std::vector<Participant>& participants,
                                             const std::vector<RoleBinding>& template_bindings) {
  std::vector<RoleBinding> bindings;
  bindings.reserve(participants.size());
  for (const auto& p : participants) {
    RoleBinding binding{p.participant_id, p.participant_id};
    for (const auto& bound : template_bindings) {
      if (bound.participant_id == p.participant_id) binding = bound;
    }
    bindings.push_back(std::move(binding));
  }
  return bindings;
}

}  // namespace esign
