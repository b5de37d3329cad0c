#include "http/auth_routes.h"

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

ApiResult CreateMachineToken(const AuthService& auth, const ApiRequest& request) {
  auto body = ParseJsonObjectBody(request);
  if (!body) return Fail(body.error());
  auto client_id = StringField(*body, "clientId");
  if (!client_id) return Fail(client_id.error());
  auto secret = StringField(*body, "clientSecret");
  if (!secret) return Fail(secret.error());
  auto issued = auth.IssueToken(*client_id, *secret);
  if (!issued) return Fail(issued.error());
  return NoStore(ApiResponse::Json(200, boost::json::object{{"accessToken", issued->access_token},
                                                            {"tokenType", "Bearer"},
                                                            {"expiresIn", issued->expires_in},
                                                            {"scope", issued->scope}}));
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
  routes.Add(beast_http::verb::post, "/api/v1/auth/machine-token",
             RouteSpec{"createMachineToken", Auth::kNone,
                       [&auth](const ApiRequest& r) { return CreateMachineToken(auth, r); }});
  routes.Add(beast_http::verb::post, "/api/v1/auth/introspect",
             RouteSpec{"introspectToken", Auth::kBearer,
                       [&auth](const ApiRequest& r) { return IntrospectToken(auth, r); }});
  routes.Add(beast_http::verb::post, "/api/v1/auth/revoke",
             RouteSpec{"revokeToken", Auth::kBearer,
                       [&auth](const ApiRequest& r) { return RevokeToken(auth, r); }});
}

}  // namespace esign::http
