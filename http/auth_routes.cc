#include "http/auth_routes.h"

#include <algorithm>
#include <map>
#include <optional>

#include <boost/url/params_view.hpp>
#include <boost/url/pct_string_view.hpp>

#include "base/base64.h"
#include "http/auth_service.h"
#include "http/error_response.h"

namespace esign::http {
namespace {

namespace beast_http = boost::beast::http;

Result<std::string> StringField(const boost::json::object& body, std::string_view field) {
  const auto* value = body.if_contains(field);
  if (!value) {
    return Fail(ErrorCode::kValidationFailed, std::string(field) + " is required",
                std::string(field), "required");
  }
  if (!value->is_string()) {
    return Fail(ErrorCode::kValidationFailed, std::string(field) + " must be a string",
                std::string(field), "must be a string");
  }
  return std::string(value->as_string());
}

// Token responses must not be cached (RFC 6749 section 5.1).
ApiResponse NoStore(ApiResponse response) {
  response.WithHeader("Cache-Control", "no-store").WithHeader("Pragma", "no-cache");
  return response;
}

eventstore::Actor ActorOf(const ApiRequest& request) {
  const Principal& caller = request.Caller();
  return eventstore::Actor{
      .client_id = caller.client_id,
      .organization_id = caller.organization_id,
      .request_id = request.request_id,
      .ip = request.remote_ip,
      .user_agent = std::string(request.UserAgent()),
  };
}

// An error of the OAuth 2.0 token endpoint (RFC 6749 section 5.2), in its own body shape:
// clients written against the RFC read `error`, not our error body. The request id stays in
// the X-Request-Id header.
ApiResponse OAuthError(unsigned status, std::string_view error, std::string_view description) {
  auto response = NoStore(ApiResponse::Json(
      status,
      boost::json::object{{"error", error},
                          {"error_description", BoundedText(description, kMaxMessageBytes)}}));
  if (status == 401) {
    response.WithHeader("WWW-Authenticate",
                        std::string(AuthenticationChallenge(ErrorCode::kInvalidClient)));
  }
  return response;
}

struct ClientCredentials {
  std::string client_id;
  std::string client_secret;
};

// application/x-www-form-urlencoded decoding: percent escapes, and "+" for a space.
std::optional<std::string> FormDecode(std::string_view text) {
  auto encoded = boost::urls::make_pct_string_view(text);
  if (!encoded) return std::nullopt;
  boost::urls::encoding_opts options;
  options.space_as_plus = true;
  return encoded->decode(options);
}

// HTTP Basic client authentication (RFC 6749 section 2.3.1): base64 of the form-encoded id,
// a colon and the form-encoded secret. Nothing when the header is absent or another scheme.
std::optional<std::optional<ClientCredentials>> BasicCredentials(std::string_view authorization) {
  constexpr std::string_view kScheme = "basic ";
  if (authorization.size() < kScheme.size()) return std::nullopt;
  for (size_t i = 0; i < kScheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(authorization[i])) != kScheme[i]) {
      return std::nullopt;
    }
  }
  std::string_view encoded = authorization.substr(kScheme.size());
  while (!encoded.empty() && encoded.front() == ' ') encoded.remove_prefix(1);
  const auto decoded = Base64Decode(encoded);
  const auto colon = decoded ? decoded->find(':') : std::string::npos;
  if (colon == std::string::npos) return std::optional<ClientCredentials>();
  auto id = FormDecode(std::string_view(*decoded).substr(0, colon));
  auto secret = FormDecode(std::string_view(*decoded).substr(colon + 1));
  if (!id || !secret) return std::optional<ClientCredentials>();
  return std::optional<ClientCredentials>(ClientCredentials{std::move(*id), std::move(*secret)});
}

