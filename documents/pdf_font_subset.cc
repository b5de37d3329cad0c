#include "documents/pdf_font_subset.h"

#include <hb-ot.h>
#include <hb-subset.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <utility>

#include "base/sha256.h"
#include "documents/cairo_handles.h"
#include "documents/deflate.h"

namespace esign::documents {
namespace {

using BlobPtr = std::unique_ptr<hb_blob_t, FreeWith<hb_blob_destroy>>;
using FontPtr = std::unique_ptr<hb_font_t, FreeWith<hb_font_destroy>>;
using InputPtr = std::unique_ptr<hb_subset_input_t, FreeWith<hb_subset_input_destroy>>;
using PlanPtr = std::unique_ptr<hb_subset_plan_t, FreeWith<hb_subset_plan_destroy>>;

constexpr hb_codepoint_t kFirstAscii = 0x20;
constexpr hb_codepoint_t kLastAscii = 0x7e;

// A table's bytes; empty when the face has none.
std::string_view TableOf(hb_face_t* face, hb_tag_t tag, BlobPtr& holder) {
  holder.reset(hb_face_reference_table(face, tag));
  unsigned length = 0;
  const char* data = hb_blob_get_data(holder.get(), &length);
  return {data, data == nullptr ? 0 : length};
}

// Big-endian integers at `offset`, 0 past the end.
int ReadInt16(std::string_view table, size_t offset) {
  if (offset + 2 > table.size()) return 0;
  const auto high = static_cast<uint8_t>(table[offset]);
  const auto low = static_cast<uint8_t>(table[offset + 1]);
  return static_cast<int16_t>(static_cast<uint16_t>((high << 8) | low));
}
uint32_t ReadUint32(std::string_view table, size_t offset) {
  if (offset + 4 > table.size()) return 0;
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<uint8_t>(table[offset + i]);
  return value;
}

int ToThousandths(double font_units, unsigned upem) {
  return static_cast<int>(std::lround(font_units * 1000.0 / upem));
}

std::string PostScriptName(hb_face_t* face) {
  char name[128] = {};
  unsigned length = sizeof(name);
  hb_ot_name_get_utf8(face, HB_OT_NAME_ID_POSTSCRIPT_NAME, HB_LANGUAGE_INVALID, &length, name);
  std::string out;
  for (const char* c = name; *c != '\0'; ++c) {
    // A PDF name written without escapes: printable ASCII but its delimiters and '#'.
    if (*c > ' ' && *c < 0x7f && std::string_view("()<>[]{}/%#").find(*c) == std::string::npos) {
      out.push_back(*c);
    }
  }
  return out.empty() ? "Font" : out;
}

// What the font dictionaries say of the face: its metrics from 'head', 'hhea', 'OS/2', 'post'.
void ReadMetrics(hb_face_t* face, unsigned upem, FontSubset& font) {
  BlobPtr head_blob, hhea_blob, os2_blob, post_blob;
  const std::string_view head = TableOf(face, HB_TAG('h', 'e', 'a', 'd'), head_blob);
  const std::string_view hhea = TableOf(face, HB_TAG('h', 'h', 'e', 'a'), hhea_blob);
  const std::string_view os2 = TableOf(face, HB_TAG('O', 'S', '/', '2'), os2_blob);
  const std::string_view post = TableOf(face, HB_TAG('p', 'o', 's', 't'), post_blob);
  for (size_t i = 0; i < 4; ++i) font.bbox[i] = ToThousandths(ReadInt16(head, 36 + 2 * i), upem);
  font.ascent = ToThousandths(ReadInt16(hhea, 4), upem);
  font.descent = ToThousandths(ReadInt16(hhea, 6), upem);
  // sCapHeight is in OS/2 version 2 and later.
  font.cap_height = ReadInt16(os2, 0) >= 2 ? ToThousandths(ReadInt16(os2, 88), upem) : font.ascent;
  font.italic_angle = static_cast<int32_t>(ReadUint32(post, 4)) / 65536.0;
  font.fixed_pitch = ReadUint32(post, 12) != 0;
}

std::string SubsetTag(std::string_view program) {
  const std::string hash = Sha256Hex(program);
  std::string tag;
  for (size_t i = 0; i < 6; ++i) {
    tag.push_back(static_cast<char>('A' + std::stoi(hash.substr(2 * i, 2), nullptr, 16) % 26));
  }
  return tag;
}

struct CacheKey {
  hb_face_t* face;
  std::vector<uint32_t> glyphs;  // sorted, unique, printable ASCII's included
  bool operator<(const CacheKey& other) const {
    return std::tie(face, glyphs) < std::tie(other.face, other.glyphs);
  }
};

struct ThreadSubsets {
  // Each key's face is referenced by `faces` while the key is cached, so its address is not
  // reused for another face meanwhile.
  std::map<CacheKey, std::shared_ptr<const FontSubset>> subsets;
  std::vector<FacePtr> faces;
  std::map<hb_face_t*, std::vector<uint32_t>> ascii_glyphs;

