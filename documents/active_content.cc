#include "documents/active_content.h"

#include <map>
#include <string_view>
#include <vector>

namespace esign::documents {
namespace {

// Action types that run code or reach outside the document, by the kind reported for them. GoTo,
// Named, SetOCGState, Hide, ResetForm and Thread act within the document and are kept.
const std::map<std::string, std::string, std::less<>>& ActiveActions() {
  static const auto* const kinds = new std::map<std::string, std::string, std::less<>>{
      {"/JavaScript", "javascript"},
      {"/Launch", "launch_action"},
      {"/URI", "uri_action"},
      {"/SubmitForm", "form_submission"},
      {"/ImportData", "form_submission"},
      {"/GoToR", "remote_goto"},
      {"/GoToE", "remote_goto"},
      {"/Rendition", "multimedia"},
      {"/Sound", "multimedia"},
      {"/Movie", "multimedia"},
      {"/RichMediaExecute", "multimedia"},
      {"/GoTo3DView", "multimedia"},
  };
  return *kinds;
}

// Annotation subtypes removed with their page's reference to them.
const std::map<std::string, std::string, std::less<>>& ActiveAnnotations() {
  static const auto* const kinds = new std::map<std::string, std::string, std::less<>>{
      {"/FileAttachment", "embedded_files"},
      {"/RichMedia", "multimedia"},
      {"/Screen", "multimedia"},
      {"/Movie", "multimedia"},
      {"/Sound", "multimedia"},
  };
  return *kinds;
}

// The kind of an active action, or empty for one that stays inside the document.
std::string ActiveKind(QPDFObjectHandle action) {
  if (!action.isDictionary()) return {};
  QPDFObjectHandle type = action.getKey("/S");
  if (!type.isName()) return {};
  auto it = ActiveActions().find(type.getName());
  return it == ActiveActions().end() ? std::string() : it->second;
}

class Walker {
 public:
  explicit Walker(int64_t max_depth) : max_depth_(max_depth) {}

  // False when `object` nests deeper than the limit; checked before anything is removed from it.
  bool WithinDepth(QPDFObjectHandle object, int64_t depth) const {
    if (depth > max_depth_) return false;
    if (object.isArray()) {
      for (const QPDFObjectHandle& item : object.aitems()) {
        if (!item.isIndirect() && !WithinDepth(item, depth + 1)) return false;
      }
    } else if (object.isDictionary() || object.isStream()) {
      QPDFObjectHandle dict = object.isStream() ? object.getDict() : object;
      for (auto [key, value] : dict.ditems()) {
        if (!value.isIndirect() && !WithinDepth(value, depth + 1)) return false;
      }
    }
    return true;
  }

  // Removes the actions of `object` and of the direct objects inside it.
  void Clean(QPDFObjectHandle object) {
    if (object.isArray()) {
      for (const QPDFObjectHandle& item : object.aitems()) {
        if (!item.isIndirect()) Clean(item);
      }
      return;
    }
    if (!object.isDictionary() && !object.isStream()) return;
    QPDFObjectHandle dict = object.isStream() ? object.getDict() : object;
    if (dict.hasKey("/AA")) {
      Note(dict.getKey("/AA"));
      dict.removeKey("/AA");
      removed_.insert("additional_actions");
    }
    for (const char* key : {"/A", "/OpenAction", "/Next"}) {
      if (!dict.hasKey(key)) continue;
      QPDFObjectHandle value = dict.getKey(key);
      // /Next holds one action or an array of them.
      bool active = !ActiveKind(value).empty();
      if (value.isArray()) {
        for (const QPDFObjectHandle& item : value.aitems())
          active = active || !ActiveKind(item).empty();
      }
      if (!active) continue;
      Note(value);
      dict.removeKey(key);
      if (std::string_view(key) == "/OpenAction") removed_.insert("open_action");
    }
    for (auto [key, value] : dict.ditems()) {
      if (!value.isIndirect()) Clean(value);
    }
  }

