#include "domain/bulk_send.h"

#include <charconv>
#include <map>

#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/json_util.h"

namespace esign {
namespace {

// A cell as the JSON its field takes: integers and booleans typed, the rest as text (decimals
// are read from text by the contract's own check).
boost::json::value CellValue(const FieldDef& field, const std::string& cell) {
  if (field.type == FieldType::kInteger) {
    int64_t number = 0;
    const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), number);
    if (ec == std::errc() && end == cell.data() + cell.size()) return number;
  }
  if (field.type == FieldType::kBoolean) {
    if (cell == "true" || cell == "TRUE" || cell == "True") return true;
    if (cell == "false" || cell == "FALSE" || cell == "False") return false;
  }
  return boost::json::string(cell);
}

// Where a CSV column goes.
struct Column {
  enum class Kind { kField, kRole, kTitle } kind = Kind::kField;
  std::string section;  // kField
  const FieldDef* field = nullptr;
  const RoleDef* role = nullptr;  // kRole
  std::string attribute;          // kRole: name, email or organizationId
};

Result<Column> ColumnOf(const std::string& name, const TemplateVersion& version) {
  if (name == "title") return Column{.kind = Column::Kind::kTitle};
  const size_t dot = name.find('.');
  if (dot != std::string::npos) {
    const std::string head = name.substr(0, dot);
    const std::string tail = name.substr(dot + 1);
    if (const RoleDef* role = version.FindRole(head)) {
      if (tail == "name" || tail == "email" || tail == "organizationId") {
        return Column{.kind = Column::Kind::kRole, .role = role, .attribute = tail};
      }
    }
    for (const SectionDef& section : version.sections) {
      if (section.key != head) continue;
      for (const FieldDef& field : section.fields) {
        if (field.key == tail) return Column{.section = section.key, .field = &field};
      }
    }
  } else {
    for (const SectionDef& section : version.sections) {
      for (const FieldDef& field : section.fields) {
        if (field.key == name) return Column{.section = section.key, .field = &field};
      }
    }
  }
  return Fail(ErrorCode::kValidationFailed, "a CSV column names nothing of the template", "csv",
              "column " + name + ": not a field key (`purpose`, `terms.termMonths`), " +
                  "`<roleId>.name`, `<roleId>.email`, `<roleId>.organizationId` or `title`");
}

boost::json::object ErrorJson(const Error& error) {
  boost::json::array details;
  for (const ErrorDetail& detail : error.details) {
    details.push_back({{"field", detail.field}, {"issue", detail.issue}});
  }
  return {{"code", ToString(error.code)}, {"message", error.message}, {"details", details}};
}

Error ErrorFrom(const boost::json::object& json) {
  Error error;
  const auto text = [&](std::string_view key) -> std::string {
    const auto* value = json.if_contains(key);
    return value != nullptr && value->is_string() ? std::string(value->get_string()) : "";
  };
  error.code = ErrorCodeNamed(text("code")).value_or(ErrorCode::kInternal);
  error.message = text("message");
  if (const auto* details = json.if_contains("details"); details && details->is_array()) {
    for (const auto& detail : details->get_array()) {
      if (!detail.is_object()) continue;
      const auto& d = detail.get_object();
      const auto* field = d.if_contains("field");
      const auto* issue = d.if_contains("issue");
      error.details.push_back(
          ErrorDetail{field && field->is_string() ? std::string(field->get_string()) : "",
                      issue && issue->is_string() ? std::string(issue->get_string()) : ""});
    }
  }
  return error;
}

}  // namespace

