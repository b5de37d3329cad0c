#include "documents/contract_sealer.h"

#include <cairo.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "documents/pdf_renderer.h"
#include "pdf_fixtures.h"

namespace esign::documents {
namespace {

using pdf_test::Contains;
using pdf_test::LoadTemplate;
using pdf_test::PdfFile;
using pdf_test::ServicesState;

constexpr int kImageWidth = 240;
constexpr int kImageHeight = 80;

cairo_status_t AppendPng(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

// A handwritten-looking stroke on a transparent background, as a signature pad would send.
std::string SignaturePng() {
  cairo_surface_t* surface =
      cairo_image_surface_create(CAIRO_FORMAT_ARGB32, kImageWidth, kImageHeight);
  cairo_t* cr = cairo_create(surface);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.5);
  cairo_set_line_width(cr, 4);
  cairo_move_to(cr, 10, 60);
  for (int x = 10; x < kImageWidth - 10; x += 10) {
    cairo_line_to(cr, x, 40 + 25 * std::sin(x / 15.0));
  }
  cairo_stroke(cr);
  cairo_destroy(cr);
  std::string png;
  cairo_surface_write_to_png_stream(surface, AppendPng, &png);
  cairo_surface_destroy(surface);
  return png;
}

// The services agreement with both signing roles prepared on the template's placements (page 3).
ContractState PreparedState(const Template& tmpl) {
  ContractState state = ServicesState(tmpl, 3);
  state.status = ContractStatus::kCompleted;
  state.participants[0].name = "Zoë Ñúñez 王小明";
  for (const auto& binding : state.role_bindings) {
    const RoleDef* role = tmpl.versions.front().FindRole(binding.template_role_id);
    state.prepared_roles.push_back({.template_role_id = binding.template_role_id,
                                    .participant_id = binding.participant_id,
                                    .routing_order = role->routing_order,
                                    .signature_placement = role->signature_placement});
  }
  return state;
}

std::vector<SignatureAppearance> TwoSignatures() {
  return {{.participant_id = "p_client",
           .signer_name = "Zoë Ñúñez 王小明",
           .signature_text = "Zoë Ñúñez 王小明",
           .signed_at = "2026-11-21T10:04:33.120Z"},
          {.participant_id = "p_provider",
           .signer_name = "مريم حداد",
           .signed_at = "2026-11-21T10:09:02Z",
           .image_png = SignaturePng()}};
}

SealOptions Options() {
  return {.signing_time = std::chrono::sys_days{std::chrono::November / 21 / 2026} +
                          std::chrono::hours(10) + std::chrono::minutes(12)};
}

// [0 a b c] of the last /ByteRange: everything but the /Contents hex string is signed.
std::vector<size_t> ByteRange(const std::string& pdf) {
  const size_t at = pdf.rfind("/ByteRange [");
  if (at == std::string::npos) return {};
  std::vector<size_t> values(4);
  std::sscanf(pdf.c_str() + at, "/ByteRange [%zu %zu %zu %zu", &values[0], &values[1], &values[2],
              &values[3]);
  return values;
}

class ContractSealerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto cert = ServiceCertificate::CreateEphemeral();
    ASSERT_TRUE(cert.has_value()) << cert.error().message;
    cert_ = std::move(*cert);
  }

  Result<std::string> Seal(const ContractState& state,
                           const std::vector<SignatureAppearance>& appearances) {
    auto sealed =
        SealContractPdf(tmpl_, tmpl_.versions.front(), state, appearances, *cert_, Options());
    if (!sealed) return std::unexpected(std::move(sealed.error()));
    EXPECT_EQ(sealed->signed_content_size,
              RenderSignedContractPdf(tmpl_, tmpl_.versions.front(), state, appearances)->size());
    return std::move(sealed->pdf);
  }

  Template tmpl_ = LoadTemplate("services-agreement.json");
  std::unique_ptr<ServiceCertificate> cert_;
};