  // The catalog's name trees of scripts and files, and an XFA form.
  void CleanCatalog(QPDFObjectHandle root) {
    QPDFObjectHandle names = root.getKey("/Names");
    if (names.isDictionary()) {
      if (names.hasKey("/JavaScript")) {
        names.removeKey("/JavaScript");
        removed_.insert("javascript");
      }
      if (names.hasKey("/EmbeddedFiles")) {
        names.removeKey("/EmbeddedFiles");
        removed_.insert("embedded_files");
      }
    }
    QPDFObjectHandle form = root.getKey("/AcroForm");
    if (form.isDictionary() && form.hasKey("/XFA")) {
      form.removeKey("/XFA");
      // Without the XFA the AcroForm is what readers show.
      form.removeKey("/NeedsRendering");
      removed_.insert("xfa");
    }
    if (root.hasKey("/NeedsRendering")) root.removeKey("/NeedsRendering");
  }

  void CleanAnnotations(QPDFObjectHandle page) {
    QPDFObjectHandle annots = page.getKey("/Annots");
    if (!annots.isArray()) return;
    std::vector<QPDFObjectHandle> kept;
    bool dropped = false;
    for (QPDFObjectHandle annot : annots.aitems()) {
      QPDFObjectHandle subtype = annot.isDictionary() ? annot.getKey("/Subtype") : annot;
      auto it = subtype.isName() ? ActiveAnnotations().find(subtype.getName())
                                 : ActiveAnnotations().end();
      if (it == ActiveAnnotations().end()) {
        kept.push_back(annot);
        continue;
      }
      removed_.insert(it->second);
      dropped = true;
    }
    if (!dropped) return;
    // The array may be shared between pages: each page gets its own.
    page.replaceKey("/Annots", QPDFObjectHandle::newArray(kept));
  }

  std::set<std::string> removed() const { return removed_; }

 private:
  // Records the kinds of the actions being removed, following /Next and the entries of /AA. Each
  // indirect object is looked into once in the whole walk: actions that refer to each other would
  // otherwise be followed along every path, exponentially many within the depth limit.
  void Note(QPDFObjectHandle actions, int64_t depth = 0) {
    if (depth > max_depth_) return;
    if (actions.isIndirect() && !noted_.insert(actions.getObjGen()).second) return;
    if (actions.isArray()) {
      for (const QPDFObjectHandle& item : actions.aitems()) Note(item, depth + 1);
      return;
    }
    if (!actions.isDictionary()) return;
    if (std::string kind = ActiveKind(actions); !kind.empty()) removed_.insert(kind);
    // An /AA dictionary maps events to actions.
    if (!actions.hasKey("/S")) {
      for (auto [key, value] : actions.ditems()) {
        if (key != "/Next") Note(value, depth + 1);
      }
    }
    if (actions.hasKey("/Next")) Note(actions.getKey("/Next"), depth + 1);
  }

  int64_t max_depth_;
  std::set<std::string> removed_;
  std::set<QPDFObjGen> noted_;
};

}  // namespace

Result<std::set<std::string>> RemoveActiveContent(QPDF& pdf, int64_t max_depth) {
  Walker walker(max_depth);
  std::vector<QPDFObjectHandle> objects = pdf.getAllObjects();
  for (const QPDFObjectHandle& object : objects) {
    if (!walker.WithinDepth(object, 0)) {
      return Fail(ErrorCode::kDocumentLimitExceeded,
                  "object " + std::to_string(object.getObjectID()) +
                      " nests arrays and dictionaries deeper than " + std::to_string(max_depth) +
                      " levels");
    }
  }
  if (!walker.WithinDepth(pdf.getTrailer(), 0)) {
    return Fail(ErrorCode::kDocumentLimitExceeded,
                "the trailer nests deeper than " + std::to_string(max_depth) + " levels");
  }
  for (const QPDFObjectHandle& object : objects) walker.Clean(object);
  walker.CleanCatalog(pdf.getRoot());
  for (const QPDFObjectHandle& page : pdf.getAllPages()) walker.CleanAnnotations(page);
  return walker.removed();
}

}  // namespace esign::documents
