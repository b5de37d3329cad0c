#include "documents/http_fetch.h"

#include <curl/curl.h>

#include <memory>
#include <utility>

namespace esign::documents {
namespace {

void InitCurl() {
  // libcurl asks for one global initialisation before any handle, and it is not thread-safe.
  [[maybe_unused]] static const bool initialised = curl_global_init(CURL_GLOBAL_DEFAULT) == 0;
}

struct CurlFree {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

struct Download {
  std::string body;
  size_t limit = 0;
  bool too_large = false;
};

size_t Collect(char* data, size_t size, size_t count, void* user) {
  auto* download = static_cast<Download*>(user);
  const size_t bytes = size * count;
  if (download->body.size() + bytes > download->limit) {
    download->too_large = true;
    return 0;  // libcurl stops with CURLE_WRITE_ERROR
  }
  download->body.append(data, bytes);
  return bytes;
}

}  // namespace

Result<std::string> FetchHttp(const HttpFetch& fetch) {
  InitCurl();
  const std::unique_ptr<CURL, CurlFree> handle(curl_easy_init());
  curl_slist* list = nullptr;
  bool listed = true;
  for (const std::string& header : fetch.headers) {
    curl_slist* longer = curl_slist_append(list, header.c_str());
    if (longer == nullptr) listed = false;
    if (longer != nullptr) list = longer;
  }
  const std::unique_ptr<curl_slist, CurlFree> headers(list);
  if (handle == nullptr || !listed) {
    return Fail(ErrorCode::kInternal, "cannot start an HTTP request");
  }
  CURL* curl = handle.get();
  Download download{.limit = fetch.max_response_bytes};
  std::string error(CURL_ERROR_SIZE, '\0');
  curl_easy_setopt(curl, CURLOPT_URL, fetch.url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error.data());
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(fetch.timeout.count()));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(fetch.timeout.count()));
  if (headers != nullptr) curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.get());
  if (fetch.post_body) {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, fetch.post_body->data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(fetch.post_body->size()));
  }
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Collect);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &download);
  const CURLcode code = curl_easy_perform(curl);
  if (download.too_large) {
    return Fail(ErrorCode::kUnavailable, fetch.what + "'s answer exceeds " +
                                             std::to_string(fetch.max_response_bytes) + " bytes");
  }
  if (code != CURLE_OK) {
    return Fail(ErrorCode::kUnavailable,
                fetch.what + " cannot be reached: " +
                    std::string(error[0] != '\0' ? error.c_str() : curl_easy_strerror(code)));
  }
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  if (status != 200) {
    return Fail(ErrorCode::kUnavailable, fetch.what + " answered HTTP " + std::to_string(status));
  }
  return std::move(download.body);
}

}  // namespace esign::documents
