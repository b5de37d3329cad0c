// Free-text matching of contract lists: the one fold applied to the search text of a contract
// and to the `q` parameter, and the trigrams the text index is keyed by.
//
// The fold is Unicode NFKC_Casefold (ICU's Normalizer2 NFKC_Casefold instance): compatibility
// normalization with full case folding, the caseless match of Unicode (UAX #15, UAX #31). So
// "ÄRGER" matches "ärger" whether the ä is one code point or a + U+0308, "STRASSE" matches
// "straße" (ß folds to "ss"), and a full-width or ligature letter matches its plain form.
// Invalid UTF-8 becomes U+FFFD and matches nothing else.
// Pure functions; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace esign::projections {

// The folded text, as UTF-8.
std::string FoldText(std::string_view utf8);

// Every distinct run of three consecutive code points of `folded` (UTF-8 bytes each), in order of
// first appearance; none when the text has fewer than three code points.
std::vector<std::string> Trigrams(std::string_view folded);

// The trigrams of a folded search text that the text index keeps: distinct, sorted, as views into
// `folded`, without those that hold a control byte (the line breaks between the fields of the
// text): a q is printable, so no query can ask for them.
std::vector<std::string_view> IndexedTrigrams(std::string_view folded);

}  // namespace esign::projections