TEST(SignatureCaptionTest, PrintsTheMinuteInUtcOrTheTimeAsGiven) {
  EXPECT_EQ(SignatureCaption("Ana Souza", "2026-11-21T10:04:59.999Z"),
            "Signed by \u2068Ana Souza\u2069 \u00b7 2026-11-21 10:04 UTC");
  EXPECT_EQ(SignatureCaption("Ana", "2026-11-21t10:04:00+00:00"),
            "Signed by \u2068Ana\u2069 \u00b7 2026-11-21 10:04 UTC");
  EXPECT_EQ(SignatureCaption("Ana", "2026-11-21T10:04:00+02:00"),
            "Signed by \u2068Ana\u2069 \u00b7 2026-11-21T10:04:00+02:00");
  EXPECT_EQ(SignatureCaption("Ana", "yesterday"), "Signed by \u2068Ana\u2069 \u00b7 yesterday");
  EXPECT_EQ(SignatureCaption("Ana", ""), "Signed by \u2068Ana\u2069");
}

TEST_F(ContractSealerTest, SealedPdfIsValidSignedAndShowsBothSignaturesOnTheirPage) {
  const ContractState state = PreparedState(tmpl_);
  auto sealed = Seal(state, TwoSignatures());
  ASSERT_TRUE(sealed.has_value()) << sealed.error().message;
  PdfFile file(*sealed);

  const auto check = file.Check();
  EXPECT_EQ(check.exit_code, 0) << check.out;
  EXPECT_TRUE(Contains(check.out, "No syntax or stream encoding errors")) << check.out;
  const std::string sig = file.Signatures();
  EXPECT_TRUE(Contains(sig, "Signature Validation: Signature is Valid.")) << sig;
  EXPECT_TRUE(Contains(sig, "Total document signed")) << sig;
  EXPECT_FALSE(Contains(sig, "Not total document signed")) << sig;
  EXPECT_TRUE(Contains(*sealed, "/Reason (Contract executed)"));
  EXPECT_TRUE(Contains(*sealed, "/M (D:20261121101200Z)"));

  // Same pages as the unsigned PDF; both signatures on page 3, where the template places them.
  auto unsigned_pdf = RenderContractPdf(tmpl_, tmpl_.versions.front(), state);
  ASSERT_TRUE(unsigned_pdf.has_value());
  EXPECT_EQ(file.PageCount(), PdfFile(*unsigned_pdf).PageCount());
  const auto pages = file.PageTexts();
  ASSERT_EQ(pages.size(), 3u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_FALSE(Contains(pages[i], "Signed by")) << pages[i];
  }
  EXPECT_TRUE(Contains(pages[2], "Zoë Ñúñez 王小明")) << pages[2];
  EXPECT_TRUE(Contains(pages[2], "Signed by Zoë Ñúñez 王小明 \u00b7 2026-11-21 10:04 UTC"))
      << pages[2];
  // pdftotext spells right-to-left text in its own way; the time after the name keeps its order.
  EXPECT_EQ(pdf_test::Count(pages[2], "Signed by"), 2u) << pages[2];
  EXPECT_TRUE(Contains(pages[2], "2026-11-21 10:09 UTC")) << pages[2];
  // The filled boxes no longer carry the role label of the empty box.
  EXPECT_FALSE(Contains(PdfFile(*unsigned_pdf).PageTexts()[2], "Signed by"));

  // The PNG is embedded once, on page 3, at its own size.
  const auto images = pdf_test::Run("pdfimages -list '" + file.path() + "'");
  ASSERT_EQ(images.exit_code, 0) << images.out;
  EXPECT_TRUE(Contains(images.out, "   3     0 image     240    80")) << images.out;
}

