#include "documents/signature_keeping.h"

#include <algorithm>
#include <map>

namespace esign::documents {
namespace {

// Air between the last paragraph and the boxes, and between two pages' groups of boxes.
constexpr double kGap = 6.0;

bool InTextColumn(const SignaturePlacement& box, const TextEnd& end) {
  return box.x < end.right && box.x + box.width > end.left;
}

// A box on a page after the text, or in the text's column on its last page.
bool Strays(const SignaturePlacement& box, const TextEnd& end) {
  const auto page = static_cast<size_t>(box.page);
  if (box.page < 1 || page < end.page) return false;
  return page > end.page || InTextColumn(box, end);
}

}  // namespace

void KeepSignaturesWithText(const std::vector<std::vector<SignaturePlacement>*>& placements,
                            const TextEnd& end, const std::vector<int64_t>& field_pages) {
  // The strays by their page, in page order.
  std::map<int64_t, std::vector<SignaturePlacement*>> strays;
  for (auto* list : placements) {
    for (auto& box : *list) {
      if (Strays(box, end)) strays[box.page].push_back(&box);
    }
  }
  if (strays.empty()) return;
  for (const int64_t page : field_pages) {
    if (strays.contains(page)) return;
  }
  struct Move {
    size_t page;
    double top;     // the group's top, where it was
    double to_top;  // and where it goes
  };
  std::vector<Move> moves;
  size_t page = end.page;
  double y = end.y + kGap;
  for (const auto& [from_page, boxes] : strays) {
    double top = boxes.front()->y;
    double foot = top;
    for (const auto* box : boxes) {
      top = std::min(top, box->y);
      foot = std::max(foot, box->y + box->height);
    }
    const double height = foot - top;
    if (height > end.bottom - end.top) return;  // fits no page: leave the template's layout
    if (y + height > end.bottom) {
      ++page;
      y = end.top;
    }
    moves.push_back({page, top, y});
    y += height + kGap;
  }
  size_t i = 0;
  for (auto& [from_page, boxes] : strays) {
    for (auto* box : boxes) {
      box->page = static_cast<int64_t>(moves[i].page);
      box->y = moves[i].to_top + (box->y - moves[i].top);
    }
    ++i;
  }
}

}  // namespace esign::documents
