// QPDF's C++ API, for the files that need more than the C API of qpdf_reader.h (the upload check:
// stream pipelines, form helpers, QPDFWriter). Include it instead of any <qpdf/*.hh> header.
//
// clang before 17 cannot compile QPDF 11's JSON.hh in C++23 with libstdc++ 12: it instantiates
// std::vector<JSON>'s constexpr destructor while JSON is still incomplete. Nothing of ours uses
// QPDF's JSON, and the other QPDF headers only name it in declarations, so under such a clang
// (the fuzz build) the class is declared and its header left out.
#pragma once

#if defined(__clang__) && __clang_major__ < 17
#include <qpdf/DLL.h>
#include <qpdf/Types.h>
#include <qpdf/PointerHolder.hh>

#include <functional>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>
#define JSON_HH
class JSON;
#endif

#include <qpdf/Buffer.hh>
#include <qpdf/Pipeline.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFAcroFormDocumentHelper.hh>
#include <qpdf/QPDFExc.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFWriter.hh>