TEST_F(ContractSealerTest, SameInputGivesTheSameBytesButTheSignatureValue) {
  const ContractState state = PreparedState(tmpl_);
  auto first = Seal(state, TwoSignatures());
  auto second = Seal(state, TwoSignatures());
  ASSERT_TRUE(first.has_value() && second.has_value());
  ASSERT_EQ(first->size(), second->size());
  const auto range = ByteRange(*first);
  ASSERT_EQ(range.size(), 4u);
  ASSERT_EQ(range, ByteRange(*second));
  // ECDSA draws a fresh nonce, so only the /Contents hex string may differ.
  EXPECT_TRUE(first->compare(0, range[1], *second, 0, range[1]) == 0);
  EXPECT_TRUE(first->compare(range[2], range[3], *second, range[2], range[3]) == 0);
  EXPECT_EQ(range[2] + range[3], first->size());

  // The signed part starts with the rendered page content, itself deterministic.
  auto rendered = RenderSignedContractPdf(tmpl_, tmpl_.versions.front(), state, TwoSignatures());
  ASSERT_TRUE(rendered.has_value());
  EXPECT_TRUE(first->compare(0, rendered->size(), *rendered) == 0);

  // Also from another thread (its own font map, its own decoded image).
  std::string on_thread;
  std::thread([&] {
    auto pdf = RenderSignedContractPdf(tmpl_, tmpl_.versions.front(), state, TwoSignatures());
    if (pdf.has_value()) on_thread = *pdf;
  }).join();
  EXPECT_TRUE(on_thread == *rendered);
}

TEST_F(ContractSealerTest, WithoutAppearancesTheRenderIsTheUnsignedPdf) {
  const ContractState state = PreparedState(tmpl_);
  auto plain = RenderContractPdf(tmpl_, tmpl_.versions.front(), state);
  auto none = RenderSignedContractPdf(tmpl_, tmpl_.versions.front(), state, {});
  ASSERT_TRUE(plain.has_value() && none.has_value());
  EXPECT_TRUE(*plain == *none);

  // One signer only: the other keeps the labelled empty box.
  auto one =
      RenderSignedContractPdf(tmpl_, tmpl_.versions.front(), state, {TwoSignatures().front()});
  ASSERT_TRUE(one.has_value());
  const auto pages = PdfFile(*one).PageTexts();
  ASSERT_EQ(pages.size(), 3u);
  EXPECT_TRUE(Contains(pages[2], "Signed by Zoë")) << pages[2];
  EXPECT_EQ(pdf_test::Count(pages[2], "Signed by"), 1u) << pages[2];
  EXPECT_TRUE(Contains(pages[2], "Provider company \u2014")) << pages[2];
}

TEST_F(ContractSealerTest, RefusesAnUnknownParticipantATwiceSignedRoleAndANonPngImage) {
  const ContractState state = PreparedState(tmpl_);
  const auto refused = [&](const std::vector<SignatureAppearance>& appearances) {
    auto result = Seal(state, appearances);
    EXPECT_FALSE(result.has_value());
    return result.has_value() ? ErrorCode::kInternal : result.error().code;
  };
  auto appearances = TwoSignatures();
  appearances[0].participant_id = "p_stranger";
  EXPECT_EQ(refused(appearances), ErrorCode::kValidationFailed);

  // Bound but never prepared (a draft contract has no prepared roles).
  ContractState draft = state;
  draft.prepared_roles.clear();
  auto draft_result = Seal(draft, TwoSignatures());
  ASSERT_FALSE(draft_result.has_value());
  EXPECT_EQ(draft_result.error().code, ErrorCode::kValidationFailed);

  appearances = TwoSignatures();
  appearances[1].participant_id = "p_client";
  EXPECT_EQ(refused(appearances), ErrorCode::kValidationFailed);

  appearances = TwoSignatures();
  appearances[1].image_png = "GIF89a, not a PNG";
  EXPECT_EQ(refused(appearances), ErrorCode::kValidationFailed);

  // A PNG header over a truncated body: cairo cannot read it.
  appearances = TwoSignatures();
  appearances[1].image_png.resize(appearances[1].image_png.size() / 2);
  EXPECT_EQ(refused(appearances), ErrorCode::kValidationFailed);

  // Nothing to draw.
  appearances = TwoSignatures();
  appearances[0].signature_text.clear();
  appearances[0].signer_name.clear();
  EXPECT_EQ(refused(appearances), ErrorCode::kValidationFailed);
}

}  // namespace
}  // namespace esign::documents