Result<BulkSendRequest> ReadBulkSendRequest(const boost::json::object& body) {
  Details details;
  RejectUnknownMembers(
      body, "", {"templateId", "title", "rows", "signingSettings", "notifications"}, details);
  BulkSendRequest request;
  const auto* template_id = body.if_contains("templateId");
  if (template_id == nullptr || !template_id->is_string() || template_id->get_string().empty()) {
    AddDetail(details, "templateId", "required non-empty string");
  } else {
    request.template_id = template_id->get_string();
  }
  if (const auto* title = body.if_contains("title")) {
    if (!title->is_string()) {
      AddDetail(details, "title", "a string");
    } else {
      request.title = title->get_string();
    }
  }
  for (const auto& [key, slot] : {std::pair{"signingSettings", &request.signing_settings},
                                  std::pair{"notifications", &request.notifications}}) {
    if (const auto* value = body.if_contains(key)) {
      if (!value->is_object()) {
        AddDetail(details, key, "an object");
      } else {
        *slot = value->get_object();
      }
    }
  }
  const auto* rows = body.if_contains("rows");
  if (rows == nullptr || !rows->is_array() || rows->get_array().empty() ||
      rows->get_array().size() > kMaxBulkSendRows) {
    AddDetail(details, "rows", "an array of 1 to 10000 rows");
  } else {
    for (size_t i = 0; i < rows->get_array().size(); ++i) {
      // Only the first problems: a body of 10,000 bad rows answers with a bounded error.
      if (details.size() >= 20) break;
      const boost::json::value& row = rows->get_array()[i];
      const std::string path = IndexPath("rows", i);
      if (!row.is_object()) {
        AddDetail(details, path, "an object {data, participants, title}");
        continue;
      }
      const auto& object = row.get_object();
      RejectUnknownMembers(object, path, {"data", "participants", "title"}, details);
      const auto* participants = object.if_contains("participants");
      if (participants == nullptr || !participants->is_array()) {
        AddDetail(details, JoinPath(path, "participants"), "required array");
      }
      if (const auto* data = object.if_contains("data"); data && !data->is_object()) {
        AddDetail(details, JoinPath(path, "data"), "an object");
      }
      if (const auto* title = object.if_contains("title"); title && !title->is_string()) {
        AddDetail(details, JoinPath(path, "title"), "a string");
      }
    }
    request.rows = rows->get_array();
  }
  if (!details.empty()) {
    return std::unexpected(Error{ErrorCode::kValidationFailed, "invalid bulk send", details});
  }
  return request;
}

Result<boost::json::array> RowsFromCsv(const CsvTable& table, const TemplateVersion& version) {
  std::vector<Column> columns;
  for (const std::string& name : table.header) {
    auto column = ColumnOf(name, version);
    if (!column) return std::unexpected(column.error());
    columns.push_back(*column);
  }
  boost::json::array rows;
  for (const std::vector<std::string>& record : table.records) {
    boost::json::object data;
    std::map<std::string, boost::json::object> by_role;  // in the order of role ids
    boost::json::object row;
    for (size_t i = 0; i < columns.size(); ++i) {
      const std::string& cell = record[i];
      if (cell.empty()) continue;
      const Column& column = columns[i];
      switch (column.kind) {
        case Column::Kind::kTitle:
          row["title"] = cell;
          break;
        case Column::Kind::kField: {
          boost::json::value& section = data[column.section];
          if (!section.is_object()) section = boost::json::object{};
          section.get_object()[column.field->key] = CellValue(*column.field, cell);
          break;
        }
        case Column::Kind::kRole:
          by_role[column.role->template_role_id][column.attribute] = cell;
          break;
      }
    }
    boost::json::array participants;
    for (const RoleDef& role : version.roles) {
      auto found = by_role.find(role.template_role_id);
      if (found == by_role.end()) continue;
      boost::json::object participant = std::move(found->second);
      participant["templateRoleId"] = role.template_role_id;
      participant["action"] = ToString(role.action);
      participant["recipientType"] = ToString(role.recipient_type);
      if (role.action == ParticipantAction::kSign &&
          role.recipient_type == RecipientType::kIndividual) {
        participant["executionChannel"] = "platform_hosted";
      }
      participants.push_back(std::move(participant));
    }
    if (!data.empty()) row["data"] = std::move(data);
    row["participants"] = std::move(participants);
    rows.push_back(std::move(row));
  }
  return rows;
}

boost::json::object ContractRequestOfRow(const BulkSendRequest& job, const boost::json::object& row,
                                         std::string_view default_title) {
  boost::json::object request{{"templateId", job.template_id}, {"sendNow", true}};
  const auto* title = row.if_contains("title");
  request["title"] = title != nullptr    ? *title
                     : job.title.empty() ? boost::json::value(boost::json::string(default_title))
                                         : boost::json::value(job.title);
  if (const auto* data = row.if_contains("data")) request["data"] = *data;
  if (const auto* participants = row.if_contains("participants")) {
    request["participants"] = *participants;
  }
  if (job.signing_settings) request["signingSettings"] = *job.signing_settings;
  if (job.notifications) request["notifications"] = *job.notifications;
  return request;
}

