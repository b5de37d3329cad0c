// The data of a contract, validated against the template version's input schema.
//
// Requests carry data in two modes: section-based `data` {"section": {"field": v, "table": [..]}}
// or direct `fieldValues` [{key, value}] plus `tableData` {tableKey: [{column: v}]}. Both become
// a DataChanges: per field the new value or null (clear), per table the new rows or null (clear).
// Type, limits, unknown keys and maxRows are checked on every write; required fields, required
// columns and minRows only when the contract is sent (a draft may be incomplete). Every problem
// is a kValidationFailed detail naming its path ("fieldValues[2].value", "data.terms.termMonths",
// "tableData.paymentMilestones[0].amount"). Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <string>

#include "domain/json_util.h"
#include "domain/result.h"
#include "domain/template.h"

namespace esign {

struct ContractData {
  boost::json::object field_values;  // field key -> stored value, in order of first write
  boost::json::object table_data;    // table key -> array of row objects
};

// How a request gave the data: by section (`data`), or directly (`fieldValues`, `tableData`).
enum class DataForm { kDirect, kSections };
inline constexpr std::string_view kSectionsDataForm = "sections";  // DataForm::kSections in events

struct DataChanges {
  boost::json::object fields;  // field key -> value, or null to clear
  boost::json::object tables;  // table key -> rows, or null to clear the table
  bool empty() const { return fields.empty() && tables.empty(); }
};

// Each reader validates one request member at `path`, adds what it accepts to `changes` and one
// detail per problem to `details`.
void ReadFieldValues(const TemplateVersion& version, const boost::json::value& value,
                     const std::string& path, DataChanges& changes, Details& details);
void ReadTableData(const TemplateVersion& version, const boost::json::value& value,
                   const std::string& path, DataChanges& changes, Details& details);
void ReadSectionData(const TemplateVersion& version, const boost::json::value& value,
                     const std::string& path, DataChanges& changes, Details& details);

// Null values erase; tables are replaced whole.
void ApplyDataChanges(ContractData& data, const DataChanges& changes);

// kValidationFailed with one detail per missing required field, table short of minRows or
// missing required cell, each named in `form`: directly "fieldValues.<key>", "tableData.<table>"
// and "tableData.<table>[<row>].<column>"; by section "data.<section>.<key>",
// "data.<section>.<table>" and "data.<section>.<table>[<row>].<column>".
Status CheckDataCompleteForSend(const TemplateVersion& version, const ContractData& data,
                                DataForm form);

// The API and event form of field values: [{"key": k, "value": v}], and back.
boost::json::array FieldValuesToJson(const boost::json::object& field_values);
boost::json::object FieldValuesFromJson(const boost::json::value& array);

}  // namespace esign