// "a b  c" -> {"a", "b", "c"}, each once.
std::vector<std::string> ScopeList(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    std::string item(text.substr(start, end - start));
    if (!item.empty() && std::find(out.begin(), out.end(), item) == out.end()) {
      out.push_back(std::move(item));
    }
    start = end + 1;
  }
  return out;
}

// The OAuth 2.0 client credentials grant (RFC 6749 sections 4.4 and 2.3.1): the form body with
// grant_type=client_credentials, the client's credentials in the body or in HTTP Basic (one of
// the two), an optional scope. Fills `token`, or answers RFC 6749's error body.
std::optional<ApiResult> ReadTokenForm(const ApiRequest& request, TokenRequest& token) {
  std::map<std::string, std::string, std::less<>> form;
  try {
    boost::urls::encoding_opts options;
    options.space_as_plus = true;
    for (const auto& param : boost::urls::params_view(request.http.body(), options)) {
      // RFC 6749 section 3.2: parameters must not be included more than once. The name is
      // echoed cut, as every echoed text (error_response.h).
      if (!form.emplace(param.key, param.value).second) {
        return OAuthError(
            400, "invalid_request",
            "the parameter " + BoundedText(param.key, kMaxDetailTextBytes) + " is repeated");
      }
    }
  } catch (const std::exception&) {
    return OAuthError(400, "invalid_request", "the body is not application/x-www-form-urlencoded");
  }
  auto field = [&](std::string_view name) -> const std::string* {
    auto it = form.find(name);
    return it == form.end() ? nullptr : &it->second;
  };
  const std::string* grant_type = field("grant_type");
  if (!grant_type) return OAuthError(400, "invalid_request", "grant_type is required");
  if (*grant_type != "client_credentials") {
    return OAuthError(400, "unsupported_grant_type", "only client_credentials is supported");
  }
  auto basic = BasicCredentials(request.Header("Authorization"));
  const std::string* body_id = field("client_id");
  const std::string* body_secret = field("client_secret");
  if (basic && body_secret) {
    return OAuthError(400, "invalid_request",
                      "authenticate with HTTP Basic or with client_secret, not both");
  }
  if (basic) {
    if (!*basic) return OAuthError(401, "invalid_client", "malformed HTTP Basic credentials");
    token.client_id = std::move((*basic)->client_id);
    token.client_secret = std::move((*basic)->client_secret);
    if (body_id && *body_id != token.client_id) {
      return OAuthError(400, "invalid_request", "client_id differs from the authenticated one");
    }
  } else {
    if (!body_id || !body_secret) {
      return OAuthError(401, "invalid_client",
                        "client authentication is required: HTTP Basic, or client_id and "
                        "client_secret in the body");
    }
    token.client_id = *body_id;
    token.client_secret = *body_secret;
  }
  if (const std::string* text = field("scope"); text && !ScopeList(*text).empty()) {
    token.scope = ScopeList(*text);
  }
  return std::nullopt;
}

// RFC 6749 section 5.1's token response, or its section 5.2 error body.
ApiResult FormTokenAnswer(Result<IssuedToken> issued) {
  if (!issued) {
    if (issued.error().code == ErrorCode::kInvalidClient) {
      return OAuthError(401, "invalid_client", "client authentication failed");
    }
    if (issued.error().code == ErrorCode::kPermissionDenied) {
      return OAuthError(400, "invalid_scope",
                        "the requested scope exceeds the client's permissions");
    }
    return Fail(issued.error());
  }
  return NoStore(ApiResponse::Json(200, boost::json::object{{"access_token", issued->access_token},
                                                            {"token_type", "Bearer"},
                                                            {"expires_in", issued->expires_in},
                                                            {"scope", issued->scope}}));
}

bool IsFormBody(const ApiRequest& request) {
  std::string type(
      request.Header("Content-Type").substr(0, request.Header("Content-Type").find(';')));
  while (!type.empty() && type.back() == ' ') type.pop_back();
  for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return type == "application/x-www-form-urlencoded";
}