  void Clear() {
    subsets.clear();
    ascii_glyphs.clear();
    faces.clear();
  }
};

ThreadSubsets& ThisThreadSubsets() {
  thread_local ThreadSubsets subsets;
  return subsets;
}

const std::vector<uint32_t>& AsciiGlyphs(ThreadSubsets& cache, hb_face_t* face) {
  auto [it, added] = cache.ascii_glyphs.try_emplace(face);
  if (!added) return it->second;
  cache.faces.emplace_back(hb_face_reference(face));
  FontPtr font(hb_font_create(face));
  for (hb_codepoint_t c = kFirstAscii; c <= kLastAscii; ++c) {
    hb_codepoint_t glyph = 0;
    if (hb_font_get_nominal_glyph(font.get(), c, &glyph)) it->second.push_back(glyph);
  }
  return it->second;
}

Result<std::shared_ptr<const FontSubset>> MakeSubset(hb_face_t* face,
                                                     const std::vector<uint32_t>& glyphs) {
  InputPtr input(hb_subset_input_create_or_fail());
  if (!input) return Fail(ErrorCode::kInternal, "cannot start a font subset");
  hb_set_t* glyph_set = hb_subset_input_glyph_set(input.get());
  for (const uint32_t glyph : glyphs) hb_set_add(glyph_set, glyph);
  // A PDF shows glyphs by id: the layout and naming tables are of no use in it.
  hb_set_t* drop = hb_subset_input_set(input.get(), HB_SUBSET_SETS_DROP_TABLE_TAG);
  for (const hb_tag_t tag :
       {HB_TAG('G', 'S', 'U', 'B'), HB_TAG('G', 'P', 'O', 'S'), HB_TAG('G', 'D', 'E', 'F'),
        HB_TAG('k', 'e', 'r', 'n'), HB_TAG('S', 'T', 'A', 'T'), HB_TAG('f', 'v', 'a', 'r'),
        HB_TAG('g', 'v', 'a', 'r'), HB_TAG('H', 'V', 'A', 'R'), HB_TAG('M', 'V', 'A', 'R')}) {
    hb_set_add(drop, tag);
  }
  hb_subset_input_set_flags(input.get(), HB_SUBSET_FLAGS_NO_HINTING);
  PlanPtr plan(hb_subset_plan_create_or_fail(face, input.get()));
  if (!plan) return Fail(ErrorCode::kInternal, "the font cannot be subset");
  FacePtr subset(hb_subset_plan_execute_or_fail(plan.get()));
  if (!subset) return Fail(ErrorCode::kInternal, "the font cannot be subset");
  BlobPtr program(hb_face_reference_blob(subset.get()));
  unsigned length = 0;
  const char* data = hb_blob_get_data(program.get(), &length);
  if (data == nullptr || length == 0) return Fail(ErrorCode::kInternal, "an empty font subset");

  auto font = std::make_shared<FontSubset>();
  font->program_size = length;
  font->compressed_program = ZlibCompress(std::string_view(data, length));
  font->postscript_name = PostScriptName(face);
  font->tag = SubsetTag(font->compressed_program);
  const unsigned upem = std::max(hb_face_get_upem(face), 1u);
  ReadMetrics(face, upem, *font);
  FontPtr metrics(hb_font_create(face));  // scaled to the em: advances in font units
  const hb_map_t* new_to_old = hb_subset_plan_new_to_old_glyph_mapping(plan.get());
  const unsigned count = hb_face_get_glyph_count(subset.get());
  font->widths.resize(count);
  for (uint32_t new_glyph = 0; new_glyph < count; ++new_glyph) {
    const hb_codepoint_t old = hb_map_get(new_to_old, new_glyph);
    if (old == HB_MAP_VALUE_INVALID) continue;
    font->new_glyph.emplace(old, new_glyph);
    font->widths[new_glyph] = ToThousandths(hb_font_get_glyph_h_advance(metrics.get(), old), upem);
  }
  return std::shared_ptr<const FontSubset>(std::move(font));
}

}  // namespace

bool HasTrueTypeOutlines(hb_face_t* face) {
  BlobPtr glyf;
  return !TableOf(face, HB_TAG('g', 'l', 'y', 'f'), glyf).empty();
}

Result<std::shared_ptr<const FontSubset>> SubsetFace(hb_face_t* face,
                                                     const std::vector<uint32_t>& glyphs) {
  if (!HasTrueTypeOutlines(face)) {
    return Fail(ErrorCode::kInternal, "the font has no TrueType outlines");
  }
  ThreadSubsets& cache = ThisThreadSubsets();
  if (cache.subsets.size() >= kSubsetsPerThread) cache.Clear();
  CacheKey key{face, glyphs};
  const std::vector<uint32_t>& ascii = AsciiGlyphs(cache, face);
  key.glyphs.insert(key.glyphs.end(), ascii.begin(), ascii.end());
  key.glyphs.push_back(0);  // .notdef, always
  std::sort(key.glyphs.begin(), key.glyphs.end());
  key.glyphs.erase(std::unique(key.glyphs.begin(), key.glyphs.end()), key.glyphs.end());
  if (auto it = cache.subsets.find(key); it != cache.subsets.end()) return it->second;
  auto made = MakeSubset(face, key.glyphs);
  if (!made) return made;
  cache.subsets.emplace(std::move(key), *made);
  return made;
}

}  // namespace esign::documents
