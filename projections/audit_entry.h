// The audit-trail entry of one contract event: the envelope (position, eventId, type, recordedAt,
// actor, streamVersion, leafHash) and the details an auditor reads (who the event concerns, the
// hashes of the documents it fixed, how the contract ended or reminded, how a signer proved who
// they are). A pure function of the record, so the audit-trail rows (contract_views.h) and the
// evidence bundle (documents/evidence_bundle.h) compute it alike, and a verifier recomputes it
// from the proven record bytes.
// Thread safety: a pure function.
#pragma once

#include <boost/json.hpp>

#include "eventstore/event_record.h"

namespace esign::projections {

// {position, eventId, type, recordedAt, actor {clientId, organizationId, requestId, ip,
// userAgent}, streamVersion, leafHash, details?}; `data` is the record's data, parsed.
boost::json::object AuditEntryOf(const eventstore::EventRecord& record,
                                 const boost::json::object& data);

}  // namespace esign::projections
