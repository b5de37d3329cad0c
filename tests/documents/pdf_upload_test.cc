#include "documents/pdf_upload.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "documents/qpdf_cxx.h"
#include "tests/documents/pdf_test_support.h"

namespace esign::documents {
namespace {

bool Has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

void ExpectBox(const PageRect& box, const PageRect& expected) {
  EXPECT_EQ(box.page, expected.page);
  EXPECT_DOUBLE_EQ(box.x, expected.x);
  EXPECT_DOUBLE_EQ(box.y, expected.y);
  EXPECT_DOUBLE_EQ(box.width, expected.width);
  EXPECT_DOUBLE_EQ(box.height, expected.height);
}

// One page of Letter size whose page dictionary adds `page_entries`, with `more` objects from 5 on
// (object 4 is the page's content).
std::string OnePage(const std::string& page_entries, std::vector<std::string> more = {},
                    const std::string& catalog_entries = "") {
  std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R " + catalog_entries + ">>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R " + page_entries + ">>",
      StreamObject("0 0 m 10 10 l S"),
  };
  objects.insert(objects.end(), more.begin(), more.end());
  return WritePdf(objects);
}

// A zlib stream of `size` zero bytes built without compressing them all: one fully flushed deflate
// block of a mebibyte of zeros, repeated, then an empty last block and the checksum.
std::string DeflateBomb(uint64_t size) {
  const uint64_t chunk = 1 << 20;
  std::string zeros(chunk, '\0');
  std::string block(4096, '\0');
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY);
  z.next_in = reinterpret_cast<Bytef*>(zeros.data());
  z.avail_in = chunk;
  z.next_out = reinterpret_cast<Bytef*>(block.data());
  z.avail_out = block.size();
  deflate(&z, Z_FULL_FLUSH);
  block.resize(block.size() - z.avail_out);
  std::string tail(64, '\0');
  z.next_out = reinterpret_cast<Bytef*>(tail.data());
  z.avail_out = tail.size();
  deflate(&z, Z_FINISH);
  tail.resize(tail.size() - z.avail_out);
  deflateEnd(&z);
  std::string out = "\x78\xDA";
  uLong adler = adler32(0, nullptr, 0);
  for (uint64_t i = 0; i < size / chunk; ++i) {
    out += block;
    adler = adler32(adler, reinterpret_cast<const Bytef*>(zeros.data()), chunk);
  }
  out += tail;
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((adler >> shift) & 0xFF);
  return out;
}

// A page whose content is a deflate bomb of `size` bytes.
std::string BombPdf(uint64_t size) {
  std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
      StreamObject(DeflateBomb(size), "/Filter /FlateDecode "),
  };
  return WritePdf(objects);
}

