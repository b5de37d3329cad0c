#include "mail/mail_message.h"

#include <time.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "base/base64.h"
#include "base/sha256.h"
#include "base/time_text.h"

namespace esign::mail {
namespace {

constexpr std::string_view kCrlf = "\r\n";
// Quoted-printable and base64 lines: 76 characters at most (RFC 2045 sections 6.7 and 6.8).
constexpr size_t kEncodedLineLimit = 76;
// Bytes of text per encoded-word: 52 base64 characters, so "Subject: =?UTF-8?B?...?=" stays
// within the recommended 78 columns.
constexpr size_t kEncodedWordBytes = 39;
// Longer header texts are split into encoded-words, which folding can separate.
constexpr size_t kPlainHeaderTextLimit = 60;
constexpr size_t kFilenameLimit = 200;

bool IsUtf8Continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Control characters (line breaks above all) become spaces: a header keeps its one line.
std::string OneLine(std::string_view text) {
  std::string line(text);
  for (char& c : line) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) c = ' ';
  }
  return line;
}

// The characters an addr-spec or a msg-id may carry here: visible ASCII without the delimiters
// of addresses, comments and lists, so an address cannot bring a second address or a header.
std::string AddressCharacters(std::string_view text) {
  constexpr std::string_view kDelimiters = "<>()[],;:\"\\";
  std::string kept;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte > 0x20 && byte < 0x7F && kDelimiters.find(c) == std::string_view::npos) kept += c;
  }
  return kept;
}

bool NeedsEncodedWords(std::string_view text) {
  if (text.size() > kPlainHeaderTextLimit || text.find("=?") != std::string_view::npos) {
    return true;
  }
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7F) return true;
  }
  return false;
}

// RFC 2047 "B" encoded-words, cut between UTF-8 characters, folded onto continuation lines.
std::string EncodedWords(std::string_view text) {
  std::string words;
  while (!text.empty()) {
    size_t length = std::min(text.size(), kEncodedWordBytes);
    while (length < text.size() && length > 1 && IsUtf8Continuation(text[length])) --length;
    if (!words.empty()) words += "\r\n ";
    words += "=?UTF-8?B?" + Base64Encode(text.substr(0, length)) + "?=";
    text.remove_prefix(length);
  }
  return words;
}

std::string UnstructuredText(std::string_view text) {
  std::string line = OneLine(text);
  return NeedsEncodedWords(line) ? EncodedWords(line) : line;
}

bool IsAtomText(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$%&'*+-/=?^_`{|}~ ").find(c) != std::string_view::npos;
}

// A display name as words, as a quoted-string when it has other characters, or as
// encoded-words when it is not plain ASCII.
std::string Phrase(std::string_view name) {
  std::string line = OneLine(name);
  if (NeedsEncodedWords(line)) return EncodedWords(line);
  if (std::ranges::all_of(line, IsAtomText)) return line;
  std::string quoted = "\"";
  for (char c : line) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

std::string Mailbox(std::string_view address, std::string_view name) {
  std::string addr = AddressCharacters(address);
  if (name.empty()) return addr;
  return Phrase(name) + " <" + addr + ">";
}

// "Tue, 05 Nov 2024 10:00:00 +0000" (RFC 5322 section 3.3), always in UTC.
std::string DateHeader(int64_t unix_micros) {
  int64_t seconds = unix_micros / kMicrosPerSecond;
  if (unix_micros < 0 && unix_micros % kMicrosPerSecond != 0) --seconds;
  const time_t time = static_cast<time_t>(seconds);
  tm utc{};
  gmtime_r(&time, &utc);
  std::array<char, 64> text{};
  const size_t length = strftime(text.data(), text.size(), "%a, %d %b %Y %H:%M:%S +0000", &utc);
  return std::string(text.data(), length);
}

char HexDigit(unsigned value) { return "0123456789ABCDEF"[value & 0xF]; }

// Quoted-printable (RFC 2045 section 6.7) with CRLF hard line breaks for the text's line breaks;
// a line's leading "." is encoded too, so no transport needs to stuff it.
std::string QuotedPrintable(std::string_view text) {
  std::string out;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t column = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      const auto byte = static_cast<unsigned char>(line[i]);
      const bool last = i + 1 == line.size();
      const bool literal =
          (byte >= 33 && byte <= 126 && byte != '=') || ((byte == ' ' || byte == '\t') && !last);
      std::string token =
          literal ? std::string(1, line[i]) : std::string{'=', HexDigit(byte >> 4), HexDigit(byte)};
      if (column + token.size() > kEncodedLineLimit - 1) {
        out += "=\r\n";
        column = 0;
      }
      if (column == 0 && byte == '.') token = "=2E";
      out += token;
      column += token.size();
    }
    out += kCrlf;
  }
  return out;
}

std::string Base64Lines(std::string_view bytes) {
  const std::string encoded = Base64Encode(bytes);
  std::string out;
  for (size_t at = 0; at < encoded.size(); at += kEncodedLineLimit) {
    out.append(encoded, at, kEncodedLineLimit);
    out += kCrlf;
  }
  return out;
}

bool IsTokenCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$&^_.+-").find(c) != std::string_view::npos;
}

std::string ContentType(std::string_view type) {
  const size_t slash = type.find('/');
  const bool valid = slash != std::string_view::npos && slash > 0 && slash + 1 < type.size() &&
                     std::ranges::all_of(type.substr(0, slash), IsTokenCharacter) &&
                     std::ranges::all_of(type.substr(slash + 1), IsTokenCharacter);
  return valid ? std::string(type) : "application/octet-stream";
}

