// The signing family (DESIGN section 9): 12 operations.
//   1-8  the integrator's, bearer-authenticated with signing:manage, on contracts its
//        organization controls: create, list, get, cancel, refresh, document, complete and
//        decline (the last two for integrator_managed sessions).
//   9-12 the hosted signing page's, authenticated only by the link's token in the path.
// Embedded signing (DESIGN 23, embedded_signing_routes.cc): the integrator's embed URL, the page
// it opens inside the integrator's frame, and the script of the <contract-signing> element.
// Sessions live in their contract's stream; the session index (projections) only says which
// contract holds a session or a token, and the contract's events decide the rest.
#pragma once

#include <functional>
#include <string>

#include "commands/contract_commands.h"
#include "commands/organization_commands.h"
#include "domain/clock.h"
#include "domain/id_generator.h"
#include "http/api.h"

namespace esign::projections {
class SigningSessionIndex;
}
namespace esign::documents {
class PageImages;
}

namespace esign::http {

struct SigningRoutesDeps {
  commands::ContractCommandHandler& commands;
  const projections::SigningSessionIndex& sessions;
  // Waits (bounded) until the read side has applied every event appended so far: a session
  // created a moment ago is then found by id and by token.
  std::function<void()> catch_up;
  eventstore::BlobStore& blobs;  // the documents to sign; signature images
  commands::TemplateLookup templates;
  IdGenerator& ids;
  const Clock& clock;
  commands::ResolveProvider resolve_provider;
  // The signing links' origin, e.g. "https://sign.example.com": --public-url, else the address
  // the service listens on. Never taken from a request header.
  std::function<std::string()> public_origin;
  // Checks the codes and proofs of signers who must prove who they are (hosted page); without
  // it such signers cannot sign through the page.
  const SignerSecrets* signer_secrets = nullptr;
  // Draws the document's pages for the hosted page (documents/page_images.h); without it the
  // page routes answer 503 UNAVAILABLE.
  const documents::PageImages* page_images = nullptr;
  // The organization's name, frame origins and branding (commands/organization_commands.h);
  // without it pages are unbranded and no session can be embedded.
  std::function<Result<commands::OrganizationProfile>(std::string_view organization_id)>
      organization;
};

void AddSigningRoutes(ApiRoutes& routes, const SigningRoutesDeps& deps);

// The parts, by file.
void AddIntegratorSigningRoutes(ApiRoutes& routes, const SigningRoutesDeps& deps);
void AddHostedSigningRoutes(ApiRoutes& routes, const SigningRoutesDeps& deps);
void AddEmbeddedSigningRoutes(ApiRoutes& routes, const SigningRoutesDeps& deps);

}  // namespace esign::http