// One page, and an object stream of `count` objects listed in a cross-reference stream, whose
// /Size tells the truth or, with `lie`, claims 6 objects while its /Index lists them all.
std::string MillionObjectsPdf(int count, bool lie = false) {
  std::string pdf = "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n";
  std::vector<size_t> offsets;
  auto add = [&](const std::string& body) {
    offsets.push_back(pdf.size());
    pdf += std::to_string(offsets.size()) + " 0 obj\n" + body + "\nendobj\n";
  };
  add("<< /Type /Catalog /Pages 2 0 R >>");
  add("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  add("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>");
  // Objects 5 .. count+4, each the integer 0, in object stream 4.
  std::string header;
  std::string body;
  for (int i = 0; i < count; ++i) {
    header += std::to_string(5 + i) + " " + std::to_string(body.size()) + " ";
    body += "0 ";
  }
  std::string data = header + body;
  uLongf packed_size = compressBound(data.size());
  std::string packed(packed_size, '\0');
  compress(reinterpret_cast<Bytef*>(packed.data()), &packed_size,
           reinterpret_cast<const Bytef*>(data.data()), data.size());
  packed.resize(packed_size);
  add(StreamObject(packed, "/Type /ObjStm /N " + std::to_string(count) + " /First " +
                               std::to_string(header.size()) + " /Filter /FlateDecode "));
  const int xref_number = count + 5;
  std::string xref;
  auto entry = [&](int type, uint32_t field2, uint32_t field3) {
    xref += static_cast<char>(type);
    for (int shift = 24; shift >= 0; shift -= 8)
      xref += static_cast<char>((field2 >> shift) & 0xFF);
    for (int shift = 8; shift >= 0; shift -= 8) xref += static_cast<char>((field3 >> shift) & 0xFF);
  };
  entry(0, 0, 0xFFFF);
  for (const size_t offset : offsets) entry(1, static_cast<uint32_t>(offset), 0);
  for (int i = 0; i < count; ++i) entry(2, 4, static_cast<uint32_t>(i));
  const size_t xref_offset = pdf.size();
  entry(1, static_cast<uint32_t>(xref_offset), 0);
  packed_size = compressBound(xref.size());
  packed.assign(packed_size, '\0');
  compress(reinterpret_cast<Bytef*>(packed.data()), &packed_size,
           reinterpret_cast<const Bytef*>(xref.data()), xref.size());
  packed.resize(packed_size);
  pdf += std::to_string(xref_number) + " 0 obj\n" +
         StreamObject(packed, "/Type /XRef /Size " + std::to_string(lie ? 6 : xref_number + 1) +
                                  " /Index [0 " + std::to_string(xref_number + 1) +
                                  "] /W [1 4 2] /Root 1 0 R /Filter /FlateDecode ") +
         "\nendobj\nstartxref\n" + std::to_string(xref_offset) + "\n%%EOF\n";
  return pdf;
}

// `pdf` rewritten by QPDF with 256-bit AES, opened with `user` (empty: no password to open).
std::string Encrypted(const std::string& pdf, const std::string& user) {
  QPDF qpdf;
  qpdf.processMemoryFile("plain", pdf.data(), pdf.size());
  QPDFWriter writer(qpdf);
  writer.setOutputMemory();
  writer.setR6EncryptionParameters(user.c_str(), "owner", true, false, true, true, true, true,
                                   qpdf_r3p_full, true);
  writer.write();
  auto buffer = writer.getBufferSharedPointer();
  return std::string(reinterpret_cast<const char*>(buffer->getBuffer()), buffer->getSize());
}

// InspectUpload in a forked child whose address space is capped at its size when it starts plus
// `headroom` bytes: the child's exit status is 0 when the call returned `expected`, 1 when it
// returned something else; a child killed by running out of memory fails the test.
void ExpectWithinMemory(const std::string& pdf, uint64_t headroom, ErrorCode expected) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::ifstream status("/proc/self/status");
    std::string line;
    uint64_t vm_kib = 0;
    while (std::getline(status, line)) {
      if (line.starts_with("VmSize:")) vm_kib = std::stoull(line.substr(7));
    }
    const rlim_t cap = vm_kib * 1024 + headroom;
    const rlimit limit{cap, cap};
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(3);
    auto result = InspectUpload(pdf);
    _exit(!result && result.error().code == expected ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child was killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "InspectUpload did not answer as expected";
}

TEST(PdfUploadTest, AcceptsAPlainPdfAndReportsItsPages) {
  auto upload = InspectUpload(MinimalPdf());
  ASSERT_TRUE(upload.has_value()) << upload.error().message;
  ASSERT_EQ(upload->pages.size(), 2u);
  EXPECT_DOUBLE_EQ(upload->pages[0].width, 595);
  EXPECT_DOUBLE_EQ(upload->pages[0].height, 842);
  EXPECT_TRUE(upload->removed.empty());
  EXPECT_TRUE(upload->warnings.empty());
  EXPECT_TRUE(upload->text_tags.empty());
  EXPECT_TRUE(upload->form_fields.empty());
  EXPECT_TRUE(upload->cleaned_pdf.starts_with("%PDF-"));
}

TEST(PdfUploadTest, TheCleanedCopyIsTheSameForTheSameInput) {
  const std::string pdf = DocumentFixture("acroform_with_actions.pdf");
  auto first = InspectUpload(pdf);
  auto second = InspectUpload(pdf);
  ASSERT_TRUE(first.has_value()) << first.error().message;
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(first->cleaned_pdf, second->cleaned_pdf);
  // And the cleaned copy is itself accepted, with nothing left to remove.
  auto again = InspectUpload(first->cleaned_pdf);
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_TRUE(again->removed.empty());
}

TEST(PdfUploadTest, PageSizesAreThoseOfTheCropBoxTurnedByTheRotation) {
  const std::string pdf =
      OnePage("/CropBox [50 100 350 600] /Rotate 90 /Annots [5 0 R]",
              {"<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /Rect [60 110 160 130] "
               "/P 3 0 R >>"},
              "/AcroForm << /Fields [5 0 R] >>");
  auto upload = InspectUpload(pdf);
  ASSERT_TRUE(upload.has_value()) << upload.error().message;
  ASSERT_EQ(upload->pages.size(), 1u);
  EXPECT_DOUBLE_EQ(upload->pages[0].width, 500);
  EXPECT_DOUBLE_EQ(upload->pages[0].height, 300);
  // Turned a quarter clockwise: the crop box's bottom-left corner is the top-left one.
  ASSERT_EQ(upload->form_fields.size(), 1u);
  ExpectBox(upload->form_fields[0].box, {.page = 1, .x = 10, .y = 10, .width = 20, .height = 100});
}

TEST(PdfUploadTest, ACropBoxIsClippedToTheMediaBox) {
  auto upload = InspectUpload(OnePage("/CropBox [-100 -100 300 400]"));
  ASSERT_TRUE(upload.has_value()) << upload.error().message;
  EXPECT_DOUBLE_EQ(upload->pages[0].width, 300);
  EXPECT_DOUBLE_EQ(upload->pages[0].height, 400);
}

TEST(PdfUploadTest, RefusesBytesOverTheSizeLimit) {
  UploadLimits limits;
  limits.max_bytes = 100;
  auto upload = InspectUpload(MinimalPdf(), limits);
  ASSERT_FALSE(upload.has_value());
  EXPECT_EQ(upload.error().code, ErrorCode::kDocumentTooLarge);
}

TEST(PdfUploadTest, RefusesWhatIsNotAPdf) {
  for (const std::string& bytes :
       {std::string("hello, world"), std::string("%PDF-1.7\n") + std::string(4000, 'x'),
        std::string(), std::string("\x89PNG\r\n\x1a\n", 8)}) {
    auto upload = InspectUpload(bytes);
    ASSERT_FALSE(upload.has_value()) << bytes.substr(0, 20);
    EXPECT_EQ(upload.error().code, ErrorCode::kDocumentInvalid) << upload.error().message;
  }
}

TEST(PdfUploadTest, RefusesATruncatedPdfAndRepairsALostCrossReferenceTable) {
  const std::string pdf = MinimalPdf();
  auto cut = InspectUpload(pdf.substr(0, pdf.find("3 0 obj")));
  ASSERT_FALSE(cut.has_value());
  EXPECT_EQ(cut.error().code, ErrorCode::kDocumentInvalid) << cut.error().message;

  // A cross-reference table that points nowhere is rebuilt from the objects.
  std::string lost = pdf;
  lost.replace(lost.rfind("startxref\n") + 10, std::string::npos, "99999\n%%EOF\n");
  auto repaired = InspectUpload(lost);
  ASSERT_TRUE(repaired.has_value()) << repaired.error().message;
  EXPECT_EQ(repaired->pages.size(), 2u);
  EXPECT_TRUE(Has(repaired->warnings, "repaired"));
}

TEST(PdfUploadTest, RefusesAnEncryptedPdf) {
  for (const std::string user : {"secret", ""}) {
    auto upload = InspectUpload(Encrypted(MinimalPdf(), user));
    ASSERT_FALSE(upload.has_value()) << "user password '" << user << "'";
    EXPECT_EQ(upload.error().code, ErrorCode::kDocumentEncrypted) << upload.error().message;
  }
}

TEST(PdfUploadTest, RefusesALoopInThePageTree) {
  const std::string loop = WritePdf({
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 4 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] >>",
  });
  auto upload = InspectUpload(loop);
  ASSERT_FALSE(upload.has_value());
  EXPECT_EQ(upload.error().code, ErrorCode::kDocumentInvalid);
  EXPECT_NE(upload.error().message.find("loop"), std::string::npos) << upload.error().message;
}

