// The integrator's side of embedded signing, with nothing but Node.js: it allows its own origin to
// frame the organization's signing pages, creates and sends the NDA of examples/requests, opens a
// hosted session for its first signer, asks for an embed URL and serves index.html with it.
//
//   CONTRACTD_URL=http://127.0.0.1:8080 CLIENT_ID=cli_... CLIENT_SECRET=cs_... node serve.mjs
//
// then open http://localhost:3000/ (PORT changes the port). Every visit signs a new contract.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const contractd = process.env.CONTRACTD_URL || "http://127.0.0.1:8080";
const port = Number(process.env.PORT || 3000);
const origin = `http://localhost:${port}`;

async function call(method, path, token, body) {
  const response = await fetch(contractd + path, {
    method,
    headers: { Authorization: token ? `Bearer ${token}` : "", "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const { accessToken } = await call("POST", "/api/v1/auth/machine-token", null,
  { clientId: process.env.CLIENT_ID, clientSecret: process.env.CLIENT_SECRET });
// Only this origin may frame the organization's signing pages (organization:manage).
await call("PATCH", "/api/v1/organization", accessToken, { frameOrigins: [origin] });

async function newEmbedUrl() {
  const request = JSON.parse(readFileSync(join(here, "..", "requests", "create-nda.json"), "utf8"));
  request.participants[0].executionChannel = "platform_hosted";
  request.sendNow = true;
  const contract = await call("POST", "/api/v1/contracts", accessToken, request);
  const session = await call("POST", `/api/v1/contracts/${contract.id}/signing-sessions`, accessToken,
    { participantId: contract.participants[0].participantId });
  const embed = await call("POST", `/api/v1/signing-sessions/${session.sessionId}/embed-url`, accessToken);
  return embed.url;
}

createServer(async (request, response) => {
  if (request.url.startsWith("/index.html")) {
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(readFileSync(join(here, "index.html")));
    return;
  }
  if (request.url !== "/") {
    response.writeHead(404).end();
    return;
  }
  try {
    const url = await newEmbedUrl();
    response.writeHead(302, { Location: `/index.html?embed=${encodeURIComponent(url)}` }).end();
  } catch (error) {
    response.writeHead(502, { "Content-Type": "text/plain" }).end(String(error));
  }
}).listen(port, "127.0.0.1", () => console.log(`open ${origin}/`));
