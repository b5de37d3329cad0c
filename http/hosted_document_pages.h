// The frozen document's pages as images, for the hosted signing page on browsers that show no PDF
// (docs/signing.md, "Pages as images"). The caller (hosted_signing_routes.cc) has already checked
// the link and the signer's proof exactly as for the PDF; these only answer for the session.
// Both run on the worker pool: drawing a page is CPU-bound.
#pragma once

#include "http/api.h"
#include "http/signing_access.h"

namespace esign::http {

// 200 {documentSha256, pageCount, widths, pages: [{page, width, height}] (points),
// signatureBoxes: [{page, left, top, width, height}] (fractions of the page), fields: [{fieldId,
// type, required, name?, value?, page, left, top, width, height}]}: the signer's own signature
// places, where the sealed PDF will show their signature, and on a contract from uploads every
// field placed for them (a text field with its value), on its page of the composed PDF. Other
// signers' places are never listed; fields is empty for a contract from a template.
ApiResult HostedDocumentPages(const SigningRoutesDeps& deps, const LoadedSession& loaded);

// Path parameter `page` (1-based) at query `width` (default 800) as image/png. 400
// VALIDATION_FAILED for a page that is not a decimal number (digits only) or a width not offered;
// 404 NOT_FOUND for a number outside 1..pageCount, however large. ETag from the document's SHA-256,
// page and width (304 on If-None-Match); the bytes of one URL never change, so browsers keep them
// (private, immutable).
ApiResult HostedDocumentPageImage(const SigningRoutesDeps& deps, const ApiRequest& request,
                                  const LoadedSession& loaded);

}  // namespace esign::http