// A file name parameter: a quoted-string for plain ASCII, RFC 2231 "name*=UTF-8''..." otherwise.
// Path separators are replaced, so a client cannot suggest where the file goes.
std::string FilenameParameter(std::string_view key, std::string_view filename) {
  std::string name;
  for (char c : OneLine(filename)) name += (c == '/' || c == '\\') ? '_' : c;
  if (name.size() > kFilenameLimit) {
    size_t length = kFilenameLimit;
    while (length > 1 && IsUtf8Continuation(name[length])) --length;
    name.resize(length);
  }
  if (name.empty()) name = "attachment";
  if (std::ranges::all_of(name, [](char c) { return static_cast<unsigned char>(c) < 0x7F; })) {
    std::string quoted = std::string(key) + "=\"";
    for (char c : name) {
      if (c == '"' || c == '\\') quoted += '\\';
      quoted += c;
    }
    return quoted + "\"";
  }
  std::string encoded = std::string(key) + "*=UTF-8''";
  for (char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (IsTokenCharacter(c) && c != '&') {
      encoded += c;
    } else {
      encoded += {'%', HexDigit(byte >> 4), HexDigit(byte)};
    }
  }
  return encoded;
}

std::string TextPart(std::string_view subtype, std::string_view body) {
  return "Content-Type: text/" + std::string(subtype) +
         "; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
         (body.empty() ? std::string(kCrlf) : QuotedPrintable(body));
}

std::string AttachmentPart(const MailAttachment& attachment) {
  const std::string content_id = AddressCharacters(attachment.content_id);
  return "Content-Type: " + ContentType(attachment.content_type) + "; " +
         FilenameParameter("name", attachment.filename) +
         (content_id.empty() ? "" : "\r\nContent-ID: <" + content_id + ">") +
         "\r\nContent-Disposition: " + (content_id.empty() ? "attachment; " : "inline; ") +
         FilenameParameter("filename", attachment.filename) +
         "\r\nContent-Transfer-Encoding: base64\r\n\r\n" + Base64Lines(attachment.bytes);
}

// The body of a multipart entity: each part after its delimiter, then the close delimiter.
std::string Multipart(std::string_view boundary, const std::vector<std::string>& parts) {
  std::string body;
  for (const std::string& part : parts) body += "--" + std::string(boundary) + "\r\n" + part;
  return body + "--" + std::string(boundary) + "--\r\n";
}

std::string MultipartHeader(std::string_view subtype, std::string_view boundary) {
  return "Content-Type: multipart/" + std::string(subtype) + ";\r\n boundary=\"" +
         std::string(boundary) + "\"\r\n";
}

// A digest of everything the message says, for boundaries that change only with the content.
std::string ContentDigest(const MailMessage& message) {
  std::string content;
  for (std::string_view field :
       {std::string_view(message.from_address), std::string_view(message.from_name),
        std::string_view(message.to_address), std::string_view(message.to_name),
        std::string_view(message.subject), std::string_view(message.text),
        std::string_view(message.html), std::string_view(message.message_id)}) {
    content += std::to_string(field.size()) + ":";
    content += field;
  }
  for (const MailAttachment& attachment : message.attachments) {
    for (std::string_view field :
         {std::string_view(attachment.filename), std::string_view(attachment.content_type),
          std::string_view(attachment.bytes), std::string_view(attachment.content_id)}) {
      content += std::to_string(field.size()) + ":";
      content += field;
    }
  }
  return Sha256Hex(content).substr(0, 32);
}

}  // namespace

std::string RenderMime(const MailMessage& message) {
  std::string mime = "From: " + Mailbox(message.from_address, message.from_name) + "\r\n" +
                     "To: " + Mailbox(message.to_address, message.to_name) + "\r\n" +
                     "Subject: " + UnstructuredText(message.subject) + "\r\n" +
                     "Date: " + DateHeader(message.date_us) + "\r\n";
  const std::string message_id = AddressCharacters(message.message_id);
  if (!message_id.empty()) mime += "Message-ID: <" + message_id + ">\r\n";
  mime += "MIME-Version: 1.0\r\nAuto-Submitted: auto-generated\r\n";

  const std::string digest = ContentDigest(message);
  std::string html = TextPart("html", message.html);
  std::vector<std::string> attached;
  std::vector<std::string> related = {html};
  for (const MailAttachment& attachment : message.attachments) {
    (attachment.content_id.empty() ? attached : related).push_back(AttachmentPart(attachment));
  }
  if (related.size() > 1) {
    const std::string related_boundary = "=_rel_" + digest;
    html = MultipartHeader("related", related_boundary) + "\r\n" +
           Multipart(related_boundary, related);
  }
  const std::string alternative_boundary = "=_alt_" + digest;
  const std::string alternative =
      Multipart(alternative_boundary, {TextPart("plain", message.text), html});
  if (attached.empty()) {
    return mime + MultipartHeader("alternative", alternative_boundary) + "\r\n" + alternative;
  }
  const std::string mixed_boundary = "=_mixed_" + digest;
  attached.insert(attached.begin(),
                  MultipartHeader("alternative", alternative_boundary) + "\r\n" + alternative);
  return mime + MultipartHeader("mixed", mixed_boundary) + "\r\n" +
         Multipart(mixed_boundary, attached);
}

bool IsTransportableAddress(std::string_view address) {
  const size_t at = address.find('@');
  return at != std::string_view::npos && at != 0 && at + 1 < address.size() &&
         address.find('@', at + 1) == std::string_view::npos &&
         AddressCharacters(address) == address;
}

}  // namespace esign::mail
