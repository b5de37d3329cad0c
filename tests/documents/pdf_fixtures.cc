#include "pdf_fixtures.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "domain/template_importer.h"

namespace esign::pdf_test {

Template LoadTemplate(const std::string& file) {
  std::ifstream in(std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/" + file);
  std::stringstream text;
  text << in.rdbuf();
  auto imported = ImportTemplateText(text.str());
  EXPECT_TRUE(imported.has_value()) << file;
  return imported.value_or(Template{});
}

boost::json::object ExampleNdaValues() {
  std::ifstream in(std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/../requests/create-nda.json");
  std::stringstream text;
  text << in.rdbuf();
  const boost::json::value request = boost::json::parse(text.str());
  boost::json::object values;
  for (const auto& [group, fields] : request.at("data").as_object()) {
    for (const auto& [key, value] : fields.as_object()) values[key] = value;
  }
  return values;
}

testing::ShellResult Run(const std::string& command) {
  return testing::RunShell(command + " 2>&1");
}

PdfFile::PdfFile(const std::string& bytes) {
  static int counter = 0;
  path_ = (std::filesystem::temp_directory_path() /
           ("esign_render_" + std::to_string(getpid()) + "_" + std::to_string(counter++) + ".pdf"))
              .string();
  std::ofstream(path_, std::ios::binary) << bytes;
}

PdfFile::~PdfFile() {
  if (std::getenv("ESIGN_KEEP_PDF") == nullptr) std::filesystem::remove(path_);
}

testing::ShellResult PdfFile::Check() const { return Run("qpdf --check '" + path_ + "'"); }

std::string PdfFile::Text() const { return Run("pdftotext -enc UTF-8 '" + path_ + "' -").out; }

// pdftotext separates pages with a form feed.
std::vector<std::string> PdfFile::PageTexts() const {
  std::vector<std::string> pages;
  std::stringstream all(Text());
  std::string page;
  while (std::getline(all, page, '\f')) pages.push_back(page);
  if (!pages.empty() && pages.back().find_first_not_of(" \n") == std::string::npos) {
    pages.pop_back();
  }
  return pages;
}

std::vector<testing::PdfWord> PdfFile::Words() const { return testing::PdfWords(path_); }

int PdfFile::PageCount() const {
  const std::string info = Run("pdfinfo '" + path_ + "'").out;
  const auto at = info.find("Pages:");
  return at == std::string::npos ? -1 : std::stoi(info.substr(at + 6));
}

std::string PdfFile::Signatures() const { return Run("pdfsig '" + path_ + "'").out; }

Participant Person(std::string id, std::string name, ParticipantAction action) {
  Participant p;
  p.participant_id = std::move(id);
  p.name = std::move(name);
  p.action = action;
  p.email = p.participant_id + "@example.com";
  return p;
}

ContractState BaseState(const Template& tmpl, std::string title) {
  ContractState state;
  state.id = "ctr_01JD4T5Y2M8Q";
  state.version = 3;
  state.title = std::move(title);
  state.template_id = tmpl.template_id;
  state.template_version_id = tmpl.versions.front().template_version_id;
  state.organization_id = "org_acme";
  state.created_at = "2026-03-14T09:26:53.589Z";
  state.updated_at = state.created_at;
  return state;
}

namespace {

boost::json::array Milestones(int count) {
  boost::json::array rows;
  for (int i = 1; i <= count; ++i) {
    rows.push_back(boost::json::object{{"description", "Milestone number " + std::to_string(i)},
                                       {"dueDate", "2026-05-01"},
                                       {"amount", std::to_string(i * 100) + ".00"}});
  }
  return rows;
}

}  // namespace

ContractState ServicesState(const Template& tmpl, int milestones) {
  ContractState state = BaseState(tmpl, "Services for Ñúñez Consulting");
  state.data.field_values = {
      {"clientName", "Zoë Ñúñez"},
      {"clientAddress", "Calle Mayor 12, 28013 Madrid"},
      {"providerName", "王小明 Consulting Ltd"},
      {"providerRegistrationNumber", "HRB 123456"},
      {"billingEmail", "billing@example.com"},
      {"effectiveDate", "2026-04-01"},
      {"scopeOfServices", "Design and delivery of the onboarding platform, including support."},
      {"currency", "EUR"},
      {"totalFee", "48250.50"},
      {"paymentTermsDays", 30},
      {"governingLaw", "Spain"}};
  state.data.table_data = {{"paymentMilestones", Milestones(milestones)}};
  state.participants = {Person("p_client", "Zoë Ñúñez", ParticipantAction::kSign),
                        Person("p_provider", "مريم", ParticipantAction::kSign)};
  state.role_bindings = {{"client_signatory", "p_client"}, {"provider_company", "p_provider"}};
  return state;
}

ContractState PreparedServicesState(const Template& tmpl, int milestones) {
  ContractState state = ServicesState(tmpl, milestones);
  state.status = ContractStatus::kSent;
  for (const auto& binding : state.role_bindings) {
    const RoleDef* role = tmpl.versions.front().FindRole(binding.template_role_id);
    state.prepared_roles.push_back({.template_role_id = role->template_role_id,
                                    .participant_id = binding.participant_id,
                                    .action = role->action,
                                    .recipient_type = role->recipient_type,
                                    .routing_order = role->routing_order,
                                    .signature_placement = role->signature_placement});
  }
  return state;
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

size_t Count(const std::string& haystack, const std::string& needle) {
  size_t count = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

}  // namespace esign::pdf_test
