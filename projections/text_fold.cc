#include "projections/text_fold.h"

#include <algorithm>
#include <array>
#include <unordered_set>

#include <unicode/normalizer2.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

namespace esign::projections {

std::string FoldText(std::string_view utf8) {
  UErrorCode error = U_ZERO_ERROR;
  const icu::Normalizer2* fold = icu::Normalizer2::getNFKCCasefoldInstance(error);
  if (U_FAILURE(error) || fold == nullptr) return std::string(utf8);  // ICU data missing
  const icu::UnicodeString text = icu::UnicodeString::fromUTF8(
      icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())));
  const icu::UnicodeString folded = fold->normalize(text, error);
  if (U_FAILURE(error)) return std::string(utf8);
  std::string out;
  folded.toUTF8String(out);
  return out;
}

std::vector<std::string> Trigrams(std::string_view folded) {
  // Byte offsets where each code point starts, and the end.
  std::vector<size_t> starts;
  const auto* bytes = reinterpret_cast<const uint8_t*>(folded.data());
  const auto length = static_cast<int32_t>(folded.size());
  for (int32_t i = 0; i < length;) {
    starts.push_back(static_cast<size_t>(i));
    UChar32 c = 0;
    U8_NEXT(bytes, i, length, c);
  }
  starts.push_back(folded.size());
  std::vector<std::string> out;
  if (starts.size() < 4) return out;
  std::unordered_set<std::string_view> seen;
  for (size_t i = 0; i + 3 < starts.size(); ++i) {
    const std::string_view trigram = folded.substr(starts[i], starts[i + 3] - starts[i]);
    if (seen.insert(trigram).second) out.emplace_back(trigram);
  }
  return out;
}

std::vector<std::string_view> IndexedTrigrams(std::string_view folded) {
  std::vector<std::string_view> out;
  out.reserve(folded.size());
  const auto* bytes = reinterpret_cast<const uint8_t*>(folded.data());
  const auto length = static_cast<int32_t>(folded.size());
  // Byte offsets of the last three code points read, and where the last control byte ended.
  std::array<size_t, 3> starts{};
  size_t read = 0;
  size_t clean_from = 0;
  for (int32_t i = 0; i < length;) {
    const auto start = static_cast<size_t>(i);
    UChar32 c = 0;
    U8_NEXT(bytes, i, length, c);
    if (c >= 0 && (c < 0x20 || c == 0x7f)) clean_from = static_cast<size_t>(i);
    starts[read % 3] = start;
    ++read;
    if (read < 3) continue;
    const size_t first = starts[read % 3];  // the oldest of the three
    if (first < clean_from) continue;
    out.push_back(folded.substr(first, static_cast<size_t>(i) - first));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace esign::projections
