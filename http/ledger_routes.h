// The ledger's published trust (DESIGN 24): GET /api/v1/ledger/public-key, .../tree-head and
// .../consistency?from=&to=, without authentication (they reveal sizes and hashes only), each
// counted against the rate limit of the caller's address. With them anyone can hold the service's
// key, watch the log grow and prove that a newer head extends an older one (docs/ledger-tool.md).
// Thread safety: the handlers may run on any thread at once; `ledger` must outlive the routes.
#pragma once

#include "eventstore/event_store.h"
#include "http/api.h"

namespace esign::http {

// operationIds getLedgerPublicKey, getLedgerTreeHead, getLedgerConsistencyProof.
Status AddLedgerRoutes(ApiRoutes& routes, const eventstore::Ledger& ledger);

}  // namespace esign::http
