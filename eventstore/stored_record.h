// Reading records back on the hot read paths (ReadAll, ReadStream, subscriptions), where
// ParseRecord's full JSON parse and re-serialization cost several times the storage read.
//
// ParseStoredRecord reads the canonical layout directly when every head string is free of
// escapes and control characters, which is every record the service writes in practice, and
// hands anything else to ParseRecord. Whenever both succeed they return the same record (tested
// over random records and damaged heads). The one difference: the fast path checks that `data`
// is delimited by braces but does not parse it, so damaged bytes inside `data` are left to the
// ledger to detect (VerifyLog compares every stored leaf with the hash of the bytes; without a
// ledger it uses ParseRecord). Appends check `data` (CheckEventData), so only damage can put an
// invalid `data` in the log.
//
// Thread safety: pure functions.
#pragma once

#include <string_view>
#include <vector>

#include "domain/result.h"
#include "eventstore/event_record.h"

namespace esign::eventstore {

Result<EventRecord> ParseStoredRecord(std::string_view bytes);

// ParseStoredRecord(bytes)'s position, or its error, without copying the record's strings: all
// that VerifyLog reads of a record whose bytes it compares with the ledger's leaf.
Result<GlobalPosition> StoredRecordPosition(std::string_view bytes);

// kValidationFailed unless `data` is empty or a JSON object that ParseRecord will read back.
Status CheckEventData(std::string_view data);

// Whether `text` is one JSON object as boost::json::parse reads it by default (strict UTF-8,
// nesting up to 32), checked without building it: stricter than CheckEventData, whose strings
// may hold any bytes, as stored. Such data can be passed on to readers of JSON as it is.
bool IsStrictJsonObject(std::string_view text);

}  // namespace esign::eventstore
