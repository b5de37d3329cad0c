#include "mail/mail_content.h"

#include <time.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/time_text.h"

namespace esign::mail {
namespace {

// One piece of a message, rendered as plain text and as HTML from the same words.
struct Block {
  enum class Kind { kParagraph, kQuote, kButton, kCode, kNote };
  Kind kind = Kind::kParagraph;
  std::string text;  // kButton: its label
  std::string link;  // kButton
};

Block Paragraph(std::string text) { return {Block::Kind::kParagraph, std::move(text), ""}; }
Block Quote(std::string text) { return {Block::Kind::kQuote, std::move(text), ""}; }
Block Button(std::string label, std::string link) {
  return {Block::Kind::kButton, std::move(label), std::move(link)};
}
Block Code(std::string code) { return {Block::Kind::kCode, std::move(code), ""}; }
Block Note(std::string text) { return {Block::Kind::kNote, std::move(text), ""}; }

constexpr std::string_view kFont = "font-family:Helvetica,Arial,sans-serif;";
constexpr std::string_view kParagraphStyle = "margin:0 0 16px 0;";
constexpr std::string_view kNoteStyle = "margin:0 0 16px 0;font-size:13px;color:#6b7280;";
constexpr std::string_view kLinkColor = "#1d4ed8";
constexpr std::string_view kLogoStyle =
    "display:block;max-height:48px;max-width:200px;margin:0 0 16px 0;border:0;";
constexpr std::string_view kHead =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
// After the title: the page, a column of 560 pixels at most, and a white card within it.
constexpr std::string_view kBodyStart =
    "</title>\n</head>\n<body style=\"margin:0;padding:0;background-color:#f3f4f6;\">\n"
    "<div style=\"max-width:560px;margin:0 auto;padding:24px 16px;\">\n"
    "<div style=\"background-color:#ffffff;border-radius:8px;padding:24px;";
constexpr std::string_view kLinkHelp =
    "If the button does not work, copy this link into your browser:";

// "21 November 2026, 05:35 UTC" for an RFC 3339 time; the text as given when it is not one.
std::string ReadableTime(std::string_view rfc3339) {
  const std::optional<int64_t> micros = ParseTimestampMicros(rfc3339);
  if (!micros) return std::string(rfc3339);
  const time_t seconds = static_cast<time_t>(*micros / kMicrosPerSecond);
  tm utc{};
  gmtime_r(&seconds, &utc);
  std::array<char, 64> text{};
  const size_t length = strftime(text.data(), text.size(), "%d %B %Y, %H:%M UTC", &utc);
  std::string readable(text.data(), length);
  if (readable.starts_with('0')) readable.erase(0, 1);
  return readable;
}

std::string Quoted(std::string_view title) { return "\u201C" + std::string(title) + "\u201D"; }

std::string Capitalized(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 32);
  return text;
}

std::string Multiline(std::string_view text) {
  std::string html;
  for (char c : EscapeHtml(text)) {
    if (c == '\r') continue;
    html += c == '\n' ? std::string("<br>\n") : std::string(1, c);
  }
  return html;
}

std::string RenderText(const std::string& greeting, const std::vector<Block>& blocks,
                       const std::string& footer) {
  std::string text = greeting + "\n\n";
  for (const Block& block : blocks) {
    switch (block.kind) {
      case Block::Kind::kParagraph:
      case Block::Kind::kNote:
        text += block.text + "\n\n";
        break;
      case Block::Kind::kQuote: {
        std::string_view rest = block.text;
        while (true) {
          const size_t end = rest.find('\n');
          text += "> " + std::string(rest.substr(0, end)) + "\n";
          if (end == std::string_view::npos) break;
          rest.remove_prefix(end + 1);
        }
        text += "\n";
        break;
      }
      case Block::Kind::kButton:
        text += block.text + ":\n" + block.link + "\n\n";
        break;
      case Block::Kind::kCode:
        text += "    " + block.text + "\n\n";
        break;
    }
  }
  return text + "-- \n" + footer + "\n";
}

// Appends the pieces in order, without a temporary string for each "+".
void Append(std::string& out, std::initializer_list<std::string_view> pieces) {
  for (std::string_view piece : pieces) out.append(piece);
}

std::string RenderHtml(const MailContext& context, const std::string& subject,
                       const std::string& greeting, const std::vector<Block>& blocks,
                       const std::string& footer) {
  const std::string link_color =
      context.accent_color.empty() ? std::string(kLinkColor) : EscapeHtml(context.accent_color);
  std::string html;
  Append(html, {kHead, EscapeHtml(subject), kBodyStart, kFont,
                "font-size:16px;line-height:1.5;color:#1f2937;\">\n"});
  if (!context.logo_content_id.empty()) {
    const std::string alt =
        context.organization_name.empty() ? "Logo" : context.organization_name + " logo";
    Append(html, {"<img src=\"cid:", EscapeHtml(context.logo_content_id), "\" alt=\"",
                  EscapeHtml(alt), "\" style=\"", kLogoStyle, "\">\n"});
  }
  Append(html, {"<p style=\"", kParagraphStyle, "\">", EscapeHtml(greeting), "</p>\n"});
  for (const Block& block : blocks) {
    switch (block.kind) {
      case Block::Kind::kParagraph:
        Append(html, {"<p style=\"", kParagraphStyle, "\">", EscapeHtml(block.text), "</p>\n"});
        break;
      case Block::Kind::kNote:
        Append(html, {"<p style=\"", kNoteStyle, "\">", EscapeHtml(block.text), "</p>\n"});
        break;
      case Block::Kind::kQuote:
        Append(html, {"<blockquote style=\"margin:0 0 16px 0;padding:8px 16px;border-left:4px "
                      "solid #d1d5db;color:#374151;\">",
                      Multiline(block.text), "</blockquote>\n"});
        break;
      case Block::Kind::kButton: {
        const std::string href = EscapeHtml(block.link);
        Append(html,
               {"<p style=\"margin:24px 0;\"><a href=\"", href,
                "\" style=\"display:inline-block;padding:12px 24px;background-color:", link_color,
                ";color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold;\">",
                EscapeHtml(block.text), "</a></p>\n"});
        Append(html,
               {"<p style=\"", kNoteStyle, "\">", kLinkHelp, "<br>\n<a href=\"", href,
                "\" style=\"color:", link_color, ";word-break:break-all;\">", href, "</a></p>\n"});
        break;
      }
      case Block::Kind::kCode:
        Append(html, {"<p style=\"margin:0 0 16px 0;font-family:Menlo,Consolas,monospace;"
                      "font-size:32px;font-weight:bold;letter-spacing:8px;\">",
                      EscapeHtml(block.text), "</p>\n"});
        break;
    }
  }
  Append(html, {"</div>\n<p style=\"", kFont, "margin:16px 0 0 0;font-size:12px;color:#6b7280;\">",
                EscapeHtml(footer), "</p>\n</div>\n</body>\n</html>\n"});
  return html;
}

void AddExpiry(const MailContext& context, std::vector<Block>& blocks) {
  if (!context.expires_at.empty()) {
    blocks.push_back(
        Paragraph("The contract can be signed until " + ReadableTime(context.expires_at) + "."));
  }
}

void AddReason(const MailContext& context, std::vector<Block>& blocks) {
  if (!context.reason.empty()) {
    blocks.push_back(Paragraph("The reason given:"));
    blocks.push_back(Quote(context.reason));
  }
}

// "Ada Lovelace (ada@example.com)"; "A signer" when the record names nobody.
std::string SignerInWords(const MailContext& context) {
  if (context.signer_name.empty() && context.signer_email.empty()) return "A signer";
  if (context.signer_email.empty()) return context.signer_name;
  if (context.signer_name.empty()) return context.signer_email;
  return context.signer_name + " (" + context.signer_email + ")";
}

constexpr std::string_view kPersonalLink =
    "This link is yours alone: please do not forward this email.";

}  // namespace

