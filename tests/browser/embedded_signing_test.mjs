// Embedded signing in a real browser (DESIGN 23): the integrator's page of examples/embedded, on
// another loopback origin than contractd, frames the signing page with the <contract-signing>
// element; the signer signs inside the frame and the parent hears signing.loaded then
// signing.completed, every message from contractd's origin; one who declines, signing.declined.
// A used embed URL and one past its five minutes (contractd's clock moved by its admin command)
// tell the parent signing.error and signing.expired. A page on an origin the organization does
// not allow is refused the frame by the browser itself and hears nothing.
//
// Usage: node embedded_signing_test.mjs CONTRACTD_BINARY ARTIFACT_DIR
// Environment: CHROMIUM (default /usr/bin/chromium).
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createConnection } from "node:net";
import { join } from "node:path";

import {
  browserRun, check, checkAccessibility, checkEqual, demoApi, DESKTOP, launchChromium, ok, runTest,
  sourceDir, startContractd, testArguments,
} from "./harness.mjs";

const { contractdBinary, artifactDir } = testArguments("embedded_signing_test.mjs");
const OVERALL_TIMEOUT_MS = 200_000;
const EXAMPLE_PAGE = readFileSync(join(sourceDir, "examples", "embedded", "index.html"));

// A server for the integrator's page on a free loopback port.
async function integratorServer() {
  const server = createServer((request, response) => {
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(EXAMPLE_PAGE);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

// One admin command on contractd's socket; its answer line.
function admin(dataDir, command) {
  return new Promise((resolve, reject) => {
    const socket = createConnection(join(dataDir, "admin.sock"));
    let answer = "";
    socket.on("connect", () => socket.write(JSON.stringify(command) + "\n"));
    socket.on("data", (chunk) => {
      answer += chunk;
      if (answer.includes("\n")) {
        socket.end();
        resolve(answer.trim());
      }
    });
    socket.on("error", reject);
  });
}

async function sendNda(api, title) {
  const request = JSON.parse(readFileSync(join(sourceDir, "examples", "requests", "create-nda.json"), "utf8"));
  request.title = title;
  for (const p of request.participants) if (p.action === "sign") p.executionChannel = "platform_hosted";
  request.sendNow = true;
  const contract = await api.expect(201, "POST", "/api/v1/contracts", request);
  return { id: contract.id, ada: contract.participants[0].participantId,
    grace: contract.participants[1].participantId };
}

async function embedUrl(api, contractId, participantId) {
  const session = await api.expect(201, "POST", `/api/v1/contracts/${contractId}/signing-sessions`,
    { participantId });
  const embed = await api.expect(201, "POST", `/api/v1/signing-sessions/${session.sessionId}/embed-url`);
  return { ...embed, sessionId: session.sessionId };
}

// Opens the integrator's page framing `url`; every message the window receives is recorded with
// its origin, before any script of the page runs.
async function openIntegratorPage(context, origin, url, problems, consoleLines = []) {
  const page = await context.newPage();
  page.on("console", (message) => consoleLines.push(message.text()));
  page.on("pageerror", (error) => problems.push(`script error on the integrator's page: ${error.message}`));
  await page.addInitScript(() => {
    window.allMessages = [];
    window.addEventListener("message", (event) => {
      window.allMessages.push({ origin: event.origin, type: event.data && event.data.type });
    });
  });
  await page.goto(`${origin}/index.html?embed=${encodeURIComponent(url)}`);
  return page;
}

async function waitForEvent(page, type, what) {
  await page.waitForFunction((t) => window.signingEvents.some((e) => e.type === t), type,
    { timeout: 20_000 }).catch(() => { throw new Error(`${what}: no ${type} event`); });
}

async function main() {
  await browserRun(artifactDir, "embedded-signing", async (run) => {
    run.server = await startContractd(contractdBinary, run.dataDir, ["--clock-offset", "0"]);
    const contractdOrigin = `http://127.0.0.1:${run.server.port}`;
    const api = await demoApi(run.server);
    const allowed = await integratorServer();
    const refused = await integratorServer();
    // Another host name than contractd's: a different origin, as an integrator's app would be.
    const allowedOrigin = `http://localhost:${allowed.address().port}`;
    const refusedOrigin = `http://localhost:${refused.address().port}`;
    try {
      await api.expect(200, "PATCH", "/api/v1/organization",
        { frameOrigins: [allowedOrigin], accentColor: "#0b6e4f" });
      run.browser = await launchChromium();
      const context = await run.browser.newContext(DESKTOP);

      // 1. Ada signs inside the integrator's page.
      const nda = await sendNda(api, "Mutual NDA: signed inside the app");
      const embed = await embedUrl(api, nda.id, nda.ada);
      const page = await openIntegratorPage(context, allowedOrigin, embed.url, run.problems);
      run.page = page;
      await waitForEvent(page, "signing.loaded", "the framed page");
      const frame = page.frameLocator("contract-signing iframe");
      await frame.locator("#signing").waitFor({ state: "visible", timeout: 20_000 });
      const accent = await frame.locator("#sign-button").evaluate((b) => getComputedStyle(b).backgroundColor);
      checkEqual(accent, "rgb(11, 110, 79)", "the organization's accent colour on the Sign button");
      const height = await page.locator("contract-signing iframe").evaluate((f) => f.getBoundingClientRect().height);
      check(height > 600, `the frame grows to its page (height ${height})`);
      ok(`the page loads in the frame, in the organization's colour, ${Math.round(height)} px high`);
      await checkAccessibility(page, "the integrator's page with the signing frame");
      // axe in the parent does not enter the other origin's frame: checked in the frame itself,
      // once its pages are drawn.
      await frame.locator(".sig-box").first().scrollIntoViewIfNeeded();
      await frame.locator('.page-sheet[data-state="loaded"] .sig-box').first().waitFor({ timeout: 20_000 });
      const framed = page.frames().find((f) => f.url().startsWith(`${contractdOrigin}/embed/`));
      check(framed !== undefined, `the signing frame among ${page.frames().map((f) => f.url()).join(", ")}`);
      await checkAccessibility(framed, "the signing page in the frame, its pages drawn", { places: true });
      await frame.getByLabel("Type your full name as your signature").fill("Ada Lovelace");
      await frame.getByRole("checkbox", { name: /I agree to sign electronically/ }).check();
      await frame.getByRole("button", { name: "Sign", exact: true }).click();
      await waitForEvent(page, "signing.completed", "after signing");
      const events = await page.evaluate(() => window.signingEvents);
      checkEqual(events.map((e) => e.type).join(","), "signing.loaded,signing.completed", "the events in order");
      for (const event of events) {
        checkEqual(event.sessionId, embed.sessionId, `${event.type} sessionId`);
        checkEqual(event.contractId, nda.id, `${event.type} contractId`);
      }
      const messages = await page.evaluate(() => window.allMessages);
      check(messages.length >= 2 && messages.every((m) => m.origin === contractdOrigin),
        `every message came from contractd's origin: ${JSON.stringify(messages)}`);
      const status = await api.expect(200, "GET", `/api/v1/contracts/${nda.id}/status`);
      checkEqual(status.participants.find((p) => p.participantId === nda.ada).state, "signed",
        "Ada's state through the API");
      ok("signed inside the frame: signing.loaded then signing.completed, from contractd's origin only");

      // 2. An embed URL opened once and then again: the frame says why, the parent hears
      // signing.error.
      const graceEmbed = await embedUrl(api, nda.id, nda.grace);
      const show = (url) => page.evaluate((src) => {
        window.signingEvents.length = 0;
        document.querySelector("contract-signing").setAttribute("src", src);
      }, url);
      await show(graceEmbed.url);
      await waitForEvent(page, "signing.loaded", "Grace's framed page");
      await show(graceEmbed.url);
      await waitForEvent(page, "signing.error", "the used embed URL");
      checkEqual((await page.evaluate(() => window.signingEvents))[0].code, "SIGNING_SESSION_CANCELLED",
        "the used URL's error code");
      await frame.locator("#notice").waitFor({ state: "visible", timeout: 15_000 });
      ok("a used embed URL shows its notice in the frame and tells the parent signing.error");

      // 3. Past five minutes: signing.expired.
      const late = await embedUrl(api, nda.id, nda.grace);
      const advanced = await admin(run.dataDir, { command: "clock.advance", seconds: 301 });
      check(advanced.includes('"ok":true'), `clock.advance: ${advanced}`);
      await show(late.url);
      await waitForEvent(page, "signing.expired", "the expired embed URL");
      ok("an embed URL past five minutes tells the parent signing.expired");

      // 4. A signer who declines inside the frame: signing.declined.
      const declining = await sendNda(api, "Mutual NDA: declined inside the app");
      const declineEmbed = await embedUrl(api, declining.id, declining.ada);
      await show(declineEmbed.url);
      await waitForEvent(page, "signing.loaded", "the page to decline on");
      await frame.locator("#signing").waitFor({ state: "visible", timeout: 20_000 });
      await frame.getByRole("button", { name: "Decline", exact: true }).click();
      await frame.getByLabel("Why are you declining?").fill("Not this quarter.");
      await frame.getByRole("button", { name: "Decline to sign" }).click();
      await waitForEvent(page, "signing.declined", "after declining");
      checkEqual((await page.evaluate(() => window.signingEvents)).map((e) => e.type).join(","),
        "signing.loaded,signing.declined", "the events of a decline");
      const declinedStatus = await api.expect(200, "GET", `/api/v1/contracts/${declining.id}/status`);
      checkEqual(declinedStatus.status, "declined", "the declined contract through the API");
      ok("declined inside the frame: signing.loaded then signing.declined");

      // 5. A page on an origin the organization does not allow: the browser refuses the frame.
      const other = await sendNda(api, "Mutual NDA: framed where it may not be");
      const foreign = await embedUrl(api, other.id, other.ada);
      const refusals = [];
      const intruder = await openIntegratorPage(context, refusedOrigin, foreign.url, run.problems,
        refusals);
      run.page = intruder;
      await intruder.waitForTimeout(3000);
      const framedTitle = await intruder.frameLocator("contract-signing iframe").locator("#title")
        .count().catch(() => 0);
      checkEqual(framedTitle, 0, "the signing page inside a frame of a foreign origin");
      check(refusals.some((line) => /frame-ancestors/.test(line)),
        `the browser names frame-ancestors as the reason: ${JSON.stringify(refusals)}`);
      checkEqual(JSON.stringify(await intruder.evaluate(() => window.allMessages)), "[]",
        "messages received by the foreign page");
      checkEqual(JSON.stringify(await intruder.evaluate(() => window.signingEvents)), "[]",
        "events on the foreign page");
      ok(`the browser refused the frame to ${refusedOrigin} and it heard nothing`);
      await context.close();
    } finally {
      allowed.close();
      refused.close();
    }
  });
}

runTest(main, OVERALL_TIMEOUT_MS, "all embedded signing checks passed");
