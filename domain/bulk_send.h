// Bulk send (DESIGN 23): one template sent to many recipients as one durable job. A job is the
// stream bulk_send-<id>:
//   bulk_send.created     the job: its template, its settings, who asked (with their permissions,
//                         which every row's contract is created with), the number of rows and the
//                         blob that holds them (a JSON array, one request per row)
//   bulk_send.progressed  every 100 rows: how far the job got, and each of those rows' contract
//                         or error
//   bulk_send.cancelled   the integrator stopped the rows not yet sent
//   bulk_send.completed   the end: every row sent or failed, or the rest not sent after a cancel
// Each row becomes a contract through the same create-and-send command as POST /contracts with
// sendNow, under the Idempotency-Key "bulk:<job>:<row>", so a restart repeats no row.
// Pure functions; any thread.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/csv_table.h"
#include "domain/result.h"
#include "domain/template.h"

namespace esign {

inline constexpr size_t kMaxBulkSendRows = 10'000;
inline constexpr size_t kMaxBulkSendCsvBytes = size_t{5} * 1024 * 1024;
// The same rows as JSON repeat every member's name in every row.
inline constexpr size_t kMaxBulkSendJsonBytes = size_t{16} * 1024 * 1024;
// Rows between two bulk_send.progressed events.
inline constexpr int64_t kBulkProgressEvery = 100;

namespace event_type {
inline constexpr std::string_view kBulkSendCreated = "bulk_send.created";
inline constexpr std::string_view kBulkSendProgressed = "bulk_send.progressed";
inline constexpr std::string_view kBulkSendCancelled = "bulk_send.cancelled";
inline constexpr std::string_view kBulkSendCompleted = "bulk_send.completed";
}  // namespace event_type

// What POST /api/v1/bulk-sends asks: {templateId, title?, rows: [{data?, participants, title?}],
// signingSettings?, notifications?}. The rows keep their JSON; each is checked when its contract
// is created, and a bad one fails alone.
struct BulkSendRequest {
  std::string template_id;
  std::string title;  // the rows' default title; empty: the template's name
  std::optional<boost::json::object> signing_settings;
  std::optional<boost::json::object> notifications;
  boost::json::array rows;
};

// kValidationFailed naming every problem of the request's shape: 1 to kMaxBulkSendRows rows, each
// an object of data (object), participants (array, required) and title (string) only.
Result<BulkSendRequest> ReadBulkSendRequest(const boost::json::object& body);

// The rows of a CSV (csv_table.h) for `version`'s template: a column per field key (`purpose`,
// or with its section, `terms.termMonths`), `<roleId>.name`, `<roleId>.email` and
// `<roleId>.organizationId` per role, and `title`. Cells become the types the fields have
// (integer, boolean; the rest as text); an empty cell is left out. Every role with a name or an
// e-mail in a row becomes a participant with the role's action and type; its signers sign on the
// hosted page. kValidationFailed (field "csv") for a column that is none of these.
Result<boost::json::array> RowsFromCsv(const CsvTable& table, const TemplateVersion& version);

// The POST /contracts request that row `row` makes: the job's template, settings and default
// title, the row's data, participants and title, and sendNow.
boost::json::object ContractRequestOfRow(const BulkSendRequest& job, const boost::json::object& row,
                                         std::string_view default_title);

// The Idempotency-Key of a row's contract.
std::string BulkRowIdempotencyKey(std::string_view bulk_send_id, int64_t row);

enum class BulkSendState { kRunning, kCancelling, kCompleted, kCancelled };
std::string_view ToString(BulkSendState state);

// What became of one row.
struct BulkRowOutcome {
  int64_t row = 0;
  std::string contract_id;  // sent
  Error error;              // failed (when contract_id is empty)
};

// A job as its events tell it.
struct BulkSend {
  std::string id;
  std::string organization_id;
  std::string client_id;
  std::vector<std::string> permissions;
  std::string request_sha256;  // of the request that made it, for Idempotency-Key replays
  BulkSendRequest request;     // without rows: they are in the blob
  int64_t row_count = 0;
  std::string rows_sha256;
  std::string created_at;
  BulkSendState state = BulkSendState::kRunning;
  int64_t processed = 0;  // rows done, from the first
  int64_t sent = 0;
  int64_t failed = 0;
  std::vector<BulkRowOutcome> outcomes;  // of rows 0 .. processed-1, in order
  std::string cancelled_at;
  std::string completed_at;
  uint64_t version = 0;  // of its stream

  int64_t not_sent() const {
    return state == BulkSendState::kCancelled ? row_count - processed : 0;
  }
};

// Folds one event of the job's stream into `job`; unknown types only count.
void ApplyBulkSendEvent(BulkSend& job, std::string_view type, const boost::json::object& data);

// {id, state, templateId, title, rowCount, counts: {pending, sent, failed, notSent}, createdAt,
// cancelledAt?, completedAt?}.
boost::json::object BulkSendToJson(const BulkSend& job);
// {row, state: pending | sent | failed | not_sent, contractId?, error?}.
boost::json::object BulkRowToJson(const BulkSend& job, int64_t row);
// A row's outcome as bulk_send.progressed records it: {row, contractId} or {row, error: {code,
// message, details}}, the error as the API would have answered it.
boost::json::object BulkRowOutcomeJson(const BulkRowOutcome& outcome);

}  // namespace esign
