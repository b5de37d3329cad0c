// The font programs of the PDFs PdfWriter writes (pdf_writer.h): a subset of one face made by
// HarfBuzz's subsetter, its glyphs renumbered from 1 in the order of their old ids (0 stays
// .notdef), with what the PDF's font dictionaries say of it (metrics in 1000ths of an em).
//
// Only faces with TrueType outlines ('glyf') are subset here; a CFF face (Noto Sans CJK) is not,
// and the caller renders such a document another way.
//
// Subsets are cached per thread (at most kSubsetsPerThread, then the cache starts afresh): the
// subset of a face always holds the glyphs of printable ASCII besides those asked for, so every
// Latin document of a template asks for the same few glyph sets and finds its subset made, with
// its program already compressed.
//
// Internal to documents/ (includes HarfBuzz).
// Thread safety: call from any thread; a subset is immutable once made.
#pragma once

#include <hb.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "documents/cairo_handles.h"
#include "domain/result.h"

namespace esign::documents {

// A HarfBuzz face, referenced (FreeWith: cairo_handles.h).
using FacePtr = std::unique_ptr<hb_face_t, FreeWith<hb_face_destroy>>;

inline constexpr size_t kSubsetsPerThread = 64;

struct FontSubset {
  std::string compressed_program;  // the subset font file, zlib-compressed (FlateDecode)
  size_t program_size = 0;         // its size before compression (/Length1)
  std::string postscript_name;     // the face's, with characters PDF names cannot hold dropped
  std::string tag;  // six capital letters, from what the subset holds: "ABCDEF+" in its name
  std::unordered_map<uint32_t, uint32_t> new_glyph;  // old glyph id -> glyph id in the subset
  std::vector<int> widths;     // advance of each new glyph id, in 1000ths of an em
  int bbox[4] = {0, 0, 0, 0};  // the face's bounding box (xMin, yMin, xMax, yMax)
  int ascent = 0;
  int descent = 0;
  int cap_height = 0;
  double italic_angle = 0;
  bool fixed_pitch = false;
};

// Whether `face` has TrueType outlines, which SubsetFace needs.
bool HasTrueTypeOutlines(hb_face_t* face);

// The subset of `face` holding `glyphs` (old ids, any order, duplicates allowed) and printable
// ASCII. kInternal when the face has no TrueType outlines or HarfBuzz cannot subset it.
Result<std::shared_ptr<const FontSubset>> SubsetFace(hb_face_t* face,
                                                     const std::vector<uint32_t>& glyphs);

}  // namespace esign::documents
