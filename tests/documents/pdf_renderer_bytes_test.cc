// The contract's pages are pinned to the byte. A contract's unsigned PDF is frozen (its SHA-256
// recorded in contract.prepared) when it is sent, and its seal re-renders the same pages with the
// signatures drawn in (ContractDocuments::FrozenLayout): a renderer that lays out one byte
// differently for the same input breaks every contract sent before the change. These SHA-256s
// were taken before the contract renderer and the certificate pages were moved onto one page
// layout engine (documents/page_layout.h), and must not move with any refactoring.
//
// Both writers are pinned: cairo's (RenderOptions::Writer::kCairo), which froze every contract
// sent before 2026-11-29 and still writes a document whose text needs a CFF face (the services
// agreement's CJK values), and our own (documents/pdf_writer.h), which freezes the others since.
//
// When one fails: a change to layout, drawing or text shaping is a change of the document, and
// must come with a way to lay out contracts frozen before it exactly as they were (as
// RenderOptions::ligatures and RenderOptions::writer do). A new cairo, pango or font package can
// move them too: check that frozen contracts still reproduce (ContractDocumentsTest), then update
// the hashes below with the values this test prints, in a commit that says why.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "base/sha256.h"
#include "documents/pdf_renderer.h"
#include "pdf_fixtures.h"

namespace esign {
namespace {

using pdf_test::LoadTemplate;

constexpr RenderOptions::Writer kCairo = RenderOptions::Writer::kCairo;
const RenderOptions kByCairo{.writer = kCairo};

std::string RenderedSha256(const Template& tmpl, const ContractState& state,
                           const RenderOptions& options = {}) {
  auto pdf = RenderContractPdf(tmpl, tmpl.versions.front(), state, options);
  EXPECT_TRUE(pdf.has_value()) << pdf.error().message;
  return pdf ? Sha256Hex(*pdf) : std::string();
}

TEST(PdfRendererBytesTest, MutualNdaFromTheExampleRequest) {
  Template tmpl = LoadTemplate("mutual-nda.json");
  // As the example template and request were when these were taken: the signature boxes on page
  // 2 (now on page 1, under the text) and no courtsOf (now given).
  for (RoleDef& role : tmpl.versions.front().roles) {
    for (SignaturePlacement& box : role.signature_placement) {
      box.page = 2;
      box.y = 560;
    }
  }
  ContractState state = pdf_test::BaseState(tmpl, "Contract from mutual-nda.json");
  state.data.field_values = pdf_test::ExampleNdaValues();
  state.data.field_values.erase("courtsOf");
  EXPECT_EQ(RenderedSha256(tmpl, state, kByCairo),
            "fbd482946ced98a1958f07000c69af13101b9426e7fa9d9fd1bdf2a042aceb5d");
  // Contracts frozen before ligatures were turned off are sealed with them on.
  EXPECT_EQ(RenderedSha256(tmpl, state, {.ligatures = true, .writer = kCairo}),
            "ddeacd828c6c7144487de830b2d9d73856035da3012b9ab710186d04661d2681");
  EXPECT_EQ(RenderedSha256(tmpl, state),
            "8ca509adbb9ca9d3f99bbad00fa24fec46028afa28566bd2e499468ad1c8b4ab");
}

TEST(PdfRendererBytesTest, ServicesAgreementWithATableAcrossPages) {
  const Template tmpl = LoadTemplate("services-agreement.json");
  // Its CJK values need Noto Sans CJK, a CFF face: cairo writes it, asked or not.
  for (const RenderOptions& options : {kByCairo, RenderOptions{}}) {
    EXPECT_EQ(RenderedSha256(tmpl, pdf_test::ServicesState(tmpl, 3), options),
              "4929b22e3d2e23f0f6959db41926728c0a2374fb406d61244114ff74f019f9e1");
    // 80 rows: the milestone table continues on later pages under its repeated header.
    EXPECT_EQ(RenderedSha256(tmpl, pdf_test::ServicesState(tmpl, 80), options),
              "070bf1f9c248a5e976a1e0c69c78c3fb5600ea90e435a2acd3bcfc42479ccce3");
  }
}

TEST(PdfRendererBytesTest, EmploymentOfferWithNoData) {
  const Template tmpl = LoadTemplate("employment-offer.json");
  const ContractState state = pdf_test::BaseState(tmpl, "Contract from employment-offer.json");
  EXPECT_EQ(RenderedSha256(tmpl, state, kByCairo),
            "c3f45c47ae9d5e279653ffded7f805b5427b83212621e3b2f40c2f55b6894537");
  EXPECT_EQ(RenderedSha256(tmpl, state),
            "db965285e6491988e51bff192a28d619c7517672f0c7a1a4b197cc86d21a6a02");
}

}  // namespace
}  // namespace esign
