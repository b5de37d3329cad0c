#include "mail/mail_message.h"

#include <gtest/gtest.h>

#include <string>

#include "base/base64.h"
#include "mail/mail_outbox.h"
#include "tests/mail/mail_test_support.h"

namespace esign::mail {
namespace {

using testing::DecodeEncodedWords;
using testing::DecodeQuotedPrintable;
using testing::Header;
using testing::HeaderSection;
using testing::SplitCrlf;

MailMessage Sample() {
  MailMessage message;
  message.from_address = "contracts@example.com";
  message.from_name = "Acme Contracts";
  message.to_address = "bob@example.org";
  message.to_name = "Bob Signer";
  message.subject = "Please sign: Lease";
  message.text = "Hello Bob,\n\nPlease sign.\n";
  message.html = "<p>Hello Bob,</p>\n<p>Please sign.</p>\n";
  message.message_id = "evt_1.bob@contracts.example.com";
  message.date_us = int64_t{1'700'000'000} * 1'000'000;
  return message;
}

std::string BinaryBytes(size_t size) {
  std::string bytes;
  for (size_t i = 0; i < size; ++i) bytes += static_cast<char>((i * 131 + 7) % 256);
  return bytes;
}

TEST(RenderMimeTest, HeadersAndAlternativeParts) {
  const std::string mime = RenderMime(Sample());
  EXPECT_EQ(Header(mime, "From:"), "Acme Contracts <contracts@example.com>");
  EXPECT_EQ(Header(mime, "To:"), "Bob Signer <bob@example.org>");
  EXPECT_EQ(Header(mime, "Subject:"), "Please sign: Lease");
  EXPECT_EQ(Header(mime, "Date:"), "Tue, 14 Nov 2023 22:13:20 +0000");
  EXPECT_EQ(Header(mime, "Message-ID:"), "<evt_1.bob@contracts.example.com>");
  EXPECT_EQ(Header(mime, "MIME-Version:"), "1.0");
  EXPECT_EQ(Header(mime, "Auto-Submitted:"), "auto-generated");
  EXPECT_TRUE(
      Header(mime, "Content-Type:").starts_with("multipart/alternative; boundary=\"=_alt_"));
  EXPECT_EQ(mime.find("List-Unsubscribe"), std::string::npos);
  EXPECT_EQ(mime.find("multipart/mixed"), std::string::npos);
  const size_t plain = mime.find("Content-Type: text/plain; charset=UTF-8");
  const size_t html = mime.find("Content-Type: text/html; charset=UTF-8");
  ASSERT_NE(plain, std::string::npos);
  ASSERT_NE(html, std::string::npos);
  EXPECT_LT(plain, html);
  // Every line ends with CRLF: no bare line feed or carriage return anywhere.
  for (size_t i = 0; i < mime.size(); ++i) {
    if (mime[i] == '\n') {
      EXPECT_TRUE(i > 0 && mime[i - 1] == '\r') << i;
    }
    if (mime[i] == '\r') {
      EXPECT_TRUE(i + 1 < mime.size() && mime[i + 1] == '\n') << i;
    }
  }
  EXPECT_TRUE(mime.ends_with("--\r\n"));
}

TEST(RenderMimeTest, DisplayNamesAreQuotedWhenTheyNeedIt) {
  MailMessage message = Sample();
  message.to_name = "";
  message.from_name = "Acme, Inc. \"Legal\"";
  const std::string mime = RenderMime(message);
  EXPECT_EQ(Header(mime, "To:"), "bob@example.org");
  EXPECT_EQ(Header(mime, "From:"), "\"Acme, Inc. \\\"Legal\\\"\" <contracts@example.com>");
}

TEST(RenderMimeTest, FromNamesTheOrganizationViaTheService) {
  EXPECT_EQ(SenderName("", "Contract signing"), "Contract signing");
  MailMessage message = Sample();
  message.from_name = SenderName("Acme GmbH", "Contract signing");
  EXPECT_EQ(Header(RenderMime(message), "From:"),
            "Acme GmbH via Contract signing <contracts@example.com>");
  message.from_name = SenderName("Müller, Söhne & Co", "Contract signing");
  const std::string from = Header(RenderMime(message), "From:");
  EXPECT_TRUE(from.starts_with("=?UTF-8?")) << from;
  EXPECT_EQ(DecodeEncodedWords(from.substr(0, from.find(" <"))),
            "Müller, Söhne & Co via Contract signing");
}

TEST(RenderMimeTest, NonAsciiSubjectAndNamesAreEncodedWords) {
  MailMessage message = Sample();
  message.subject = "Bitte unterschreiben: Mietvertrag f\u00FCr M\u00FCller \u2014 \u5951\u7D04";
  message.to_name = "J\u00F6rg \u00C5str\u00F6m";
  const std::string mime = RenderMime(message);
  const std::string subject = Header(mime, "Subject:");
  EXPECT_TRUE(subject.starts_with("=?UTF-8?B?"));
  EXPECT_EQ(DecodeEncodedWords(subject), message.subject);
  const std::string to = Header(mime, "To:");
  EXPECT_EQ(DecodeEncodedWords(to.substr(0, to.find(" <"))), message.to_name);
  EXPECT_TRUE(to.ends_with(" <bob@example.org>"));
  // Header lines stay short: every encoded-word within 75 characters.
  for (const std::string& line : SplitCrlf(HeaderSection(mime))) {
    if (line.find("=?UTF-8?B?") != std::string::npos) {
      EXPECT_LE(line.size(), 78u) << line;
    }
  }
}

TEST(RenderMimeTest, LongAsciiSubjectIsFoldedIntoEncodedWords) {
  MailMessage message = Sample();
  message.subject = std::string(150, 'x') + " =?not an encoded word?=";
  const std::string mime = RenderMime(message);
  EXPECT_EQ(DecodeEncodedWords(Header(mime, "Subject:")), message.subject);
  for (const std::string& line : SplitCrlf(HeaderSection(mime))) EXPECT_LE(line.size(), 78u);
}

TEST(RenderMimeTest, NoFieldCanAddAHeaderOrBreakOne) {
  MailMessage message = Sample();
  message.subject = "Hi\r\nBcc: evil@example.net";
  message.from_name = "Eve\nBcc: evil@example.net";
  message.to_name = "Bob\r\n\r\n<b>body</b>";
  message.to_address = "bob@example.org\r\nBcc: evil@example.net";
  message.from_address = "a@example.com>, evil@example.net";
  message.message_id = "id@x>\r\nBcc: evil@example.net";
  message.attachments.push_back(
      {"a\r\nBcc: evil.pdf", "application/pdf\r\nBcc: evil@example.net", "%PDF"});
  const std::string mime = RenderMime(message);
  for (const std::string& line : SplitCrlf(mime)) {
    EXPECT_FALSE(line.starts_with("Bcc:")) << line;
  }
  const std::string headers = HeaderSection(mime);
  for (const std::string& line : SplitCrlf(headers)) {
    // Each header line is "Name: value" or the folded continuation of one.
    EXPECT_TRUE(line.starts_with(" ") || line.find(": ") != std::string::npos) << line;
  }
  EXPECT_EQ(Header(mime, "To:").find(','), std::string::npos);
  EXPECT_EQ(Header(mime, "From:").find(','), std::string::npos);
  EXPECT_EQ(Header(mime, "Message-ID:"), "<id@xBccevil@example.net>");
  EXPECT_NE(mime.find("Content-Type: application/octet-stream;"), std::string::npos);
}

TEST(RenderMimeTest, AttachmentsAreBase64InMixed) {
  MailMessage message = Sample();
  const std::string pdf = "%PDF-1.7\n" + BinaryBytes(5000);
  message.attachments.push_back({"signed-contract.pdf", "application/pdf", pdf});
  message.attachments.push_back({"Vertr\u00E4ge/\u00FCbersicht.txt", "text/plain", "hi"});
  const std::string mime = RenderMime(message);
  EXPECT_TRUE(Header(mime, "Content-Type:").starts_with("multipart/mixed; boundary=\"=_mixed_"));
  EXPECT_NE(mime.find("Content-Type: multipart/alternative;\r\n boundary=\"=_alt_"),
            std::string::npos);
  EXPECT_NE(mime.find("Content-Disposition: attachment; filename=\"signed-contract.pdf\""),
            std::string::npos);
  // A non-ASCII name by RFC 2231, without its path separator.
  EXPECT_NE(mime.find("filename*=UTF-8''Vertr%C3%A4ge_%C3%BCbersicht.txt"), std::string::npos);

  const size_t start = mime.find("\r\n\r\n", mime.find("filename=\"signed-contract.pdf\"")) + 4;
  const size_t end = mime.find("\r\n--", start);
  std::string base64;
  for (const std::string& line : SplitCrlf(mime.substr(start, end - start))) {
    EXPECT_LE(line.size(), 76u);
    base64 += line;
  }
  EXPECT_EQ(Base64Decode(base64), pdf);
}

TEST(RenderMimeTest, InlineImagesGoWithTheHtmlInRelated) {
  MailMessage message = Sample();
  message.html = "<img src=\"cid:logo.1@contractd\"><p>Hello</p>";
  message.attachments.push_back(
      {"logo.png", "image/png", "\x89PNG" + BinaryBytes(100), "logo.1@contractd"});
  const std::string mime = RenderMime(message);
  // No other attachment: alternative at the top, the HTML and its image in related within it.
  EXPECT_TRUE(Header(mime, "Content-Type:").starts_with("multipart/alternative"));
  const size_t related = mime.find("Content-Type: multipart/related;\r\n boundary=\"=_rel_");
  const size_t html = mime.find("Content-Type: text/html");
  const size_t image = mime.find("Content-ID: <logo.1@contractd>");
  ASSERT_NE(related, std::string::npos);
  ASSERT_NE(image, std::string::npos);
  EXPECT_LT(related, html);
  EXPECT_LT(html, image);
  EXPECT_NE(mime.find("Content-Disposition: inline; filename=\"logo.png\""), std::string::npos);
  EXPECT_EQ(mime.find("multipart/mixed"), std::string::npos);

  // With a real attachment too: mixed holds alternative (with related) and the attachment.
  message.attachments.push_back({"signed-contract.pdf", "application/pdf", "%PDF-1.7"});
  const std::string both = RenderMime(message);
  EXPECT_TRUE(Header(both, "Content-Type:").starts_with("multipart/mixed"));
  EXPECT_LT(both.find("Content-ID: <logo.1@contractd>"),
            both.find("Content-Disposition: attachment; filename=\"signed-contract.pdf\""));
}

TEST(RenderMimeTest, TextIsQuotedPrintableInShortLines) {
  MailMessage message = Sample();
  message.text = std::string(200, 'a') + " = caf\u00E9 \n.dot line\nlast \n";
  const std::string mime = RenderMime(message);
  const size_t start =
      mime.find("\r\n\r\n", mime.find("Content-Type: text/plain; charset=UTF-8")) + 4;
  const size_t end = mime.find("\r\n--", start);
  const std::string body = mime.substr(start, end - start);
  for (const std::string& line : SplitCrlf(body)) {
    EXPECT_LE(line.size(), 76u);
    EXPECT_FALSE(line.starts_with(".")) << line;
    EXPECT_FALSE(line.ends_with(" ")) << line;
  }
  // The delimiter takes the last line break.
  EXPECT_EQ(DecodeQuotedPrintable(body) + "\r\n",
            std::string(200, 'a') + " = caf\u00E9 \r\n.dot line\r\nlast \r\n");
}

TEST(RenderMimeTest, SameInputSameBytesOtherInputOtherBoundary) {
  MailMessage message = Sample();
  message.attachments.push_back({"a.pdf", "application/pdf", BinaryBytes(300)});
  EXPECT_EQ(RenderMime(message), RenderMime(message));
  MailMessage other = message;
  other.text += "More.";
  EXPECT_NE(Header(RenderMime(message), "Content-Type:"),
            Header(RenderMime(other), "Content-Type:"));
}

// The review's look-alike: a non-ASCII local part was stripped from To: ("admn@") while RCPT TO
// kept it ("admín@"). An address is sent only when To: carries it exactly as the envelope does.
TEST(RenderMimeTest, ToCarriesExactlyTheAddressTheEnvelopeGetsOrTheAddressIsNotSendable) {
  for (const std::string address : {"bob@example.org", "o'brien+tag@sub.example.co.uk",
                                    "a.b-c_d=e@xn--bcher-kva.example", "Mixed.Case@Example.ORG"}) {
    MailMessage message = Sample();
    message.to_address = address;
    EXPECT_TRUE(IsTransportableAddress(address)) << address;
    EXPECT_EQ(Header(RenderMime(message), "To:"), "Bob Signer <" + address + ">") << address;
    message.to_name.clear();
    EXPECT_EQ(Header(RenderMime(message), "To:"), address) << address;
  }
  for (const std::string address :
       {"adm\xC3\xADn@example.org",
        "bob@b\xC3\xBC"
        "cher.example",
        "a b@example.org", "a<b>@example.org", "a,b@example.org", "a@b@example.org", "@example.org",
        "bob@", "bob", "bob@example.org\r\nBcc: x@example.org"}) {
    EXPECT_FALSE(IsTransportableAddress(address)) << address;
  }
}

}  // namespace
}  // namespace esign::mail
