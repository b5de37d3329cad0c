// Signature boxes kept with the text they close. A template places its signature boxes at fixed
// coordinates, but how far its text runs depends on each contract's data: with short values the
// text may end a page before the boxes (a page that holds only signatures) or far above them,
// with long ones it may run under them. At send, once the body is laid out, the boxes on the
// text's last page (in its column) and on any page after it move as one group to just below the
// last paragraph, each page's boxes keeping their positions relative to each other, one page's
// group after the other; a group that does not fit there opens the next page. The moved
// placements are what contract.prepared records, so the frozen PDF, the hosted page and the seal
// all draw them where they were laid out.
//
// Left as the template placed them: boxes on the pages before the text's last (initials beside a
// clause), boxes outside the text column, every box when a page they would leave holds a placed
// field (the author lined the two up; moving one would separate them), and a group taller than a
// page.
#pragma once

#include <cstdint>
#include <vector>

#include "domain/template.h"

namespace esign::documents {

// Where the laid-out body ends and what a page offers boxes, in page points (origin top left).
struct TextEnd {
  size_t page = 1;    // the last page that holds text, 1-based
  double y = 0;       // the cursor under the last paragraph on that page
  double top = 0;     // the first y of a page's body
  double bottom = 0;  // the last y a box may reach (above the footer)
  double left = 0;    // the text column
  double right = 0;
};

// Moves the boxes among `placements` (each sign role's list, as recorded) as the header says.
// `field_pages` are the pages holding a placed field. Changes nothing when no box needs to move.
void KeepSignaturesWithText(const std::vector<std::vector<SignaturePlacement>*>& placements,
                            const TextEnd& end, const std::vector<int64_t>& field_pages);

}  // namespace esign::documents