TEST(PdfUploadTest, RefusesAPageTreeDeeperThanTheLimit) {
  // Pages nodes 2 .. 101, each the only kid of the one before, and one page at the bottom.
  std::vector<std::string> objects = {"<< /Type /Catalog /Pages 2 0 R >>"};
  for (int node = 2; node <= 101; ++node) {
    objects.push_back("<< /Type /Pages /Kids [" + std::to_string(node + 1) + " 0 R] /Count 1 >>");
  }
  objects.push_back("<< /Type /Page /Parent 101 0 R /MediaBox [0 0 612 792] >>");
  auto upload = InspectUpload(WritePdf(objects));
  ASSERT_FALSE(upload.has_value());
  EXPECT_EQ(upload.error().code, ErrorCode::kDocumentLimitExceeded) << upload.error().message;
  UploadLimits deeper;
  deeper.max_depth = 128;
  auto allowed = InspectUpload(WritePdf(objects), deeper);
  ASSERT_TRUE(allowed.has_value()) << allowed.error().message;
  EXPECT_EQ(allowed->pages.size(), 1u);
}

TEST(PdfUploadTest, RefusesTenThousandPagesWhateverTheirCountSays) {
  std::string kids;
  std::vector<std::string> objects = {"<< /Type /Catalog /Pages 2 0 R >>", ""};
  for (int i = 0; i < 10'000; ++i) {
    kids += std::to_string(objects.size() + 1) + " 0 R ";
    objects.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>");
  }
  objects[1] = "<< /Type /Pages /Kids [" + kids + "] /Count 1 >>";
  auto upload = InspectUpload(WritePdf(objects));
  ASSERT_FALSE(upload.has_value());
  EXPECT_EQ(upload.error().code, ErrorCode::kDocumentLimitExceeded);
  EXPECT_NE(upload.error().message.find("500 pages"), std::string::npos) << upload.error().message;
}

