// The API's JSON request bodies, parsed as the routes parse them (ParseJson, then the request's
// own reader) and decided by the domain as the command handler decides them. The first byte
// chooses the body; the rest is the body's text. Every body ends in a decision or in an error
// value, never in a crash. The route-local readers (auth, signing sessions, hosted signing,
// provider callbacks) are reached through fuzz_http_request and fuzz_provider_callback.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "domain/contract.h"
#include "domain/json_parse.h"
#include "domain/template_importer.h"
#include "http/contract_requests.h"
#include "webhooks/endpoint.h"

namespace esign {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The mutual NDA template and a draft created from examples/requests/create-nda.json: what the
// edit, send, void and remind bodies are decided against.
struct World {
  Template nda;
  ContractState draft;

  World() {
    auto imported = ImportTemplateText(ReadFile(SOURCE_DIR "/examples/templates/mutual-nda.json"));
    if (!imported) __builtin_trap();
    nda = std::move(*imported);
    auto body = ParseJson(ReadFile(SOURCE_DIR "/examples/requests/create-nda.json"));
    if (!body || !body->is_object()) __builtin_trap();
    auto created =
        Decide(ContractState{}, http::CommandFromRequest<CreateContract>(body->as_object()),
               Context("ctr_FUZZ"));
    if (!created) __builtin_trap();
    draft = Replay(*created);
  }

  DecisionContext Context(std::string contract_id) const {
    DecisionContext context;
    context.actor =
        Actor{.client_id = "cli_fuzz",
              .organization_id = "org_fuzz",
              .permissions = {"contracts:create", "contracts:update", "contracts:send"}};
    context.tmpl = &nda;
    context.now = "2026-11-20T10:00:00Z";
    context.contract_id = std::move(contract_id);
    for (int i = 0; i < 8; ++i) context.participant_ids.push_back("prt_FUZZ" + std::to_string(i));
    context.rendered_document_sha256 = std::string(64, 'a');
    return context;
  }
};

template <class Request>
void DecideOn(const World& world, const ContractState& state, const boost::json::object& body) {
  (void)Decide(state, http::CommandFromRequest<Request>(body), world.Context(state.id));
}

}  // namespace
}  // namespace esign

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace esign;  // NOLINT(google-build-using-namespace): a fuzz entry point
  static const World world;
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto parsed = ParseJson(text);
  if (!parsed) {
    if (parsed.error().code != ErrorCode::kValidationFailed) __builtin_trap();
    return 0;
  }
  if (data[0] % 12 == 10) {  // a template file's document, as the importer reads it
    (void)ImportTemplate(*parsed);
    return 0;
  }
  if (!parsed->is_object()) return 0;  // ParseJsonObjectBody refuses it (400)
  const boost::json::object& body = parsed->as_object();
  const webhooks::UrlPolicy policy;
  switch (data[0] % 12) {
    case 0:
      DecideOn<CreateContract>(world, ContractState{}, body);
      break;
    case 1:
      DecideOn<UpdateData>(world, world.draft, body);
      break;
    case 2:
      DecideOn<UpdateTableData>(world, world.draft, body);
      break;
    case 3:
      DecideOn<ReplaceParticipants>(world, world.draft, body);
      break;
    case 4:
      DecideOn<UpdateRoleBindings>(world, world.draft, body);
      break;
    case 5:
      DecideOn<SendContract>(world, world.draft, body);
      break;
    case 6:
      DecideOn<VoidContract>(world, world.draft, body);
      break;
    case 7:
      DecideOn<RemindParticipants>(world, world.draft, body);
      break;
    case 8:
      (void)webhooks::ParseCreateEndpoint(body, policy);
      break;
    case 9:
      (void)webhooks::ParseUpdateEndpoint(body, policy);
      break;
    default:
      (void)ImportTemplate(*parsed);
      break;
  }
  return 0;
}
