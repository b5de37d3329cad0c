#include "commands/stream_visit.h"

namespace esign::commands {
namespace {

// Events read at a time.
constexpr size_t kReadPage = 256;

}  // namespace

Status VisitStream(const eventstore::EventStore& store, std::string_view stream_id, uint64_t until,
                   const StreamVisitor& visit) {
  uint64_t next = 1;
  while (next <= until) {
    auto records = store.ReadStream(stream_id, StreamVersion(next), kReadPage);
    if (!records) return Fail(records.error());
    if (records->empty()) break;
    for (const eventstore::EventRecord& record : *records) {
      if (record.version.value() > until) return {};
      next = record.version.value() + 1;
      boost::system::error_code ec;
      const boost::json::value data = boost::json::parse(record.data, ec);
      visit(record, !ec && data.is_object() ? data.get_object() : boost::json::object{});
    }
  }
  return {};
}

}  // namespace esign::commands
