// The README's quickstart in TypeScript: token, create, send, both signatures (Ada through the
// hosted signing page's API, Grace through an integrator-managed session), then the signed PDF.
// Every request and answer is typed by src/api.d.ts, generated from the service's OpenAPI
// document (`npm run generate`).
// Usage: CLIENT_ID=... CLIENT_SECRET=... node dist/quickstart.js [http://127.0.0.1:8080]
import { writeFile } from "node:fs/promises";
import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type CreateContractRequest = components["schemas"]["CreateContractRequest"];
type ApiError = components["schemas"]["Error"];

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (printed by contractd at first start)`);
  return value;
}

// The value of a successful answer, or an exception naming the error code.
function ok<T>(what: string, result: { data?: T; error?: ApiError | unknown; response: Response }): T {
  if (result.data === undefined) {
    const error = result.error as ApiError | undefined;
    throw new Error(`${what}: ${result.response.status} ${error?.error.code ?? ""} ${error?.error.message ?? ""}`);
  }
  return result.data;
}

const base = process.argv[2] ?? "http://127.0.0.1:8080";
const client = createClient<paths>({ baseUrl: base });

const token = ok("token", await client.POST("/api/v1/auth/machine-token", {
  body: { clientId: required("CLIENT_ID"), clientSecret: required("CLIENT_SECRET") },
}));
// A JSON request answers `MachineToken`; RFC 6749's shape is the form request's answer.
if (!("accessToken" in token)) throw new Error("token: not the answer to a JSON request");
const auth = { Authorization: `Bearer ${token.accessToken}` };

// The mutual NDA of examples/requests/create-nda.json, checked against the schema by tsc.
const request: CreateContractRequest = {
  title: "Mutual NDA: Acme and Globex",
  templateId: "tpl_mutual_nda",
  data: {
    parties: {
      partyAName: "Acme GmbH", partyAAddress: "Hauptstrasse 1, 10115 Berlin",
      partyBName: "Globex Ltd", partyBAddress: "1 High Street, London",
    },
    terms: {
      effectiveDate: "2026-12-01", purpose: "Evaluating a joint venture in renewable storage",
      termMonths: 24, confidentialityYears: 5, governingLaw: "England and Wales",
    },
  },
  participants: [
    { action: "sign", recipientType: "individual", executionChannel: "platform_hosted",
      name: "Ada Lovelace", email: "ada@acme.example", templateRoleId: "party_a_signatory" },
    { action: "sign", recipientType: "individual", executionChannel: "integrator_managed",
      name: "Grace Hopper", email: "grace@globex.example", templateRoleId: "party_b_signatory" },
    { action: "receive_copy", recipientType: "individual", name: "Legal archive",
      email: "archive@acme.example", templateRoleId: "legal_copy" },
  ],
};
const contract = ok("create", await client.POST("/api/v1/contracts", { headers: auth, body: request }));
console.log(`created ${contract.id}`);

const sent = ok("send", await client.POST("/api/v1/contracts/{id}/send", {
  params: { path: { id: contract.id }, header: { "Idempotency-Key": `quickstart-send-${contract.id}` } },
  headers: auth,
}));
console.log(`sent ${sent.id}: ${sent.status}`);

const [ada, grace] = contract.participants;
if (!ada || !grace) throw new Error("the NDA has two signers");

// Ada signs on the hosted page: open the session's url in a browser, or sign through the page's API.
const hosted = ok("Ada's session", await client.POST("/api/v1/contracts/{id}/signing-sessions", {
  params: { path: { id: contract.id } }, headers: auth, body: { participantId: ada.participantId },
}));
if (!hosted.url) throw new Error("a platform_hosted session has a url");
console.log(`signing link for Ada: ${hosted.url}`);
const signingToken = hosted.url.slice(hosted.url.lastIndexOf("/sign/") + "/sign/".length);
ok("Ada signs", await client.POST("/api/v1/hosted-signing/{token}/complete", {
  params: { path: { token: signingToken } }, body: { signatureText: ada.name, consent: true },
}));
console.log("Ada signed");

// Grace signs in the integrator's own application, which reports it.
const managed = ok("Grace's session", await client.POST("/api/v1/contracts/{id}/signing-sessions", {
  params: { path: { id: contract.id } }, headers: auth, body: { participantId: grace.participantId },
}));
ok("Grace signs", await client.POST("/api/v1/signing-sessions/{sessionId}/complete", {
  params: { path: { sessionId: managed.sessionId } },
  headers: auth,
  body: {
    signerName: grace.name, signedAt: new Date().toISOString(), ipAddress: "203.0.113.9",
    userAgent: "Integrator app", authenticationMethod: "sso", consent: true,
  },
}));
console.log("Grace signed");

const status = ok("status", await client.GET("/api/v1/contracts/{id}/status", {
  params: { path: { id: contract.id } }, headers: auth,
}));
console.log(`status: ${status.status}`);

const pdf = ok("signed PDF", await client.GET("/api/v1/contracts/{id}/documents/signed-latest", {
  params: { path: { id: contract.id }, query: { download: true } },
  headers: auth,
  parseAs: "arrayBuffer",
}));
const bytes = Buffer.from(pdf);
if (bytes.subarray(0, 5).toString("latin1") !== "%PDF-") throw new Error("not a PDF");
const file = `signed-${contract.id}.pdf`;
await writeFile(file, bytes);
console.log(`signed PDF saved as ${file} (${bytes.length} bytes)`);