TEST(PdfUploadTest, RefusesMoreObjectsOrDeeperNestingThanAllowed) {
  UploadLimits few;
  few.max_objects = 4;
  auto objects = InspectUpload(MinimalPdf(), few);
  ASSERT_FALSE(objects.has_value());
  EXPECT_EQ(objects.error().code, ErrorCode::kDocumentLimitExceeded);

  const std::string deep = std::string(100, '[') + std::string(100, ']');
  auto nesting = InspectUpload(OnePage("/Extra " + deep));
  ASSERT_FALSE(nesting.has_value());
  EXPECT_EQ(nesting.error().code, ErrorCode::kDocumentLimitExceeded) << nesting.error().message;
  const std::string shallow = std::string(30, '[') + std::string(30, ']');
  EXPECT_TRUE(InspectUpload(OnePage("/Extra " + shallow)).has_value());
}

TEST(PdfUploadTest, RefusesADeflateBomb) {
  auto upload = InspectUpload(BombPdf(300ull << 20));
  ASSERT_FALSE(upload.has_value());
  EXPECT_EQ(upload.error().code, ErrorCode::kDocumentLimitExceeded);
  // Under its limit the same construction is an ordinary (if odd) page.
  UploadLimits limits;
  auto small = InspectUpload(BombPdf(8ull << 20), limits);
  EXPECT_TRUE(small.has_value()) << small.error().message;
}

TEST(PdfUploadTest, RefusesContentThatDecodesPastTheLimitTogether) {
  // Hexadecimal-encoded, so only the decoding through QPDF counts it.
  std::string hex;
  for (int i = 0; i < 300'000; ++i) hex += "20";
  std::vector<std::string> objects = {"<< /Type /Catalog /Pages 2 0 R >>", ""};
  std::string kids;
  for (int i = 0; i < 4; ++i) {
    kids += std::to_string(objects.size() + 1) + " 0 R ";
    objects.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents " +
                      std::to_string(objects.size() + 2) + " 0 R >>");
    objects.push_back(StreamObject(hex + ">", "/Filter /ASCIIHexDecode "));
  }
  objects[1] = "<< /Type /Pages /Kids [" + kids + "] /Count 4 >>";
  UploadLimits limits;
  limits.max_decoded_bytes = 1 << 20;
  auto upload = InspectUpload(WritePdf(objects), limits);
  ASSERT_FALSE(upload.has_value());
  EXPECT_EQ(upload.error().code, ErrorCode::kDocumentLimitExceeded) << upload.error().message;
  limits.max_decoded_bytes = 2 << 20;
  EXPECT_TRUE(InspectUpload(WritePdf(objects), limits).has_value());
}

TEST(PdfUploadTest, RefusesAMillionObjectsInAnObjectStream) {
  auto upload = InspectUpload(MillionObjectsPdf(1'000'000));
  ASSERT_FALSE(upload.has_value());
  EXPECT_EQ(upload.error().code, ErrorCode::kDocumentLimitExceeded) << upload.error().message;
  // QPDF's own count refuses them when the declared size lies.
  auto lying = InspectUpload(MillionObjectsPdf(1'000'000, true));
  ASSERT_FALSE(lying.has_value());
  EXPECT_EQ(lying.error().code, ErrorCode::kDocumentLimitExceeded) << lying.error().message;
  // The same construction with a few objects is read.
  auto few = InspectUpload(MillionObjectsPdf(10));
  EXPECT_TRUE(few.has_value()) << few.error().message;
}