std::string EscapeHtml(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&#39;";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

MailText ComposeMail(const MailContext& context) {
  const std::string& title = context.contract_title;
  const std::string quoted = Quoted(title);
  const std::string sender =
      context.organization_name.empty() ? "the sender" : context.organization_name;
  const std::string greeting =
      context.recipient_name.empty() ? "Hello," : "Hello " + context.recipient_name + ",";
  std::string subject;
  std::vector<Block> blocks;
  switch (context.kind) {
    case MailKind::kSigningRequest:
      subject = context.subject.empty() ? "Please sign: " + title : context.subject;
      blocks.push_back(Paragraph(Capitalized(sender) + " asks you to sign " + quoted + "."));
      if (!context.message.empty()) {
        blocks.push_back(Paragraph("Message from " + sender + ":"));
        blocks.push_back(Quote(context.message));
      }
      blocks.push_back(Button("Review and sign", context.link));
      AddExpiry(context, blocks);
      blocks.push_back(Note(std::string(kPersonalLink)));
      break;
    case MailKind::kReminder:
      subject = "Reminder: please sign " + title;
      blocks.push_back(Paragraph("This is a reminder: " + sender +
                                 " is still waiting for your signature on " + quoted + "."));
      blocks.push_back(Button("Review and sign", context.link));
      AddExpiry(context, blocks);
      blocks.push_back(Note(std::string(kPersonalLink)));
      break;
    case MailKind::kSignerCompleted:
      subject = title + ": a signer signed";
      blocks.push_back(Paragraph(SignerInWords(context) + " has signed " + quoted + ", sent by " +
                                 sender + ". The contract is complete once everyone has signed."));
      break;
    case MailKind::kContractCompleted:
      subject = "Signed by everyone: " + title;
      blocks.push_back(Paragraph("Everyone has signed " + quoted + ", sent by " + sender + "."));
      blocks.push_back(Paragraph(
          context.signed_pdf_attached
              ? "The signed document is attached to this email as a PDF: keep it for your records."
              : "Ask " + sender + " if you need a copy of the signed document."));
      break;
    case MailKind::kContractDeclined:
      subject = "Declined: " + title;
      blocks.push_back(Paragraph("A signer declined to sign " + quoted + ", sent by " + sender +
                                 ". The contract can no longer be signed."));
      AddReason(context, blocks);
      break;
    case MailKind::kContractVoided:
      subject = "Withdrawn: " + title;
      // Only a signer who was mailed a link has one that stops working.
      blocks.push_back(
          Paragraph(Capitalized(sender) + " withdrew " + quoted +
                    (context.mailed_link ? ". It can no longer be signed, and its signing links no "
                                           "longer work."
                                         : ". It can no longer be signed.")));
      AddReason(context, blocks);
      break;
    case MailKind::kContractExpired:
      subject = "Expired: " + title;
      blocks.push_back(Paragraph(quoted + ", sent by " + sender +
                                 ", expired before everyone had signed. It can no longer be "
                                 "signed; ask " +
                                 sender + " if a new one is needed."));
      break;
    case MailKind::kAuthenticationCode:
      subject = "Your code to open " + title;
      blocks.push_back(
          Paragraph("Here is your code to open " + quoted + ", sent by " + sender + ":"));
      blocks.push_back(Code(context.code));
      blocks.push_back(Paragraph(
          "It is valid for " + std::to_string(context.code_valid_minutes) + " minutes" +
          (context.expires_at.empty() ? "" : ", until " + ReadableTime(context.expires_at)) +
          ". Do not share it with anyone."));
      blocks.push_back(
          Note("If you did not ask for this code, ignore this email: nobody can open the contract "
               "without it."));
      break;
  }
  const std::string footer =
      "This email was sent automatically for " + sender + " by its contract signing service.";
  return MailText{subject, RenderText(greeting, blocks, footer),
                  RenderHtml(context, subject, greeting, blocks, footer)};
}

}  // namespace esign::mail
