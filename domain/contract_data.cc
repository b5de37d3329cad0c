#include "domain/contract_data.h"

#include "domain/field_value.h"

namespace esign {
namespace {

// Rows of one table; null cells are left out of the stored row.
std::optional<boost::json::array> ReadRows(const TableDef& table, const boost::json::value& value,
                                           const std::string& path, Details& details) {
  if (!value.is_array()) {
    AddDetail(details, path, "must be an array of rows");
    return std::nullopt;
  }
  const auto& rows = value.get_array();
  if (table.max_rows && static_cast<int64_t>(rows.size()) > *table.max_rows) {
    AddDetail(details, path, "at most " + std::to_string(*table.max_rows) + " rows");
    return std::nullopt;
  }
  size_t problems = details.size();
  boost::json::array out;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string row_path = IndexPath(path, r);
    if (!rows[r].is_object()) {
      AddDetail(details, row_path, "a row must be an object keyed by column");
      continue;
    }
    boost::json::object row;
    for (const auto& [key, cell] : rows[r].get_object()) {
      std::string cell_path = JoinPath(row_path, key);
      const FieldDef* column = table.FindColumn(key);
      if (column == nullptr) {
        AddDetail(details, cell_path, "unknown column of table " + table.table_key);
        continue;
      }
      if (cell.is_null()) continue;
      if (auto normalized = NormalizeFieldValue(*column, cell, cell_path, details)) {
        row[key] = std::move(*normalized);
      }
    }
    out.push_back(std::move(row));
  }
  if (details.size() != problems) return std::nullopt;
  return out;
}

void ReadTable(const TableDef& table, const boost::json::value& value, const std::string& path,
               DataChanges& changes, Details& details) {
  if (value.is_null()) {
    changes.tables[table.table_key] = nullptr;
    return;
  }
  if (auto rows = ReadRows(table, value, path, details)) {
    changes.tables[table.table_key] = std::move(*rows);
  }
}

void ReadField(const FieldDef& field, const boost::json::value& value, const std::string& path,
               DataChanges& changes, Details& details) {
  if (value.is_null()) {
    changes.fields[field.key] = nullptr;
    return;
  }
  if (auto normalized = NormalizeFieldValue(field, value, path, details)) {
    changes.fields[field.key] = std::move(*normalized);
  }
}

bool IsColumnKey(const TemplateVersion& version, std::string_view key) {
  for (const auto& section : version.sections) {
    for (const auto& table : section.tables) {
      if (table.FindColumn(key) != nullptr) return true;
    }
  }
  return false;
}

bool IsMissing(const boost::json::value* value) {
  return value == nullptr || value->is_null() ||
         (value->is_string() && value->get_string().empty());
}

}  // namespace

void ReadFieldValues(const TemplateVersion& version, const boost::json::value& value,
                     const std::string& path, DataChanges& changes, Details& details) {
  if (!value.is_array()) {
    AddDetail(details, path, "must be an array of {key, value}");
    return;
  }
  const auto& items = value.get_array();
  for (size_t i = 0; i < items.size(); ++i) {
    std::string item_path = IndexPath(path, i);
    if (!items[i].is_object()) {
      AddDetail(details, item_path, "must be an object {key, value}");
      continue;
    }
    const auto& item = items[i].get_object();
    RejectUnknownMembers(item, item_path, {"key", "value"}, details);
    std::string key_path = JoinPath(item_path, "key");
    const auto* key = item.if_contains("key");
    if (key == nullptr || !key->is_string()) {
      AddDetail(details, key_path, "required string");
      continue;
    }
    std::string_view name = key->get_string();
    const FieldDef* field = version.FindField(name);
    if (field == nullptr) {
      if (version.FindTable(name) != nullptr || IsColumnKey(version, name)) {
        AddDetail(details, key_path, "table cell values belong in tableData");
      } else {
        AddDetail(details, key_path, "unknown field " + std::string(name));
      }
      continue;
    }
    if (changes.fields.contains(name)) {
      AddDetail(details, key_path, "duplicate key " + std::string(name));
      continue;
    }
    const auto* field_value = item.if_contains("value");
    if (field_value == nullptr) {
      AddDetail(details, JoinPath(item_path, "value"), "required (null clears the field)");
      continue;
    }
    ReadField(*field, *field_value, JoinPath(item_path, "value"), changes, details);
  }
}

void ReadTableData(const TemplateVersion& version, const boost::json::value& value,
                   const std::string& path, DataChanges& changes, Details& details) {
  if (!value.is_object()) {
    AddDetail(details, path, "must be an object keyed by tableKey");
    return;
  }
  for (const auto& [key, rows] : value.get_object()) {
    std::string table_path = JoinPath(path, key);
    const TableDef* table = version.FindTable(key);
    if (table == nullptr) {
      AddDetail(details, table_path,
                version.FindField(key) != nullptr ? "a field, not a table; use fieldValues"
                                                  : "unknown table " + std::string(key));
      continue;
    }
    ReadTable(*table, rows, table_path, changes, details);
  }
}