std::string BulkRowIdempotencyKey(std::string_view bulk_send_id, int64_t row) {
  return "bulk:" + std::string(bulk_send_id) + ":" + std::to_string(row);
}

std::string_view ToString(BulkSendState state) {
  switch (state) {
    case BulkSendState::kRunning:
      return "running";
    case BulkSendState::kCancelling:
      return "cancelling";
    case BulkSendState::kCompleted:
      return "completed";
    case BulkSendState::kCancelled:
      return "cancelled";
  }
  return "running";
}

void ApplyBulkSendEvent(BulkSend& job, std::string_view type, const boost::json::object& data) {
  ++job.version;
  if (type == event_type::kBulkSendCreated) {
    auto created = event_codec::ReadData<BulkSendCreatedData>(data);
    if (!created) return;
    job.id = created->bulk_send_id;
    job.organization_id = created->organization_id;
    job.client_id = created->client_id;
    job.permissions = created->permissions;
    job.request_sha256 = created->request_sha256;
    job.request.template_id = created->template_id;
    job.request.title = created->title;
    job.request.signing_settings = created->signing_settings;
    job.request.notifications = created->notifications;
    job.row_count = created->row_count;
    job.rows_sha256 = created->rows_sha256;
    job.created_at = created->created_at;
  } else if (type == event_type::kBulkSendProgressed) {
    auto progressed = event_codec::ReadData<BulkSendProgressedData>(data);
    if (!progressed) return;
    for (const boost::json::object& row : progressed->rows) {
      BulkRowOutcome outcome;
      if (const auto* n = row.if_contains("row"); n && n->is_int64()) outcome.row = n->get_int64();
      if (const auto* id = row.if_contains("contractId"); id && id->is_string()) {
        outcome.contract_id = id->get_string();
      } else if (const auto* error = row.if_contains("error"); error && error->is_object()) {
        outcome.error = ErrorFrom(error->get_object());
      }
      job.outcomes.push_back(std::move(outcome));
    }
    job.processed = progressed->processed;
    job.sent = progressed->sent;
    job.failed = progressed->failed;
  } else if (type == event_type::kBulkSendCancelled) {
    auto cancelled = event_codec::ReadData<BulkSendCancelledData>(data);
    if (!cancelled) return;
    job.cancelled_at = cancelled->cancelled_at;
    if (job.state == BulkSendState::kRunning) job.state = BulkSendState::kCancelling;
  } else if (type == event_type::kBulkSendCompleted) {
    auto completed = event_codec::ReadData<BulkSendCompletedData>(data);
    if (!completed) return;
    job.state =
        completed->state == "cancelled" ? BulkSendState::kCancelled : BulkSendState::kCompleted;
    job.completed_at = completed->completed_at;
  }
}

boost::json::object BulkRowOutcomeJson(const BulkRowOutcome& outcome) {
  boost::json::object out{{"row", outcome.row}};
  if (!outcome.contract_id.empty()) {
    out["contractId"] = outcome.contract_id;
  } else {
    out["error"] = ErrorJson(outcome.error);
  }
  return out;
}

boost::json::object BulkSendToJson(const BulkSend& job) {
  const int64_t not_sent = job.not_sent();
  boost::json::object out{{"id", job.id},
                          {"state", ToString(job.state)},
                          {"templateId", job.request.template_id},
                          {"title", TextOrNull(job.request.title)},
                          {"rowCount", job.row_count},
                          {"counts",
                           {{"pending", job.row_count - job.processed - not_sent},
                            {"sent", job.sent},
                            {"failed", job.failed},
                            {"notSent", not_sent}}},
                          {"createdAt", job.created_at}};
  if (!job.cancelled_at.empty()) out["cancelledAt"] = job.cancelled_at;
  if (!job.completed_at.empty()) out["completedAt"] = job.completed_at;
  return out;
}

boost::json::object BulkRowToJson(const BulkSend& job, int64_t row) {
  if (row < static_cast<int64_t>(job.outcomes.size())) {
    const BulkRowOutcome& outcome = job.outcomes[static_cast<size_t>(row)];
    boost::json::object out = BulkRowOutcomeJson(outcome);
    out["state"] = outcome.contract_id.empty() ? "failed" : "sent";
    return out;
  }
  return {{"row", row}, {"state", job.state == BulkSendState::kCancelled ? "not_sent" : "pending"}};
}

}  // namespace esign