TEST(PdfUploadTest, TheBombAndTheMillionObjectsStayWithinBoundedMemory) {
  const std::string bomb = BombPdf(2ull << 30);
  ExpectWithinMemory(bomb, 256ull << 20, ErrorCode::kDocumentLimitExceeded);
  const std::string objects = MillionObjectsPdf(1'000'000, true);
  ExpectWithinMemory(objects, 512ull << 20, ErrorCode::kDocumentLimitExceeded);
}

TEST(PdfUploadTest, RemovesJavaScriptAndLaunchActionsAndReportsTheFormFields) {
  auto upload = InspectUpload(DocumentFixture("acroform_with_actions.pdf"));
  ASSERT_TRUE(upload.has_value()) << upload.error().message;
  EXPECT_EQ(upload->removed, (std::vector<std::string>{"additional_actions", "javascript",
                                                       "launch_action", "open_action"}));
  EXPECT_EQ(upload->cleaned_pdf.find("/JavaScript"), std::string::npos);
  EXPECT_EQ(upload->cleaned_pdf.find("/Launch"), std::string::npos);
  EXPECT_EQ(upload->cleaned_pdf.find("/OpenAction"), std::string::npos);
  EXPECT_EQ(upload->cleaned_pdf.find("/AA"), std::string::npos);
  // The link itself stays, without its action.
  EXPECT_NE(upload->cleaned_pdf.find("/Link"), std::string::npos);
  ASSERT_EQ(upload->form_fields.size(), 3u);
  EXPECT_EQ(upload->form_fields[0].name, "full_name");
  EXPECT_EQ(upload->form_fields[0].type, "text");
  EXPECT_EQ(upload->form_fields[1].name, "company");
  EXPECT_EQ(upload->form_fields[2].name, "agree");
  EXPECT_EQ(upload->form_fields[2].type, "checkbox");
  // Rect [72 700 300 720] on a 792-point page, y down.
  ExpectBox(upload->form_fields[0].box, {.page = 1, .x = 72, .y = 72, .width = 228, .height = 20});
  EXPECT_TRUE(upload->warnings.empty());
}

TEST(PdfUploadTest, RemovesUriActionsEmbeddedFilesAndXfa) {
  const std::string pdf = OnePage(
      "/Annots [5 0 R 6 0 R]",
      {"<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A << /S /URI /URI (https://x.test) >> >>",
       "<< /Type /Annot /Subtype /FileAttachment /Rect [0 0 10 10] /FS 7 0 R >>",
       "<< /Type /Filespec /F (a.exe) /EF << /F 8 0 R >> >>", StreamObject("MZ"),
       StreamObject("<xdp/>")},
      "/Names << /EmbeddedFiles << /Names [(a.exe) 7 0 R] >> /JavaScript << /Names [] >> >> "
      "/AcroForm << /Fields [] /XFA 9 0 R /NeedsRendering true >>");
  auto upload = InspectUpload(pdf);
  ASSERT_TRUE(upload.has_value()) << upload.error().message;
  EXPECT_EQ(upload->removed,
            (std::vector<std::string>{"embedded_files", "javascript", "uri_action", "xfa"}));
  EXPECT_EQ(upload->cleaned_pdf.find("/FileAttachment"), std::string::npos);
  EXPECT_EQ(upload->cleaned_pdf.find("/EmbeddedFiles"), std::string::npos);
  EXPECT_EQ(upload->cleaned_pdf.find("/XFA"), std::string::npos);
  EXPECT_EQ(upload->cleaned_pdf.find("https://x.test"), std::string::npos);
  // What stays inside the document stays.
  auto go_to =
      InspectUpload(OnePage("/Annots [5 0 R]", {"<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] "
                                                "/A << /S /GoTo /D [3 0 R /Fit] >> >>"}));
  ASSERT_TRUE(go_to.has_value());
  EXPECT_TRUE(go_to->removed.empty());
  EXPECT_NE(go_to->cleaned_pdf.find("/GoTo"), std::string::npos);
}