void ReadSectionData(const TemplateVersion& version, const boost::json::value& value,
                     const std::string& path, DataChanges& changes, Details& details) {
  if (!value.is_object()) {
    AddDetail(details, path, "must be an object keyed by section");
    return;
  }
  for (const auto& [section_key, members] : value.get_object()) {
    std::string section_path = JoinPath(path, section_key);
    const SectionDef* section = version.FindSection(section_key);
    if (section == nullptr) {
      AddDetail(details, section_path, "unknown section " + std::string(section_key));
      continue;
    }
    if (!members.is_object()) {
      AddDetail(details, section_path, "must be an object keyed by field or table");
      continue;
    }
    for (const auto& [key, item] : members.get_object()) {
      std::string item_path = JoinPath(section_path, key);
      const FieldDef* field = nullptr;
      for (const auto& f : section->fields) {
        if (f.key == key) field = &f;
      }
      const TableDef* table = nullptr;
      for (const auto& t : section->tables) {
        if (t.table_key == key) table = &t;
      }
      if (field != nullptr) {
        ReadField(*field, item, item_path, changes, details);
      } else if (table != nullptr) {
        ReadTable(*table, item, item_path, changes, details);
      } else {
        std::string issue = "unknown in section " + section->key;
        if (version.FindField(key) != nullptr || version.FindTable(key) != nullptr) {
          issue += " (it belongs to another section)";
        }
        AddDetail(details, item_path, issue);
      }
    }
  }
}

void ApplyDataChanges(ContractData& data, const DataChanges& changes) {
  for (const auto& [key, value] : changes.fields) {
    if (value.is_null()) {
      data.field_values.stable_erase(key);  // erase() would move the last member into the gap
    } else {
      data.field_values[key] = value;
    }
  }
  for (const auto& [key, rows] : changes.tables) {
    if (rows.is_null()) {
      data.table_data.stable_erase(key);
    } else {
      data.table_data[key] = rows;
    }
  }
}

Status CheckDataCompleteForSend(const TemplateVersion& version, const ContractData& data,
                                DataForm form) {
  Details details;
  const bool by_section = form == DataForm::kSections;
  for (const auto& section : version.sections) {
    const std::string section_path = JoinPath("data", section.key);
    const std::string_view fields_at =
        by_section ? std::string_view(section_path) : std::string_view("fieldValues");
    const std::string_view tables_at =
        by_section ? std::string_view(section_path) : std::string_view("tableData");
    for (const auto& field : section.fields) {
      if (field.required && IsMissing(data.field_values.if_contains(field.key))) {
        AddDetail(details, JoinPath(fields_at, field.key), "required before sending");
      }
    }
    for (const auto& table : section.tables) {
      const std::string table_path = JoinPath(tables_at, table.table_key);
      const auto* rows_value = data.table_data.if_contains(table.table_key);
      const boost::json::array empty;
      const auto& rows =
          rows_value != nullptr && rows_value->is_array() ? rows_value->get_array() : empty;
      if (static_cast<int64_t>(rows.size()) < table.min_rows) {
        AddDetail(details, table_path,
                  "at least " + std::to_string(table.min_rows) + " rows required before sending");
      }
      for (size_t r = 0; r < rows.size(); ++r) {
        if (!rows[r].is_object()) continue;
        for (const auto& column : table.columns) {
          if (column.required && IsMissing(rows[r].get_object().if_contains(column.key))) {
            AddDetail(details, JoinPath(IndexPath(table_path, r), column.key),
                      "required before sending");
          }
        }
      }
    }
  }
  if (details.empty()) return {};
  return Fail(
      Error{ErrorCode::kValidationFailed, "the contract data is incomplete", std::move(details)});
}

boost::json::array FieldValuesToJson(const boost::json::object& field_values) {
  boost::json::array out;
  for (const auto& [key, value] : field_values) {
    out.push_back(boost::json::object{{"key", key}, {"value", value}});
  }
  return out;
}

boost::json::object FieldValuesFromJson(const boost::json::value& array) {
  boost::json::object out;
  if (!array.is_array()) return out;
  for (const auto& item : array.get_array()) {
    if (!item.is_object()) continue;
    const auto* key = item.get_object().if_contains("key");
    const auto* value = item.get_object().if_contains("value");
    if (key != nullptr && key->is_string() && value != nullptr) out[key->get_string()] = *value;
  }
  return out;
}

}  // namespace esign
