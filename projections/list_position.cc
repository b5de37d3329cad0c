#include "projections/list_position.h"

#include "projections/contract_index.h"
#include "projections/key_codec.h"

namespace esign::projections {
namespace {

constexpr char kMarker = '\0';

std::unexpected<Error> NotAPosition(std::string issue) {
  return Fail(ErrorCode::kInvalidCursor, "the cursor is not valid for this listing", "cursor",
              std::move(issue));
}

}  // namespace

std::string EncodeListPosition(const ListPosition& position) {
  std::string out(1, kMarker);
  out.push_back(position.inclusive ? 'i' : 'x');
  if (position.date) {
    out.append(DateIndexTime(*position.date));
    out.push_back('/');
  }
  out.append(position.contract_id);
  return out;
}

Result<ListPosition> DecodeListPosition(std::string_view bytes, bool dated) {
  ListPosition position;
  if (bytes.empty() || bytes[0] != kMarker) {
    // A cursor of the earlier format: the last id of an undated listing's page.
    if (dated) return NotAPosition("made for an earlier order of this listing; start again");
    if (bytes.empty()) return NotAPosition("no position");
    position.contract_id = std::string(bytes);
    return position;
  }
  if (bytes.size() < 3 || (bytes[1] != 'i' && bytes[1] != 'x')) {
    return NotAPosition("unknown position");
  }
  position.inclusive = bytes[1] == 'i';
  std::string_view rest = bytes.substr(2);
  if (dated) {
    if (rest.size() < kDateIndexTimeDigits + 2 || rest[kDateIndexTimeDigits] != '/') {
      return NotAPosition("unknown position");
    }
    position.date = ParseDateIndexTime(rest.substr(0, kDateIndexTimeDigits));
    if (!position.date) return NotAPosition("unknown position");
    rest.remove_prefix(kDateIndexTimeDigits + 1);
  }
  position.contract_id = std::string(rest);
  return position;
}

}  // namespace esign::projections
