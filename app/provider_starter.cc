#include "app/provider_starter.h"

#include <openssl/evp.h>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>
#include <boost/url.hpp>
#include <iostream>

#include "eventstore/event_record.h"
#include "http/provider_callback_routes.h"

namespace esign::app {
namespace {

namespace beast = boost::beast;
constexpr int kAttempts = 3;
constexpr auto kTimeout = std::chrono::seconds(10);

std::string Base64(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

}  // namespace

Result<unsigned> PostJson(const std::string& url, const std::string& body,
                          const std::vector<std::pair<std::string, std::string>>& headers) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed || parsed->scheme() != "http") {
    return Fail(ErrorCode::kUnavailable, "only http:// start URLs can be reached: " + url);
  }
  try {
    boost::asio::io_context io;
    beast::tcp_stream stream(io);
    boost::asio::ip::tcp::resolver resolver(io);
    const std::string port = parsed->has_port() ? std::string(parsed->port()) : "80";
    stream.expires_after(kTimeout);
    stream.connect(resolver.resolve(std::string(parsed->host()), port));
    beast::http::request<beast::http::string_body> request(
        beast::http::verb::post,
        parsed->encoded_target().empty() ? "/" : std::string(parsed->encoded_target()), 11);
    request.set(beast::http::field::host, std::string(parsed->host()));
    request.set(beast::http::field::content_type, "application/json");
    for (const auto& [name, value] : headers) request.set(name, value);
    request.body() = body;
    request.prepare_payload();
    beast::http::write(stream, request);
    beast::flat_buffer buffer;
    beast::http::response_parser<beast::http::string_body> parser;
    parser.body_limit(size_t{64} * 1024);  // only the status matters
    beast::http::read(stream, buffer, parser);
    beast::error_code ignored;
    stream.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
    return parser.get().result_int();
  } catch (const std::exception& e) {
    return Fail(ErrorCode::kUnavailable, std::string("POST ") + url + ": " + e.what());
  }
}

ProviderStarter::ProviderStarter(const ProviderRegistry& providers,
                                 const eventstore::BlobStore& blobs,
                                 std::function<std::string()> callback_base)
    : providers_(providers), blobs_(blobs), callback_base_(std::move(callback_base)) {
  worker_ = std::jthread([this](const std::stop_token& stop) { Run(stop); });
}

ProviderStarter::~ProviderStarter() {
  worker_.request_stop();
  wake_.notify_all();
}

void ProviderStarter::Start(const ContractState& contract, const SigningSession& session) {
  auto provider = providers_.Find(session.provider_id);
  if (!provider || provider->start_url.empty()) return;
  auto document = blobs_.Get(session.document_sha256);
  const Participant* signer = contract.FindParticipant(session.participant_id);
  boost::json::object body{
      {"sessionId", session.session_id},
      {"contractId", contract.id},
      {"participantId", session.participant_id},
      {"organizationId", signer && signer->organization_id ? *signer->organization_id : ""},
      {"signerName", signer ? signer->name : ""},
      {"documentSha256", session.document_sha256},
      {"documentBase64", document ? Base64(*document) : ""},
      {"expiresAt", session.expires_at},
      {"callbackUrl", callback_base_() + "/api/v1/provider-callbacks/" + provider->id}};
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(Job{provider->start_url, provider->secret, boost::json::serialize(body),
                        session.session_id});
  }
  wake_.notify_one();
}

void ProviderStarter::Run(const std::stop_token& stop) {
  std::unique_lock lock(mutex_);
  while (!stop.stop_requested()) {
    if (!wake_.wait(lock, stop, [this] { return !jobs_.empty(); })) return;
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    for (int attempt = 1; attempt <= kAttempts && !stop.stop_requested(); ++attempt) {
      const std::string timestamp =
          std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count());
      auto status = PostJson(
          job.url, job.body,
          {{"X-Provider-Timestamp", timestamp},
           {"X-Provider-Signature", http::ProviderSignature(job.secret, timestamp, job.body)}});
      if (status && *status >= 200 && *status < 300) {
        std::cerr << "contractd: provider started for session " << job.session_id << std::endl;
        break;
      }
      std::cerr << "contractd: starting the provider for session " << job.session_id
                << " failed (attempt " << attempt
                << "): " << (status ? "HTTP " + std::to_string(*status) : status.error().message)
                << std::endl;
      std::this_thread::sleep_for(std::chrono::seconds(attempt * 2));
    }
    lock.lock();
  }
}

}  // namespace esign::app
