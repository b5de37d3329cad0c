// DecodeIndexEntry (contract_index.h): the entry is read with Boost.JSON's event parser straight
// into an IndexEntry. A list reads one entry per candidate, and building a JSON tree of each
// (members allocated, then looked up by name) was a third of a list's instructions.
#include <boost/json/basic_parser_impl.hpp>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "projections/contract_index.h"
#include "projections/json_event_handler.h"
#include "projections/list_query.h"

namespace esign::projections {
namespace {

using boost::json::error_code;

enum class Member {
  kOther,
  kId,
  kStatus,
  kVersion,
  kRoles,
  kActions,
  kController,
  kCreatedBy,
  kText,
  kCounterparties,
  kBulkSendId,
  kDate,  // one of the DateField names
};

Member MemberNamed(std::string_view key) {
  static constexpr std::pair<std::string_view, Member> kMembers[] = {
      {"id", Member::kId},
      {"status", Member::kStatus},
      {"version", Member::kVersion},
      {"roles", Member::kRoles},
      {"actions", Member::kActions},
      {"controller", Member::kController},
      {"createdBy", Member::kCreatedBy},
      {"text", Member::kText},
      {"counterparties", Member::kCounterparties},
      {"bulkSendId", Member::kBulkSendId},
  };
  for (const auto& [name, member] : kMembers) {
    if (key == name) return member;
  }
  return ParseDateField(key) ? Member::kDate : Member::kOther;
}

// The events of one entry's parse. A member of the wrong type counts as absent, as a later
// member of the same name replaces an earlier one: what a JSON tree's look-up by name gave.
class EntryHandler : public JsonEventHandlerBase {
 public:
  Result<IndexEntry> Take() {
    const std::optional<ContractStatus> status =
        status_ ? ParseContractStatus(*status_) : std::nullopt;
    if (!top_level_object_ || !id_ || !status || !version_ || !roles_ || !actions_ ||
        !has_counterparties_) {
      return Fail(ErrorCode::kCorruption, "malformed index entry");
    }
    entry_.contract_id = std::move(*id_);
    entry_.status = *status;
    entry_.version = *version_;
    entry_.roles = static_cast<uint8_t>(*roles_);
    entry_.actions = static_cast<uint8_t>(*actions_);
    return std::move(entry_);
  }

  bool on_object_begin(error_code&) {
    if (depth_ == 0) top_level_object_ = true;
    Enter();
    return true;
  }
  bool on_object_end(size_t, error_code&) { return Leave(); }
  bool on_array_begin(error_code&) {
    if (depth_ == 1 && member_ == Member::kCounterparties) {
      has_counterparties_ = true;
      in_counterparties_ = true;
    }
    Enter();
    return true;
  }
  bool on_array_end(size_t, error_code&) {
    if (depth_ == 2) in_counterparties_ = false;
    return Leave();
  }
  bool on_key_part(boost::json::string_view part, size_t, error_code&) {
    text_.append(part.data(), part.size());
    return true;
  }
  bool on_key(boost::json::string_view last, size_t, error_code&) {
    text_.append(last.data(), last.size());
    member_ = depth_ == 1 ? MemberNamed(text_) : Member::kOther;
    if (member_ == Member::kDate) date_ = *ParseDateField(text_);
    text_.clear();
    Forget(member_);
    return true;
  }
  bool on_string_part(boost::json::string_view part, size_t, error_code&) {
    text_.append(part.data(), part.size());
    return true;
  }
  bool on_string(boost::json::string_view last, size_t, error_code&) {
    text_.append(last.data(), last.size());
    if (depth_ == 2 && in_counterparties_) {
      entry_.counterparties.push_back(std::move(text_));
    } else if (depth_ == 1) {
      StringValue();
    }
    text_.clear();
    member_ = Member::kOther;
    return true;
  }
  bool on_int64(int64_t value, boost::json::string_view, error_code&) {
    if (depth_ == 1) {
      if (value >= 0) UnsignedValue(static_cast<uint64_t>(value));
      DateValue(value);
    }
    return Scalar();
  }
  bool on_uint64(uint64_t value, boost::json::string_view, error_code&) {
    if (depth_ == 1) {
      UnsignedValue(value);
      if (value <= uint64_t{std::numeric_limits<int64_t>::max()}) {
        DateValue(static_cast<int64_t>(value));
      }
    }
    return Scalar();
  }
  bool on_double(double, boost::json::string_view, error_code&) { return Scalar(); }
  bool on_bool(bool, error_code&) { return Scalar(); }
  bool on_null(error_code&) { return Scalar(); }

 private:
  void Enter() {
    ++depth_;
    if (depth_ > 2) member_ = Member::kOther;
  }
  bool Leave() {
    --depth_;
    member_ = Member::kOther;
    return true;
  }
  bool Scalar() {
    if (depth_ == 1) member_ = Member::kOther;
    return true;
  }

  // A member named again: its earlier value no longer counts.
  void Forget(Member member) {
    switch (member) {
      case Member::kId:
        id_.reset();
        break;
      case Member::kStatus:
        status_.reset();
        break;
      case Member::kVersion:
        version_.reset();
        break;
      case Member::kRoles:
        roles_.reset();
        break;
      case Member::kActions:
        actions_.reset();
        break;
      case Member::kController:
        entry_.controller.clear();
        break;
      case Member::kCreatedBy:
        entry_.created_by.clear();
        break;
      case Member::kText:
        entry_.text.clear();
        break;
      case Member::kBulkSendId:
        entry_.bulk_send_id.clear();
        break;
      case Member::kCounterparties:
        has_counterparties_ = false;
        entry_.counterparties.clear();
        break;
      case Member::kDate:
        entry_.MutableDate(date_).reset();
        break;
      case Member::kOther:
        break;
    }
  }

  void StringValue() {
    switch (member_) {
      case Member::kId:
        id_ = std::move(text_);
        break;
      case Member::kStatus:
        status_ = std::move(text_);
        break;
      case Member::kController:
        entry_.controller = std::move(text_);
        break;
      case Member::kCreatedBy:
        entry_.created_by = std::move(text_);
        break;
      case Member::kText:
        entry_.text = std::move(text_);
        break;
      case Member::kBulkSendId:
        entry_.bulk_send_id = std::move(text_);
        break;
      default:
        break;
    }
  }
  void UnsignedValue(uint64_t value) {
    if (member_ == Member::kVersion) version_ = value;
    if (member_ == Member::kRoles) roles_ = value;
    if (member_ == Member::kActions) actions_ = value;
  }
  void DateValue(int64_t value) {
    if (member_ == Member::kDate) entry_.MutableDate(date_) = value;
  }

  IndexEntry entry_;
  std::optional<std::string> id_;
  std::optional<std::string> status_;
  std::optional<uint64_t> version_;
  std::optional<uint64_t> roles_;
  std::optional<uint64_t> actions_;
  bool has_counterparties_ = false;
  bool in_counterparties_ = false;
  bool top_level_object_ = false;
  int depth_ = 0;
  Member member_ = Member::kOther;
  DateField date_ = DateField::kCreatedAt;  // when member_ is kDate
  std::string text_;                        // the key or string being read
};

}  // namespace

Result<IndexEntry> DecodeIndexEntry(std::string_view bytes) {
  boost::json::basic_parser<EntryHandler> parser{boost::json::parse_options{}};
  error_code ec;
  const size_t read = parser.write_some(false, bytes.data(), bytes.size(), ec);
  if (ec || !parser.done() || read != bytes.size()) {
    return Fail(ErrorCode::kCorruption, "malformed index entry");
  }
  return parser.handler().Take();
}

}  // namespace esign::projections