// The JSON form {clientId, clientSecret}. Fills `token`, or answers the API's error body.
std::optional<ApiResult> ReadTokenJson(const ApiRequest& request, TokenRequest& token) {
  auto body = ParseJsonObjectBody(request);
  if (!body) return Fail(body.error());
  auto client_id = StringField(*body, "clientId");
  if (!client_id) return Fail(client_id.error());
  auto secret = StringField(*body, "clientSecret");
  if (!secret) return Fail(secret.error());
  token.client_id = std::move(*client_id);
  token.client_secret = std::move(*secret);
  return std::nullopt;
}

ApiResult JsonTokenAnswer(Result<IssuedToken> issued) {
  if (!issued) return Fail(issued.error());
  return NoStore(ApiResponse::Json(200, boost::json::object{{"accessToken", issued->access_token},
                                                            {"tokenType", "Bearer"},
                                                            {"expiresIn", issued->expires_in},
                                                            {"scope", issued->scope}}));
}

// Both forms: the request is read here, on a worker; the secret is checked on the service's own
// check threads, throttled (AuthService::IssueTokenAsync). A throttled or queued-out request gets
// the API's error body with Retry-After in both forms: RFC 6749 has no error for either.
void CreateMachineToken(AuthService& auth, const ApiRequest& request,
                        std::function<void(ApiResult)> done) {
  const bool form = IsFormBody(request);
  TokenRequest token;
  if (auto answered = form ? ReadTokenForm(request, token) : ReadTokenJson(request, token)) {
    return done(std::move(*answered));
  }
  token.remote_ip = request.remote_ip;
  auth.IssueTokenAsync(std::move(token), [form, request_id = request.request_id,
                                          done = std::move(done)](TokenAnswer answer) {
    if (answer.retry_after_seconds > 0 && !answer.issued) {
      return done(NoStore(
          RetryLaterResponse(answer.issued.error(), request_id, answer.retry_after_seconds)));
    }
    done(form ? FormTokenAnswer(std::move(answer.issued))
              : JsonTokenAnswer(std::move(answer.issued)));
  });
}

ApiResult IntrospectToken(const AuthService& auth, const ApiRequest& request) {
  auto body = ParseJsonObjectBody(request);
  if (!body) return Fail(body.error());
  auto token = StringField(*body, "token");
  if (!token) return Fail(token.error());
  return NoStore(ApiResponse::Json(200, auth.Introspect(request.Caller(), *token)));
}

ApiResult RevokeToken(AuthService& auth, const ApiRequest& request) {
  auto body = ParseJsonObjectBody(request);
  if (!body) return Fail(body.error());
  auto token = StringField(*body, "token");
  if (!token) return Fail(token.error());
  if (Status revoked = auth.Revoke(request.Caller(), *token, ActorOf(request)); !revoked) {
    return Fail(revoked.error());
  }
  return ApiResponse::Json(200, boost::json::object{});
}

}  // namespace

void AddAuthRoutes(ApiRoutes& routes, AuthService& auth) {
  routes.Add(
      beast_http::verb::post, "/api/v1/auth/machine-token",
      RouteSpec{.operation_id = "createMachineToken",
                .auth = Auth::kNone,
                .body_types = BodyTypes::kJsonOrForm,
                .async_handler = [&auth](const ApiRequest& r, std::function<void(ApiResult)> done) {
                  CreateMachineToken(auth, r, std::move(done));
                }});
  routes.Add(beast_http::verb::post, "/api/v1/auth/introspect",
             RouteSpec{"introspectToken", Auth::kBearer,
                       [&auth](const ApiRequest& r) { return IntrospectToken(auth, r); }});
  routes.Add(beast_http::verb::post, "/api/v1/auth/revoke",
             RouteSpec{"revokeToken", Auth::kBearer,
                       [&auth](const ApiRequest& r) { return RevokeToken(auth, r); }});
}

}  // namespace esign::http
