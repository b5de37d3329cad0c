#include "documents/pdf_renderer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "documents/pdf_layout.h"
#include "pdf_fixtures.h"

namespace esign {
namespace {

using pdf_test::BaseState;
using pdf_test::Contains;
using pdf_test::LoadTemplate;
using pdf_test::PdfFile;
using pdf_test::PreparedServicesState;
using pdf_test::ServicesState;

TEST(PdfLayoutTest, SubstitutesPlaceholdersAndMarksMissingValues) {
  const boost::json::object values = {{"name", "Zoë"}, {"n", 3}, {"ok", true}, {"empty", ""}};
  EXPECT_EQ(SubstitutePlaceholders("Hi {{name}}, {{ n }} {{ok}} [{{empty}}] {{absent}}.", values),
            "Hi Zoë, 3 Yes [________] ________.");
  EXPECT_EQ(SubstitutePlaceholders("broken {{name", values), "broken {{name");
  EXPECT_EQ(DisplayValue(boost::json::value("1250.50")), "1250.50");
  EXPECT_EQ(DisplayValue(boost::json::value(false)), "No");
  EXPECT_EQ(DisplayValue(boost::json::value(nullptr)), "________");
}

TEST(PdfLayoutTest, MetadataDateComesFromTheTimestamp) {
  EXPECT_EQ(PdfMetadataDate("2026-03-14T09:26:53.589Z"), "2026-03-14T09:26:53Z");
  EXPECT_EQ(PdfMetadataDate("yesterday"), "1970-01-01T00:00:00Z");
  EXPECT_EQ(PdfMetadataDate(""), "1970-01-01T00:00:00Z");
}

TEST(PdfRendererTest, ServicesAgreementHasValuesHeadingsUnicodeAndBoxes) {
  const Template tmpl = LoadTemplate("services-agreement.json");
  const ContractState state = ServicesState(tmpl, 3);
  auto pdf = RenderContractPdf(tmpl, tmpl.versions.front(), state);
  ASSERT_TRUE(pdf.has_value()) << pdf.error().message;
  PdfFile file(*pdf);
  const auto check = file.Check();
  EXPECT_EQ(check.exit_code, 0) << check.out;
  const std::string text = file.Text();
  for (const char* expected :
       {"Services for Ñúñez Consulting", "ctr_01JD4T5Y2M8Q", "Professional Services Agreement",
        "1. Services", "6. Governing law", "Zoë Ñúñez", "王小明", "مريم", "48250.50 EUR",
        "Calle Mayor 12", "Milestone number 3", "Payment milestones", "Client signatory",
        "Provider company"}) {
    EXPECT_TRUE(Contains(text, expected)) << expected << "\n" << text;
  }
  // endDate and liabilityCapMultiple are not given: their blanks are printed.
  EXPECT_TRUE(Contains(text, "ends on ________")) << text;
  // The template places the boxes on page 3: the document reaches it.
  const int pages = file.PageCount();
  EXPECT_EQ(pages, 3);
  EXPECT_TRUE(Contains(text, "Page 1 of 3")) << text;
  EXPECT_TRUE(Contains(text, "Page 3 of 3")) << text;
}

// Words of a text, whatever the line breaks between them.
std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

TEST(PdfRendererTest, LigaturesAreOffUnlessAskedForAndTheWordsStayTheSame) {
  const Template tmpl = LoadTemplate("mutual-nda.json");
  ContractState state = BaseState(tmpl, "Mutual NDA");
  state.data.field_values = {{"partyAName", "Acme GmbH"},
                             {"purpose", "Evaluating a joint venture"}};
  auto plain = RenderContractPdf(tmpl, tmpl.versions.front(), state);
  // Contracts frozen with ligatures were written by cairo.
  RenderOptions earlier;
  earlier.ligatures = true;
  earlier.writer = RenderOptions::Writer::kCairo;
  auto ligated = RenderContractPdf(tmpl, tmpl.versions.front(), state, earlier);
  ASSERT_TRUE(plain && ligated);
  EXPECT_NE(*plain, *ligated);
  PdfFile plain_file(*plain);
  PdfFile ligated_file(*ligated);
  EXPECT_EQ(plain_file.Check().exit_code, 0);
  EXPECT_EQ(Words(plain_file.Text()), Words(ligated_file.Text()));
  // With ligatures each font showing 'fi' or 'ff' is embedded a second time for them.
  const auto fonts = [](const PdfFile& file) {
    return pdf_test::Count(pdf_test::Run("pdffonts " + file.path()).out, "NotoSans-");
  };
  EXPECT_EQ(fonts(plain_file), 2u) << pdf_test::Run("pdffonts " + plain_file.path()).out;
  EXPECT_GT(fonts(ligated_file), fonts(plain_file));
  // Rendering with the earlier option again gives the earlier bytes.
  EXPECT_EQ(RenderContractPdf(tmpl, tmpl.versions.front(), state, earlier).value(), *ligated);
}

TEST(PdfRendererTest, EveryExampleTemplateRendersAValidPdf) {
  struct Case {
    std::string file;
    boost::json::object values;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {"employment-offer.json",
       {{"candidateName", "Zoë Ñúñez"},
        {"candidateAddress", "Rue de Rivoli 5, Paris"},
        {"employerName", "Acme GmbH"},
        {"jobTitle", "Staff Engineer"},
        {"department", "Platform"},
        {"reportsTo", "王小明"},
        {"employmentType", "full_time"},
        {"startDate", "2026-06-01"},
        {"weeklyHours", 40},
        {"workLocation", "Berlin"},
        {"remoteAllowed", true},
        {"annualSalary", "98000.00"},
        {"salaryCurrency", "EUR"},
        {"annualLeaveDays", 28},
        {"probationMonths", 6},
        {"offerExpiryDate", "2026-04-30"},
        {"hrContactEmail", "hr@acme.example"}},
       {"Offer of Employment", "Compensation and leave", "Zoë Ñúñez", "Staff Engineer", "98000.00",
        "Hiring manager", "Candidate"}},
      {"mutual-nda.json",
       {{"partyAName", "Ñúñez Holdings S.L."},
        {"partyAAddress", "Calle Mayor 12, Madrid"},
        {"partyBName", "王小明 Trading Co."},
        {"partyBAddress", "88 Nanjing Road, Shanghai"},
        {"effectiveDate", "2026-05-01"},
        {"purpose", "Evaluating a joint venture in logistics software."},
        {"termMonths", 24},
        {"confidentialityYears", 5},
        {"governingLaw", "Switzerland"},
        {"courtsOf", "Zürich"}},
       {"Mutual Non-Disclosure Agreement", "3. Obligations", "Ñúñez Holdings", "王小明", "Zürich",
        "First party signatory", "Second party signatory"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    const Template tmpl = LoadTemplate(c.file);
    ContractState state = BaseState(tmpl, "Contract from " + c.file);
    state.data.field_values = c.values;
    auto pdf = RenderContractPdf(tmpl, tmpl.versions.front(), state);
    ASSERT_TRUE(pdf.has_value()) << pdf.error().message;
    PdfFile file(*pdf);
    const auto check = file.Check();
    EXPECT_EQ(check.exit_code, 0) << check.out;
    const std::string text = file.Text();
    for (const auto& expected : c.expected) {
      EXPECT_TRUE(Contains(text, expected)) << expected << "\n" << text;
    }
    const int pages = file.PageCount();
    EXPECT_GE(pages, 1);
    EXPECT_TRUE(Contains(text, "Page " + std::to_string(pages) + " of " + std::to_string(pages)));
  }
}

TEST(PdfRendererTest, LongTableSpansPagesAndRepeatsItsHeader) {
  const Template tmpl = LoadTemplate("services-agreement.json");
  // maxRows (24) is a write rule; the renderer lays out whatever the data holds.
  const ContractState state = ServicesState(tmpl, 80);
  auto pdf = RenderContractPdf(tmpl, tmpl.versions.front(), state);
  ASSERT_TRUE(pdf.has_value()) << pdf.error().message;
  PdfFile file(*pdf);
  EXPECT_EQ(file.Check().exit_code, 0);
  const auto pages = file.PageTexts();
  ASSERT_GE(file.PageCount(), 3);
  int pages_with_rows = 0;
  int pages_with_header = 0;
  for (const auto& page : pages) {
    if (!Contains(page, "Milestone number")) continue;
    ++pages_with_rows;
    if (Contains(page, "Due date") && Contains(page, "Amount")) ++pages_with_header;
  }
  EXPECT_GE(pages_with_rows, 2);
  EXPECT_EQ(pages_with_header, pages_with_rows);
  EXPECT_TRUE(Contains(file.Text(), "Milestone number 80"));
}

TEST(PdfRendererTest, SameInputGivesSameBytesOnAnyThread) {
  const Template tmpl = LoadTemplate("services-agreement.json");
  const ContractState state = ServicesState(tmpl, 5);
  auto first = RenderContractPdf(tmpl, tmpl.versions.front(), state);
  auto second = RenderContractPdf(tmpl, tmpl.versions.front(), state);
  ASSERT_TRUE(first.has_value() && second.has_value());
  EXPECT_TRUE(*first == *second);
  // The dates are the contract's, never the clock.
  // cairo 1.16 writes the date without the optional "D:" prefix.
  EXPECT_TRUE(Contains(*first, "/CreationDate (20260314092653Z)")) << "no fixed /CreationDate";

  std::vector<std::string> results(2);
  std::vector<std::thread> threads;
  threads.reserve(results.size());
  for (auto& result : results) {
    threads.emplace_back([&] {
      auto pdf = RenderContractPdf(tmpl, tmpl.versions.front(), state);
      if (pdf.has_value()) result = *pdf;
    });
  }
  for (auto& thread : threads) thread.join();
  for (const auto& result : results) EXPECT_TRUE(result == *first);
}

// Template text is shaped once per thread and reused: a document rendered after others of the
// same template has the bytes it has on a thread that renders it first.
TEST(PdfRendererTest, ReusedTemplateTextGivesTheBytesOfAFreshThread) {
  const Template tmpl = LoadTemplate("services-agreement.json");
  const ContractState warm_up = ServicesState(tmpl, 40);
  const ContractState state = ServicesState(tmpl, 7);
  std::string fresh;
  std::thread([&] { fresh = *RenderContractPdf(tmpl, tmpl.versions.front(), state); }).join();
  ASSERT_TRUE(RenderContractPdf(tmpl, tmpl.versions.front(), warm_up).has_value());
  auto reused = RenderContractPdf(tmpl, tmpl.versions.front(), state);
  ASSERT_TRUE(reused.has_value());
  EXPECT_TRUE(*reused == fresh);
}

TEST(PdfRendererTest, PreparedRolesPlaceLabelledBoxes) {
  const Template tmpl = LoadTemplate("services-agreement.json");
  ContractState state = ServicesState(tmpl, 2);
  state.status = ContractStatus::kSent;
  state.prepared_roles = {
      {.template_role_id = "client_signatory",
       .participant_id = "p_client",
       .routing_order = 1,
       .signature_placement = {{.page = 1, .x = 72, .y = 700, .width = 200, .height = 50}}},
      {.template_role_id = "provider_company",
       .participant_id = "p_provider",
       .recipient_type = RecipientType::kOrganization,
       .routing_order = 2,
       .signature_placement = {{.page = 1, .x = 320, .y = 700, .width = 200, .height = 50}}}};
  auto pdf = RenderContractPdf(tmpl, tmpl.versions.front(), state);
  ASSERT_TRUE(pdf.has_value());
  PdfFile file(*pdf);
  EXPECT_EQ(file.Check().exit_code, 0);
  // The boxes follow the prepared placements (page 1), not the template's (page 3).
  EXPECT_EQ(file.PageCount(), 2);
  const auto pages = file.PageTexts();
  ASSERT_FALSE(pages.empty());
  EXPECT_TRUE(Contains(pages[0], "Client signatory")) << pages[0];
  EXPECT_TRUE(Contains(pages[0], "Provider company")) << pages[0];
}

// The example request fills every blank of its template, and the signature boxes close the text
// on the page of its last paragraph, as the signatures block lists them: no page of boxes alone.
TEST(PdfRendererTest, ExampleNdaHasNoBlanksAndSignsBelowItsLastParagraph) {
  const Template tmpl = LoadTemplate("mutual-nda.json");
  ContractState state = BaseState(tmpl, "Mutual NDA: Acme and Globex");
  state.data.field_values = pdf_test::ExampleNdaValues();
  auto pdf = RenderContractPdf(tmpl, tmpl.versions.front(), state);
  ASSERT_TRUE(pdf.has_value()) << pdf.error().message;
  PdfFile file(*pdf);
  const auto pages = file.PageTexts();
  ASSERT_FALSE(pages.empty());
  EXPECT_FALSE(Contains(file.Text(), std::string(kMissingValue))) << file.Text();
  EXPECT_EQ(pages.size(), 1u);
  const std::string& last = pages.back();
  EXPECT_TRUE(Contains(last, "over any dispute arising from it")) << last;
  EXPECT_TRUE(Contains(last, "First party signatory")) << last;
  EXPECT_TRUE(Contains(last, "Second party signatory")) << last;
}

// Sending lays the boxes out just below the last paragraph (signature_keeping.h), and the state
// that records where (as contract.prepared does) renders the very bytes that were frozen.
TEST(PdfRendererTest, SendingKeepsTheSignatureBoxesJustBelowTheLastParagraph) {
  const Template tmpl = LoadTemplate("services-agreement.json");
  const TemplateVersion& version = tmpl.versions.front();
  // The template's boxes are at y 600 on page 3: texts of different lengths end on page 2, high
  // on page 3, or run past them.
  std::vector<ContractState> states;
  for (const int milestones : {1, 2, 8, 24}) {
    ContractState state = PreparedServicesState(tmpl, milestones);
    if (milestones == 1) state.data.field_values["scopeOfServices"] = "Design and support.";
    if (milestones == 24) {
      std::string scope;
      for (int i = 0; i < 30; ++i) scope += "Design, delivery and support of the platform. ";
      state.data.field_values["scopeOfServices"] = scope;
    }
    states.push_back(std::move(state));
  }
  for (ContractState& state : states) {
    SCOPED_TRACE(state.data.table_data.at("paymentMilestones").as_array().size());
    auto sent = RenderContractPdfForSend(tmpl, version, state);
    ASSERT_TRUE(sent.has_value()) << sent.error().message;
    PdfFile file(sent->pdf);
    EXPECT_EQ(file.Check().exit_code, 0);
    ASSERT_EQ(sent->signature_placements.size(), 2u);
    for (auto& role : state.prepared_roles) {
      role.signature_placement = sent->signature_placements.at(role.participant_id);
    }
    EXPECT_TRUE(RenderContractPdf(tmpl, version, state).value() == sent->pdf);

    const int pages = file.PageCount();
    const auto words = file.Words();
    for (const auto& role : state.prepared_roles) {
      ASSERT_EQ(role.signature_placement.size(), 1u);
      const SignaturePlacement& box = role.signature_placement.front();
      EXPECT_EQ(box.page, pages) << role.participant_id;
      // Above the box, the text, its last line just above; in it, its label; below it, only the
      // footer.
      double text_foot = 0;
      for (const auto& word : words) {
        if (word.page != box.page || word.y_min > 761) continue;
        const bool beside = word.x_max <= box.x || word.x_min >= box.x + box.width;
        const bool inside = word.x_min >= box.x && word.x_max <= box.x + box.width &&
                            word.y_min >= box.y && word.y_max <= box.y + box.height;
        EXPECT_TRUE(beside || inside || word.y_max <= box.y + 0.5)
            << word.text << " at " << word.y_min << ", box at " << box.y;
        if (word.y_max <= box.y + 0.5) text_foot = std::max(text_foot, word.y_max);
      }
      EXPECT_GT(text_foot, 0) << "a page of signatures alone";
      EXPECT_LT(box.y - text_foot, 30) << "box at " << box.y << ", text ends at " << text_foot;
    }
  }
}

}  // namespace
}  // namespace esign
