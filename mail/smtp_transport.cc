#include "mail/smtp_transport.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstring>
#include <memory>
#include <utility>

namespace esign::mail {
namespace {

using delivery::AttemptOutcome;

// What is recorded of a reply or an error: one line, short enough for a list of attempts.
constexpr size_t kReplyLimit = 300;

std::string ShortLine(std::string_view text) {
  std::string line;
  for (char c : text.substr(0, kReplyLimit)) {
    const auto byte = static_cast<unsigned char>(c);
    line += (byte < 0x20 || byte == 0x7F) ? ' ' : c;
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

void InitCurlOnce() {
  // libcurl asks for one global initialisation before any handle, and it is not thread-safe.
  [[maybe_unused]] static const bool initialised = curl_global_init(CURL_GLOBAL_DEFAULT) == 0;
}

struct CurlDeleter {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
  void operator()(CURLU* url) const { curl_url_cleanup(url); }
};
using CurlHandle = std::unique_ptr<CURL, CurlDeleter>;
using CurlList = std::unique_ptr<curl_slist, CurlDeleter>;
using CurlUrl = std::unique_ptr<CURLU, CurlDeleter>;

std::string UrlPart(CURLU* url, CURLUPart part, unsigned flags = 0) {
  char* text = nullptr;
  if (curl_url_get(url, part, &text, flags) != CURLUE_OK || text == nullptr) return "";
  std::string value(text);
  curl_free(text);
  return value;
}

bool IsLoopback(std::string host) {
  for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (host == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  in6_addr v6{};
  return inet_pton(AF_INET6, host.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

// The SMTP dialogue as libcurl reports it: the command each reply answers, so a failure can be
// told by its step. Only command verbs are kept: AUTH's continuation lines carry credentials.
struct Dialogue {
  std::string command;  // the verb last sent: "EHLO", "STARTTLS", "AUTH", "MAIL", "RCPT", "DATA"
  std::string pending;  // a reply line not complete yet
  int code = 0;         // the last complete reply
  std::string text;
  std::string answered;  // the command it answered; empty for the greeting

  void Sent(std::string_view line) {
    const std::string_view verb = line.substr(0, line.find_first_of(" \r\n"));
    for (std::string_view known :
         {"EHLO", "HELO", "STARTTLS", "AUTH", "MAIL", "RCPT", "DATA", "QUIT", "NOOP", "RSET"}) {
      if (verb == known) command = std::string(verb);
    }
  }
  void Received(std::string_view data) {
    pending.append(data);
    for (size_t end = pending.find('\n'); end != std::string::npos; end = pending.find('\n')) {
      std::string line = pending.substr(0, end);
      pending.erase(0, end + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      const bool final_line = line.size() >= 3 && std::isdigit(line[0]) && std::isdigit(line[1]) &&
                              std::isdigit(line[2]) && (line.size() == 3 || line[3] == ' ');
      // QUIT's farewell says nothing about the transaction before it.
      if (!final_line || command == "QUIT") continue;
      code = std::stoi(line.substr(0, 3));
      text = line.size() > 4 ? line.substr(4) : "";
      answered = command;
    }
  }
  bool RefusedSomething() const { return code >= 400; }
};

int OnCurlDebug(CURL* /*handle*/, curl_infotype type, char* data, size_t size, void* user) {
  auto& dialogue = *static_cast<Dialogue*>(user);
  if (type == CURLINFO_HEADER_OUT) dialogue.Sent(std::string_view(data, size));
  if (type == CURLINFO_HEADER_IN) dialogue.Received(std::string_view(data, size));
  return 0;
}

struct Upload {
  std::string_view rest;
};

size_t OnCurlRead(char* buffer, size_t size, size_t count, void* user) {
  auto& upload = *static_cast<Upload*>(user);
  const size_t length = std::min(size * count, upload.rest.size());
  std::memcpy(buffer, upload.rest.data(), length);
  upload.rest.remove_prefix(length);
  return length;
}

bool IsTlsFailure(CURLcode code) {
  switch (code) {
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
      return true;
    default:
      return false;
  }
}

// An envelope address goes into an SMTP command line: nothing that could end it or add another.
bool IsEnvelopeAddress(std::string_view address) {
  return std::ranges::all_of(address, [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte > 0x20 && byte != 0x7F && c != '<' && c != '>';
  });
}

// One session's outcome: libcurl's code, the dialogue, and what libcurl said.
struct Session {
  CURLcode result = CURLE_OK;
  Dialogue dialogue;
  std::string error;  // libcurl's error buffer
  long os_errno = 0;
  std::chrono::milliseconds latency{0};
};

}  // namespace

SmtpTransport::SmtpTransport(SmtpOptions options) : options_(std::move(options)) {
  InitCurlOnce();
  const CurlUrl url(curl_url());
  const bool parsed =
      url && curl_url_set(url.get(), CURLUPART_URL, options_.url.c_str(), 0) == CURLUE_OK;
  const std::string scheme = parsed ? UrlPart(url.get(), CURLUPART_SCHEME) : "";
  const std::string host = parsed ? UrlPart(url.get(), CURLUPART_HOST) : "";
  if (!parsed || (scheme != "smtp" && scheme != "smtps") || host.empty()) {
    url_error_ = "the SMTP URL must be smtp://host[:port] or smtps://host[:port]";
    return;
  }
  if (!UrlPart(url.get(), CURLUPART_USER).empty() ||
      !UrlPart(url.get(), CURLUPART_PASSWORD).empty()) {
    url_error_ = "the SMTP URL must not carry credentials: give the user and the password apart";
    return;
  }
  origin_ = scheme + "://" + host + ":" + UrlPart(url.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT);
  if (scheme == "smtps") {
    tls_ = Tls::kImplicit;
  } else if (options_.user.empty() && IsLoopback(host)) {
    tls_ = Tls::kWhenOffered;
  } else {
    tls_ = Tls::kRequired;
  }
}

std::string SmtpTransport::Describe() const {
  if (!url_error_.empty()) return "SMTP (invalid URL: " + url_error_ + ")";
  std::string tls = tls_ == Tls::kImplicit   ? "TLS"
                    : tls_ == Tls::kRequired ? "STARTTLS required"
                                             : "STARTTLS when offered";
  return "SMTP " + origin_ + " (" + tls +
         (options_.user.empty() ? ", no AUTH" : ", user " + options_.user) + ")";
}

namespace {

// Runs one SMTP session: with `mime`, a whole transaction; without, up to AUTH (CONNECT_ONLY
// stops before the transfer, and the clean-up sends QUIT).
Session RunSession(const SmtpOptions& options, SmtpTransport::Tls tls,
                   std::string_view envelope_from, std::string_view envelope_to,
                   const std::string_view* mime) {
  Session session;
  const CurlHandle handle(curl_easy_init());
  if (!handle) {
    session.result = CURLE_OUT_OF_MEMORY;
    return session;
  }
  CURL* curl = handle.get();
  std::array<char, CURL_ERROR_SIZE> error{};
  const long timeout_ms = static_cast<long>(
      std::chrono::duration_cast<std::chrono::milliseconds>(options.timeout).count());
  curl_easy_setopt(curl, CURLOPT_URL, options.url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error.data());
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_USE_SSL,
                   tls == SmtpTransport::Tls::kWhenOffered ? CURLUSESSL_TRY : CURLUSESSL_ALL);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
  if (!options.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, options.ca_file.c_str());
  if (!options.user.empty()) {
    curl_easy_setopt(curl, CURLOPT_USERNAME, options.user.c_str());
    curl_easy_setopt(curl, CURLOPT_PASSWORD, options.password.c_str());
  }
  // The dialogue reaches the debug callback only in verbose mode; nothing is printed.
  curl_easy_setopt(curl, CURLOPT_VERBOSE, 1L);
  curl_easy_setopt(curl, CURLOPT_DEBUGFUNCTION, OnCurlDebug);
  curl_easy_setopt(curl, CURLOPT_DEBUGDATA, &session.dialogue);

  const std::string from = "<" + std::string(envelope_from) + ">";
  const std::string to = "<" + std::string(envelope_to) + ">";
  const CurlList recipients(curl_slist_append(nullptr, to.c_str()));
  Upload upload{mime != nullptr ? *mime : std::string_view()};
  if (mime != nullptr) {
    curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from.c_str());
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients.get());
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, OnCurlRead);
    curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(mime->size()));
  } else {
    curl_easy_setopt(curl, CURLOPT_CONNECT_ONLY, 1L);
  }

  const auto start = std::chrono::steady_clock::now();
  session.result = curl_easy_perform(curl);
  session.latency = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  curl_easy_getinfo(curl, CURLINFO_OS_ERRNO, &session.os_errno);
  session.error = error.data();
  return session;
}

// What went wrong, in the words of docs/mail.md; empty when nothing did.
std::string Problem(const Session& session, const SmtpOptions& options, std::string_view origin,
                    SmtpTransport::Tls tls) {
  const Dialogue& dialogue = session.dialogue;
  const std::string at = std::string(origin);
  const std::string reply = std::to_string(dialogue.code) + " " + dialogue.text;
  if (session.result == CURLE_OK) return "";
  if (dialogue.RefusedSomething()) {
    if (dialogue.answered == "AUTH") {
      return "authentication as " + options.user + " rejected by " + at + ": " + reply;
    }
    if (dialogue.answered == "STARTTLS") return at + " refused STARTTLS: " + reply;
    if (dialogue.answered.empty() || dialogue.answered == "EHLO" || dialogue.answered == "HELO") {
      return at + " refused the session: " + reply;
    }
    return at + " answered " + dialogue.answered + " with " + reply;
  }
  const std::string seconds = std::to_string(options.timeout.count()) + " s";
  switch (session.result) {
    case CURLE_COULDNT_RESOLVE_HOST:
      return "cannot connect to " + at + ": no such host";
    case CURLE_COULDNT_CONNECT:
      return "cannot connect to " + at + ": " +
             (session.os_errno != 0 ? std::strerror(static_cast<int>(session.os_errno))
                                    : session.error);
    case CURLE_OPERATION_TIMEDOUT:
      if (dialogue.code == 0) return "cannot connect to " + at + ": timed out after " + seconds;
      return at + " did not answer within " + seconds +
             (dialogue.command.empty() ? "" : " (after " + dialogue.command + ")");
    case CURLE_USE_SSL_FAILED:
      return at + " does not offer STARTTLS, which is required " +
             (options.user.empty() ? "for a server that is not on loopback"
                                   : "before the password is sent") +
             (tls == SmtpTransport::Tls::kImplicit ? "" : " (smtps:// speaks TLS from the start)");
    case CURLE_LOGIN_DENIED:
      return at + " offers no authentication method this client can use for user " + options.user;
    default:
      break;
  }
  if (IsTlsFailure(session.result)) return "TLS handshake with " + at + " failed: " + session.error;
  return "SMTP session with " + at + " failed: " + curl_easy_strerror(session.result) +
         (session.error.empty() ? "" : " (" + session.error + ")");
}

}  // namespace

Status SmtpTransport::Check() {
  if (!url_error_.empty()) return Fail(ErrorCode::kValidationFailed, url_error_);
  const Session session = RunSession(options_, tls_, "", "", nullptr);
  if (session.result == CURLE_OK) return {};
  return Fail(ErrorCode::kUnavailable, ShortLine(Problem(session, options_, origin_, tls_)));
}

AttemptOutcome SmtpTransport::Send(std::string_view envelope_from, std::string_view envelope_to,
                                   std::string_view mime) {
  AttemptOutcome outcome;
  if (!url_error_.empty()) {
    outcome.kind = AttemptOutcome::Kind::kRetry;
    outcome.reply = ShortLine(url_error_);
    return outcome;
  }
  if (envelope_to.empty() || !IsEnvelopeAddress(envelope_from) || !IsEnvelopeAddress(envelope_to)) {
    outcome.kind = AttemptOutcome::Kind::kFailed;
    outcome.reply = "invalid envelope address";
    return outcome;
  }
  const Session session = RunSession(options_, tls_, envelope_from, envelope_to, &mime);
  const Dialogue& dialogue = session.dialogue;
  outcome.latency = session.latency;
  if (session.result == CURLE_OK) {
    outcome.kind = AttemptOutcome::Kind::kDelivered;
    outcome.code = dialogue.code;
    outcome.reply = ShortLine(dialogue.text);
    return outcome;
  }
  outcome.kind = AttemptOutcome::Kind::kRetry;
  outcome.reply = ShortLine(Problem(session, options_, origin_, tls_));
  if (dialogue.RefusedSomething()) {
    outcome.code = dialogue.code;
    outcome.reply = ShortLine(dialogue.text);
    // A 5xx to the transaction refuses this message for good; 530 (authentication or TLS
    // required first) is about the session, which a change of settings can mend.
    const bool transaction =
        dialogue.answered == "MAIL" || dialogue.answered == "RCPT" || dialogue.answered == "DATA";
    if (transaction && dialogue.code >= 500 && dialogue.code != 530) {
      outcome.kind = AttemptOutcome::Kind::kFailed;
    } else if (!transaction) {
      outcome.reply = ShortLine(Problem(session, options_, origin_, tls_));
    }
  }
  return outcome;
}

}  // namespace esign::mail