TEST(PdfUploadTest, RemovesFormSubmissionRemoteAndMultimediaContent) {
  const std::string pdf =
      OnePage("/Annots [5 0 R 6 0 R 7 0 R] /AA << /O << /S /GoToR /F (other.pdf) /D [0 /Fit] >> >>",
              {"<< /Type /Annot /Subtype /Widget /FT /Btn /Ff 65536 /T (send) /Rect [0 0 10 10] "
               "/P 3 0 R /A << /S /SubmitForm /F << /FS /URL /F (https://x.test/collect) >> >> >>",
               "<< /Type /Annot /Subtype /RichMedia /Rect [0 0 10 10] >>",
               "<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A << /S /GoToR /F (other.pdf) "
               "/D [0 /Fit] >> >>"},
              "/AcroForm << /Fields [5 0 R] >>");
  auto upload = InspectUpload(pdf);
  ASSERT_TRUE(upload.has_value()) << upload.error().message;
  EXPECT_EQ(upload->removed, (std::vector<std::string>{"additional_actions", "form_submission",
                                                       "multimedia", "remote_goto"}));
  EXPECT_EQ(upload->cleaned_pdf.find("/SubmitForm"), std::string::npos);
  EXPECT_EQ(upload->cleaned_pdf.find("/RichMedia"), std::string::npos);
  EXPECT_EQ(upload->cleaned_pdf.find("/GoToR"), std::string::npos);
  // The push button stays a field, without its action.
  ASSERT_EQ(upload->form_fields.size(), 1u);
  EXPECT_EQ(upload->form_fields[0].type, "button");
}

TEST(PdfUploadTest, AJavaScriptActionChainedAfterAnInnocentOneIsRemoved) {
  auto upload = InspectUpload(OnePage(
      "", {}, "/OpenAction << /S /GoTo /D [3 0 R /Fit] /Next << /S /JavaScript /JS (x) >> >>"));
  ASSERT_TRUE(upload.has_value()) << upload.error().message;
  EXPECT_EQ(upload->removed, (std::vector<std::string>{"javascript"}));
  EXPECT_NE(upload->cleaned_pdf.find("/GoTo"), std::string::npos);
  EXPECT_EQ(upload->cleaned_pdf.find("/JavaScript"), std::string::npos);
}

TEST(PdfUploadTest, ActionsThatReferToEachOtherAreFollowedOnce) {
  // Each /AA entry leads back to both dictionaries: followed along every path, 2^64 visits.
  const std::string pdf =
      OnePage("/AA 5 0 R", {"<< /O 6 0 R /C 5 0 R /Next 6 0 R >>",
                            "<< /S /JavaScript /JS (x) /Next [5 0 R 6 0 R] /O 5 0 R >>"});
  auto upload = InspectUpload(pdf);
  ASSERT_TRUE(upload.has_value()) << upload.error().message;
  EXPECT_EQ(upload->removed, (std::vector<std::string>{"additional_actions", "javascript"}));
}

TEST(PdfUploadTest, WarnsThatExistingSignaturesWillNotSurvive) {
  const std::string pdf =
      OnePage("/Annots [5 0 R]",
              {"<< /Type /Annot /Subtype /Widget /FT /Sig /T (Signature1) /Rect [72 72 272 122] "
               "/P 3 0 R /V 6 0 R >>",
               "<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached "
               "/ByteRange [0 0 0 0] /Contents <00> >>"},
              "/AcroForm << /Fields [5 0 R] /SigFlags 3 >>");
  auto upload = InspectUpload(pdf);
  ASSERT_TRUE(upload.has_value()) << upload.error().message;
  EXPECT_EQ(upload->warnings, (std::vector<std::string>{"signatures_invalidated"}));
  ASSERT_EQ(upload->form_fields.size(), 1u);
  EXPECT_EQ(upload->form_fields[0].type, "signature");
}

TEST(PdfUploadTest, FindsTheTagsOfTheCommittedFixtures) {
  auto cairo = InspectUpload(DocumentFixture("two_pages_tagged_cairo.pdf"));
  ASSERT_TRUE(cairo.has_value()) << cairo.error().message;
  ASSERT_EQ(cairo->pages.size(), 2u);
  ASSERT_EQ(cairo->text_tags.size(), 2u);
  EXPECT_EQ(cairo->text_tags[0].type, "signature");
  EXPECT_EQ(cairo->text_tags[0].box.page, 1);
  EXPECT_GE(cairo->text_tags[0].box.height, 24);
  EXPECT_EQ(cairo->text_tags[1].type, "date_signed");
  EXPECT_EQ(cairo->text_tags[1].signer, 2);
  EXPECT_EQ(cairo->text_tags[1].box.page, 2);
  EXPECT_TRUE(cairo->removed.empty());
  EXPECT_TRUE(cairo->warnings.empty());
}

}  // namespace
}  // namespace esign::documents
