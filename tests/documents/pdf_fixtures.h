// What the PDF tests share: the example templates, a services-agreement contract with Unicode
// data, and the external checkers (qpdf, pdftotext, pdfinfo, pdfsig) run on a temporary file.
#pragma once

#include <string>
#include <vector>

#include <boost/json.hpp>

#include "domain/contract_state.h"
#include "domain/template.h"
#include "tests/support/pdf_words.h"
#include "tests/support/shell.h"

namespace esign::pdf_test {

// An example template from examples/templates, imported.
Template LoadTemplate(const std::string& file);

// The data of examples/requests/create-nda.json, its groups flattened into field values.
boost::json::object ExampleNdaValues();

// Standard output and error, and the exit status.
testing::ShellResult Run(const std::string& command);

// A PDF in a temporary file, removed at the end of the test unless ESIGN_KEEP_PDF is set (to look
// at the pages).
class PdfFile {
 public:
  explicit PdfFile(const std::string& bytes);
  ~PdfFile();
  PdfFile(const PdfFile&) = delete;
  PdfFile& operator=(const PdfFile&) = delete;

  const std::string& path() const { return path_; }
  testing::ShellResult Check() const;  // qpdf --check
  std::string Text() const;            // pdftotext, UTF-8
  std::vector<std::string> PageTexts() const;
  int PageCount() const;
  std::string Signatures() const;  // pdfsig

  std::vector<testing::PdfWord> Words() const;  // pdftotext -bbox

 private:
  std::string path_;
};

Participant Person(std::string id, std::string name, ParticipantAction action);
ContractState BaseState(const Template& tmpl, std::string title);
// services-agreement.json filled in (accents, CJK, Arabic), with `milestones` table rows; the
// client "p_client" (Zoë Ñúñez) and the provider "p_provider" (مريم) sign. Not prepared.
ContractState ServicesState(const Template& tmpl, int milestones);
// The same, prepared: sent, with the template's roles and placements (page 3).
ContractState PreparedServicesState(const Template& tmpl, int milestones);

bool Contains(const std::string& haystack, const std::string& needle);
size_t Count(const std::string& haystack, const std::string& needle);

}  // namespace esign::pdf_test
