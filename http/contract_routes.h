// The contract family (spec section 4): 18 operations. Writes go through the command handler;
// reads come from the projections (grant-checked there, so a contract the caller may not read is
// indistinguishable from a missing one).
#pragma once

#include <string>

#include "commands/contract_commands.h"
#include "commands/evidence_commands.h"
#include "delivery/delivery_store.h"
#include "http/api.h"
#include "projections/contract_as_of.h"

namespace esign::projections {
class ContractQueries;
class ReadYourWrites;
struct QueryActor;
}  // namespace esign::projections

namespace esign::http {

struct ContractRoutesDeps {
  commands::ContractCommandHandler& commands;
  commands::EvidenceCommands& evidence;  // evidence bundles and their verification
  const projections::ContractQueries& queries;
  const projections::ReadYourWrites& read_your_writes;
  projections::ContractAsOf as_of;  // ?asOf= reads, from the log
  const eventstore::BlobStore& blobs;
  // Renders the unsigned PDF of a contract as it stands (for drafts, which have none frozen).
  std::function<Result<std::string>(const ContractState&)> render_pdf;
  // The e-mail outbox's records (mail/mail_outbox.h), for GET /contracts/{id}/notifications.
  const delivery::DeliveryStore* mail_records = nullptr;
  std::string mail_from =
      "no-reply@localhost.localdomain";  // --mail-from, whose domain ends Message-IDs
};

// All 18 operations.
void AddContractRoutes(ApiRoutes& routes, const ContractRoutesDeps& deps);

// The parts of it, by file: reads (list, get, status) and documents/evidence (5 to 13).
void AddContractReadRoutes(ApiRoutes& routes, const ContractRoutesDeps& deps);
void AddDocumentRoutes(ApiRoutes& routes, const ContractRoutesDeps& deps);
// GET /contracts/{id}/notifications: the e-mails of the contract (notification_routes.cc).
void AddNotificationRoutes(ApiRoutes& routes, const ContractRoutesDeps& deps);

// Helpers shared with other families.
esign::Actor DomainActor(const Principal& principal);
eventstore::Actor EventActor(const ApiRequest& request);
// A request's Idempotency-Key (nullopt without one) and the SHA-256 of the method, path and body
// it is bound to; 400 VALIDATION_FAILED when longer than 255 characters.
struct IdempotencyHeader {
  std::string key;
  std::string request_sha256;
};
Result<std::optional<IdempotencyHeader>> IdempotencyKeyOf(const ApiRequest& request);
// The request's Idempotency-Key, bound to the calling client, the operation and the body.
Result<std::optional<eventstore::IdempotentRequest>> IdempotentRequestOf(const ApiRequest& request);
// The ETag of a contract version: "\"<version>\"".
std::string VersionETag(uint64_t version);
// The version If-Match names ("<version>", W/"<version>"); nothing when absent or "*";
// PRECONDITION_FAILED for anything else.
Result<std::optional<uint64_t>> ParseIfMatch(const ApiRequest& request);
projections::QueryActor ReaderOf(const ApiRequest& request);
// Every read starts here: the caller needs `permission`, and its own earlier writes become
// visible first (read-your-writes).
Status BeginRead(const ContractRoutesDeps& deps, const ApiRequest& request,
                 std::string_view permission = "contracts:read");

}  // namespace esign::http
