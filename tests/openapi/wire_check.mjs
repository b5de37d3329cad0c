// Drives a live contractd through every operation family, as an integrator would, and checks each
// answer against the OpenAPI document (response_checker.mjs): its body with closed schemas, and
// every header its response documents (one the answer lacks fails), a few HEAD and OPTIONS
// requests and 405s included: the document cannot drift from the wire unnoticed. The server runs
// with its default rate limit, so the documented RateLimit-* headers are expected.
// Usage: CLIENT_ID=... CLIENT_SECRET=... READER_ID=... READER_SECRET=... \
//          node wire_check.mjs <openapi.json> <base url>
// READER_* is a client of the same organization with `contracts:read` only (for the 403s). Prints
// every mismatch and the operations and statuses checked; exits 1 on any mismatch.
import { readFile } from "node:fs/promises";
import { ResponseChecker } from "./response_checker.mjs";

const [file, base] = process.argv.slice(2);
const env = (name) => process.env[name] ?? (console.error(`set ${name}`), process.exit(2));
const doc = JSON.parse(await readFile(file, "utf8"));
const checker = new ResponseChecker(doc);
const problems = [];
// Idempotency keys of this run (a server may be checked more than once).
const run = Date.now().toString(36);

// One request; its answer is checked, and `expect` (a status) must be what came back.
async function call(method, path, { token, json, body, headers = {}, expect } = {}) {
  const h = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  if (json !== undefined) h["content-type"] ??= "application/json";
  const response = await fetch(base + path, {
    method, headers: h, body: json !== undefined ? JSON.stringify(json) : body,
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  problems.push(...checker.check(method, path, response.status, response.headers.get("content-type"),
                                 bytes, response.headers));
  if (expect !== undefined && response.status !== expect) {
    problems.push(`${method} ${path}: expected ${expect}, got ${response.status} ${bytes}`);
  }
  const isJson = (response.headers.get("content-type") ?? "").startsWith("application/json");
  return { status: response.status, headers: response.headers,
           json: isJson && bytes.length ? JSON.parse(bytes) : undefined };
}

const creds = { clientId: env("CLIENT_ID"), clientSecret: env("CLIENT_SECRET") };
const reader = { clientId: env("READER_ID"), clientSecret: env("READER_SECRET") };
const nda = JSON.parse(await readFile(new URL("../../examples/requests/create-nda.json",
                                              import.meta.url)));

try {
  // Service and authentication.
  await call("GET", "/api/v1/openapi.json", { expect: 200 });
  const token = (await call("POST", "/api/v1/auth/machine-token", { json: creds, expect: 200 }))
      .json.accessToken;
  const readerToken = (await call("POST", "/api/v1/auth/machine-token", { json: reader, expect: 200 }))
      .json.accessToken;
  await call("POST", "/api/v1/auth/machine-token",
             { json: { ...creds, clientSecret: "cs_wrong" }, expect: 401 });
  await call("POST", "/api/v1/auth/machine-token", { json: { clientId: 7 }, expect: 400 });
  await call("POST", "/api/v1/auth/machine-token",
             { body: "clientId=x", headers: { "content-type": "text/plain" }, expect: 415 });
  await call("POST", "/api/v1/auth/introspect", { token, json: { token }, expect: 200 });
  await call("POST", "/api/v1/auth/introspect", { token, json: { token: "nope" }, expect: 200 });
  const spare = (await call("POST", "/api/v1/auth/machine-token", { json: creds })).json.accessToken;
  await call("POST", "/api/v1/auth/revoke", { token, json: { token: spare }, expect: 200 });
  await call("GET", "/api/v1/contracts", { expect: 401 });
  await call("GET", "/api/v1/contracts", { token: spare, expect: 401 });

  // Webhook endpoints, created first so that the contracts' events make deliveries. Nothing listens
  // on port 9: every attempt fails, and is recorded.
  const endpoint = (await call("POST", "/api/v1/webhooks/endpoints", {
    token, expect: 201, headers: { "idempotency-key": `wire-endpoint-${run}` },
    json: { url: "http://127.0.0.1:9/hooks", eventTypes: ["contract.sent", "contract.completed"],
            description: "wire check" },
  })).json;
  await call("POST", "/api/v1/webhooks/endpoints",
             { token, json: { url: "ftp://example.com", eventTypes: [] }, expect: 400 });
  await call("GET", "/api/v1/webhooks/endpoints?limit=10", { token, expect: 200 });
  await call("GET", `/api/v1/webhooks/endpoints/${endpoint.id}`, { token, expect: 200 });
  await call("GET", "/api/v1/webhooks/endpoints/whe_UNKNOWN", { token, expect: 404 });
  await call("PATCH", `/api/v1/webhooks/endpoints/${endpoint.id}`,
             { token, json: { description: "wire check, renamed" }, expect: 200 });
  await call("POST", `/api/v1/webhooks/endpoints/${endpoint.id}/rotate-secret`,
             { token, expect: 200 });
  await call("GET", "/api/v1/webhooks/endpoints", { token: readerToken, expect: 403 });

  // Templates.
  await call("GET", "/api/v1/templates", { token, expect: 200 });
  await call("GET", "/api/v1/templates/tpl_mutual_nda", { token, expect: 200 });
  await call("GET", "/api/v1/templates/tpl_mutual_nda/published-version", { token, expect: 200 });
  await call("GET", "/api/v1/templates/tpl_unknown", { token, expect: 404 });

  // A draft: read, edit, the errors of editing.
  const draft = (await call("POST", "/api/v1/contracts", { token, json: nda, expect: 201 })).json;
  const id = draft.id;
  await call("POST", "/api/v1/contracts", { token: readerToken, json: nda, expect: 403 });
  await call("POST", "/api/v1/contracts", { token, json: { ...nda, templateId: 5 }, expect: 400 });
  await call("POST", "/api/v1/contracts",
             { token, body: "x".repeat(2 * 1024 * 1024), headers: { "content-type": "application/json" },
               expect: 413 });
  await call("POST", "/api/v1/contracts",
             { token, body: "{}", headers: { "content-type": "text/plain" }, expect: 415 });
  await call("DELETE", "/api/v1/contracts", { token, expect: 405 });
  await call("PUT", "/api/v1/openapi.json", { expect: 405 });
  await call("OPTIONS", "/api/v1/contracts", { expect: 204 });
  await call("OPTIONS", `/api/v1/contracts/${id}/evidence/bundle`, { expect: 204 });
  await call("HEAD", `/api/v1/contracts/${id}`, { token, expect: 200 });
  await call("HEAD", "/api/v1/contracts", { expect: 401 });
  await call("GET", `/api/v1/contracts/${id}`, { token, expect: 200 });
  await call("GET", "/api/v1/contracts/ctr_UNKNOWN", { token, expect: 404 });
  await call("GET", `/api/v1/contracts/${id}/status`, { token, expect: 200 });
  await call("GET", "/api/v1/contracts?status=draft&limit=5", { token, expect: 200 });
  await call("GET", "/api/v1/contracts?cursor=forged", { token, expect: 400 });
  const edited = (await call("PUT", `/api/v1/contracts/${id}/data`,
                             { token, json: { fieldValues: draft.fieldValues }, expect: 200 })).json;
  await call("PUT", `/api/v1/contracts/${id}/data`, {
    token, json: { fieldValues: draft.fieldValues }, headers: { "if-match": '"1"' }, expect: 412,
  });
  await call("PUT", `/api/v1/contracts/${id}/table-data`,
             { token, json: { tableData: edited.tableData ?? {} } });
  const inputOf = (p) => Object.fromEntries(Object.entries(p).filter(([k]) => [
    "participantId", "action", "recipientType", "name", "email", "organizationId", "executionChannel",
    "routingOrder", "providerConfigRef", "authentication"].includes(k)));
  const replaced = (await call("PUT", `/api/v1/contracts/${id}/participants`, {
    token, json: { participants: edited.participants.map(inputOf) }, expect: 200,
  })).json;
  await call("PUT", `/api/v1/contracts/${id}/role-bindings`, {
    token, expect: 200, json: { roleBindings: [
      { templateRoleId: "party_a_signatory", participantId: replaced.participants[0].participantId },
      { templateRoleId: "party_b_signatory", participantId: replaced.participants[1].participantId },
      { templateRoleId: "legal_copy", participantId: replaced.participants[2].participantId },
    ] },
  });
  await call("GET", `/api/v1/contracts/${id}/documents/rendered-unsigned`, { token, expect: 200 });
  await call("HEAD", `/api/v1/contracts/${id}/documents/rendered-unsigned`, { token, expect: 200 });

  // Sent: the lifecycle, then both signatures.
  await call("POST", `/api/v1/contracts/${id}/send`,
             { token, headers: { "idempotency-key": `wire-send-${run}` }, expect: 200 });
  await call("PUT", `/api/v1/contracts/${id}/data`,
             { token, json: { fieldValues: draft.fieldValues }, expect: 409 });
  await call("POST", `/api/v1/contracts/${id}/remind`, { token, json: {} });
  await call("POST", `/api/v1/contracts/${id}/remind`, { token, json: {} });
  const [ada, grace] = replaced.participants.map((p) => p.participantId);
  const sessions = `/api/v1/contracts/${id}/signing-sessions`;
  const first = (await call("POST", sessions, { token, json: { participantId: ada }, expect: 201 }))
      .json;
  await call("GET", sessions, { token, expect: 200 });
  await call("GET", `/api/v1/signing-sessions/${first.sessionId}`, { token, expect: 200 });
  await call("GET", "/api/v1/signing-sessions/ses_UNKNOWN", { token, expect: 404 });
  const refreshed = (await call("POST", `/api/v1/signing-sessions/${first.sessionId}/refresh`,
                                { token, json: { ttlSeconds: 600 }, expect: 200 })).json;
  const hosted = `/api/v1/hosted-signing/${refreshed.url.split("/sign/")[1]}`;
  await call("GET", hosted, { expect: 200 });
  await call("GET", `${hosted}/document`, { expect: 200 });
  await call("GET", `${hosted}/document/pages`, { expect: 200 });
  await call("GET", `${hosted}/document/pages/1?width=400`, { expect: 200 });
  await call("GET", `${hosted}/document/pages/99`);
  await call("GET", "/api/v1/hosted-signing/not-a-token", { expect: 404 });
  await call("GET", `/api/v1/signing-sessions/${first.sessionId}/document`, { token, expect: 200 });
  await call("POST", `/api/v1/signing-sessions/${first.sessionId}/cancel`, { token, json: {},
                                                                              expect: 200 });
  await call("POST", `${hosted}/complete`,
             { json: { signatureText: "Ada Lovelace", consent: true }, expect: 410 });
  await call("GET", hosted, { expect: 410 });
  const second = (await call("POST", sessions, { token, json: { participantId: ada }, expect: 201 }))
      .json;
  const hosted2 = `/api/v1/hosted-signing/${second.url.split("/sign/")[1]}`;
  await call("POST", `${hosted2}/complete`, { json: { signatureText: "Ada Lovelace" }, expect: 400 });
  await call("POST", `${hosted2}/complete`,
             { json: { signatureText: "Ada Lovelace", consent: true }, expect: 200 });
  const managed = (await call("POST", sessions, { token, json: { participantId: grace }, expect: 201 }))
      .json;
  await call("POST", `/api/v1/signing-sessions/${managed.sessionId}/complete`, {
    token, expect: 200, json: { signerName: "Grace Hopper", signedAt: new Date().toISOString(),
                                ipAddress: "203.0.113.9", userAgent: "Integrator app",
                                authenticationMethod: "sso", consent: true },
  });

  // Completed: documents and evidence.
  await call("GET", `/api/v1/contracts/${id}/status`, { token, expect: 200 });
  await call("GET", `/api/v1/contracts/${id}`, { token, expect: 200 });
  await call("GET", `/api/v1/contracts/${id}/documents/signed-latest?download=true`,
             { token, expect: 200 });
  await call("GET", `/api/v1/contracts/${id}/documents/signed-only`, { token, expect: 200 });
  await call("GET", `/api/v1/contracts/${id}/documents/artifact-revisions`, { token, expect: 200 });
  await call("GET", `/api/v1/contracts/${id}/documents/artifact-revisions/1/download`,
             { token, expect: 200 });
  await call("GET", `/api/v1/contracts/${id}/documents/artifact-revisions/99/download`,
             { token, expect: 404 });
  await call("GET", `/api/v1/contracts/${id}/evidence/audit-trail`, { token, expect: 200 });
  await call("GET", `/api/v1/contracts/${id}/evidence/bundle`, { token, expect: 200 });
  // The ledger's published trust, without a token: the bundle read just signed a head.
  await call("GET", "/api/v1/ledger/public-key", { expect: 200 });
  const head = (await call("GET", "/api/v1/ledger/tree-head", { expect: 200 })).json;
  await call("GET", `/api/v1/ledger/consistency?from=1&to=${head.size}`, { expect: 200 });
  await call("GET", `/api/v1/ledger/consistency?from=x&to=${head.size}`, { expect: 400 });
  await call("POST", `/api/v1/contracts/${id}/evidence/bundle`,
             { token, headers: { "idempotency-key": `wire-bundle-${run}` }, expect: 201 });
  await call("GET", `/api/v1/contracts/${id}/evidence/verification`, { token, expect: 200 });
  await call("GET", `/api/v1/contracts/${id}/notifications`, { token, expect: 200 });
  await call("GET", "/api/v1/contracts?status=completed&limit=5", { token, expect: 200 });

  // Ends without signatures: a decline on the hosted page, a void.
  const declined = (await call("POST", "/api/v1/contracts",
                               { token, json: { ...nda, sendNow: true }, expect: 201 })).json;
  const declineSession = (await call("POST", `/api/v1/contracts/${declined.id}/signing-sessions`, {
    token, json: { participantId: declined.participants[0].participantId }, expect: 201,
  })).json;
  await call("POST", `/api/v1/hosted-signing/${declineSession.url.split("/sign/")[1]}/decline`,
             { json: { reason: "Wrong counterparty" }, expect: 200 });
  const voided = (await call("POST", "/api/v1/contracts",
                             { token, json: { ...nda, sendNow: true }, expect: 201 })).json;
  const managedSession = (await call("POST", `/api/v1/contracts/${voided.id}/signing-sessions`, {
    token, json: { participantId: voided.participants[0].participantId }, expect: 201,
  })).json;
  await call("POST", `/api/v1/contracts/${voided.id}/void`,
             { token, json: { reason: "Sent by mistake" }, expect: 200 });
  await call("POST", `/api/v1/contracts/${voided.id}/void`,
             { token, json: { reason: "Again" }, expect: 409 });
  await call("GET", `/api/v1/hosted-signing/${managedSession.url.split("/sign/")[1]}`,
             { expect: 410 });

  // Provider callbacks: unsigned (the signature is checked before the provider is looked up).
  await call("POST", "/api/v1/provider-callbacks/unknown", { json: { sessionId: "ses_X" },
                                                             expect: 401 });

  // Deliveries: every attempt to port 9 fails and is recorded; a retry is accepted.
  let deliveries;
  for (let i = 0; i < 50; ++i) {
    deliveries = (await call("GET", `/api/v1/webhooks/endpoints/${endpoint.id}/deliveries`,
                             { token, expect: 200 })).json;
    if (deliveries.items.some((d) => d.attempts.length > 0)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  if (deliveries.items.length === 0) problems.push("no webhook delivery was recorded");
  else {
    await call("POST", `/api/v1/webhooks/deliveries/${deliveries.items[0].id}/retry`,
               { token, expect: 202 });
  }
  await call("POST", "/api/v1/webhooks/deliveries/dlv_UNKNOWN/retry", { token, expect: 404 });
  await call("DELETE", `/api/v1/webhooks/endpoints/${endpoint.id}`, { token, expect: 204 });
} catch (e) {
  problems.push(`the run stopped: ${e.stack}`);
}

console.log(`checked ${checker.checked.size} operation and status pairs:`);
console.log([...checker.checked].sort().join("\n"));
if (problems.length > 0) {
  console.error(`\n${problems.length} answer(s) differ from the document:\n`);
  console.error(problems.join("\n\n"));
  process.exit(1);
}
console.log("every answer matches the document");
