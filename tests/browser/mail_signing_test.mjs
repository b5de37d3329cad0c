// Signing from the mail, end to end: contractd mails a real SMTP server (tests/mail/
// smtp_server.mjs: npm smtp-server, messages read back by mailparser); each platform_hosted signer
// is mailed a link when their turn comes, follows it in a real Chromium and signs (the second
// behind an access code); then the owner, both signers and the copy recipient each receive the
// completed contract with the signed PDF attached. Every message is matched with what
// GET /contracts/{id}/notifications says of it.
//
// Usage: node mail_signing_test.mjs CONTRACTD_BINARY ARTIFACT_DIR
// Environment: CHROMIUM (default /usr/bin/chromium).
// Exits 0 only when every check passed; a screenshot of the page that was open when a check
// failed is saved as ARTIFACT_DIR/mail-signing-failure.png.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import {
  check, checkAccessibility, checkEqual, closeBrowserAndContractd, demoApi, DESKTOP, launchChromium, ok, openPage,
  PHONE, reportFailure, runTest, sleep, sourceDir, spawnTied, startContractd, stopChild, testArguments,
} from "./harness.mjs";

const { contractdBinary, artifactDir } = testArguments("mail_signing_test.mjs");
const OVERALL_TIMEOUT_MS = 180_000;
const MAIL_WAIT_MS = 30_000;
const MAIL_FROM = "contracts@esign.test";
const OWNER = { email: "owner@acme.example", name: "Acme GmbH" };
const ADA = "ada@acme.example";
const GRACE = "grace@globex.example";
const ARCHIVE = "archive@acme.example";
const ACCESS_CODE = "Globex-Storage-2026";
const TITLE = "Mutual NDA: signed from the mail";

// The SMTP server of tests/mail, run from there so that it finds its node_modules.
async function startSmtpServer(outDir) {
  const mailDir = join(sourceDir, "tests", "mail");
  const child = spawnTied(process.execPath, ["smtp_server.mjs", "--out", outDir],
    { cwd: mailDir, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`smtp server did not start:\n${output}`)), 15_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`smtp server exited with ${code} (npm ci in tests/mail?):\n${output}`));
    });
    child.stderr.on("data", (chunk) => { output += chunk; });
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const listening = output.match(/listening (\d+)/);
      if (!listening) return;
      clearTimeout(timer);
      resolve(Number(listening[1]));
    });
  });
  child.removeAllListeners("exit");
  return { child, port, output: () => output };
}

// The messages the SMTP server accepted so far, in order (only those whose .json is complete).
function mailbox(outDir) {
  const numbers = readdirSync(outDir).map((name) => name.match(/^(\d+)\.json$/))
    .filter(Boolean).map((m) => Number(m[1])).sort((a, b) => a - b);
  return numbers.map((n) => ({ n, ...JSON.parse(readFileSync(join(outDir, `${n}.json`), "utf8")) }));
}

async function waitForMail(outDir, count, what) {
  const deadline = Date.now() + MAIL_WAIT_MS;
  for (;;) {
    const messages = mailbox(outDir);
    if (messages.length >= count) return messages;
    check(Date.now() < deadline,
      `${what}: ${count} messages expected within ${MAIL_WAIT_MS / 1000} s, ${messages.length} arrived ` +
      `(${messages.map((m) => `${m.envelope.to} "${m.subject}"`).join(", ")})`);
    await sleep(100);
  }
}

// The contract's notifications once none is pending any more.
async function settledNotifications(api, contractId, count, what) {
  const deadline = Date.now() + MAIL_WAIT_MS;
  for (;;) {
    const { items } = await api.expect(200, "GET", `/api/v1/contracts/${contractId}/notifications`);
    if (items.length >= count && items.every((item) => item.state !== "pending")) return items;
    check(Date.now() < deadline, `${what}: ${count} settled notifications expected, got ` +
      JSON.stringify(items.map((i) => [i.kind, i.recipient.email, i.state])));
    await sleep(100);
  }
}

function sha256(buffer) {
  return createHash("sha256").update(buffer).digest("hex");
}

// The one hosted link of a signing request, which its text and HTML parts must both carry.
function checkSigningRequest(message, email, base) {
  checkEqual(message.envelope.to.join(","), email, "signing request envelope recipient");
  check(message.to.includes(email), `signing request To: ${message.to}`);
  check(message.from.includes(`<${MAIL_FROM}>`) || message.from === MAIL_FROM, `From: ${message.from}`);
  checkEqual(message.envelope.from, MAIL_FROM, "envelope sender");
  check(message.subject.includes(TITLE), `subject "${message.subject}" names the contract`);
  check(Boolean(message.text) && Boolean(message.html), "a plain-text and an HTML part");
  checkEqual(message.attachments.length, 0, "attachments of a signing request");
  const linkPattern = new RegExp(`${base.replace(/[.]/g, "\\.")}/sign/[A-Za-z0-9_-]+`, "g");
  const inText = [...new Set(message.text.match(linkPattern) || [])];
  const inHtml = [...new Set(message.html.match(linkPattern) || [])];
  checkEqual(inText.length, 1, `hosted links in the text part of ${email}'s request`);
  checkEqual(JSON.stringify(inHtml), JSON.stringify(inText), `the HTML part's link of ${email}'s request`);
  check(message.html.includes(TITLE) && message.text.includes(TITLE), "both parts name the contract");
  return inText[0];
}

async function signOnPage(page, name, what) {
  await page.locator("#signing").waitFor({ state: "visible", timeout: 15_000 });
  checkEqual((await page.locator("h1").textContent()).trim(), TITLE, `${what}: contract title`);
  checkEqual(await page.locator("#signer-name").textContent(), name, `${what}: signer name`);
  checkEqual((await page.locator("#asker").textContent()).trim(), `${OWNER.name} asks you to sign`,
    `${what}: who asks`);
  await page.locator("#doc-check.ok").waitFor({ timeout: 15_000 });
  await page.locator('.page-sheet[data-state="loaded"] .sig-box').first().waitFor({ timeout: 20_000 });
  await checkAccessibility(page, `${what}, the pages drawn`, { places: true });
  await page.getByLabel("Type your full name as your signature").fill(name);
  await page.getByRole("checkbox", { name: /I agree to sign electronically/ }).check();
  await page.getByRole("button", { name: "Sign", exact: true }).click();
  const notice = page.locator("#notice");
  await notice.waitFor({ state: "visible", timeout: 15_000 });
  checkEqual(await notice.getAttribute("data-kind"), "SIGNED", `${what}: notice after signing`);
  ok(`${what}: signed through the link in the mail`);
}

async function main() {
  mkdirSync(artifactDir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), "mail-signing-"));
  const dataDir = join(work, "data");
  const mailDir = join(work, "mail");
  const problems = [];
  let smtp = null;
  let server = null;
  let browser = null;
  let currentPage = null;
  const started = Date.now();
  try {
    smtp = await startSmtpServer(mailDir);
    ok(`SMTP server (npm smtp-server) listening on 127.0.0.1:${smtp.port}`);
    server = await startContractd(contractdBinary, dataDir,
      ["--smtp-url", `smtp://127.0.0.1:${smtp.port}`, "--mail-from", MAIL_FROM]);
    const base = `http://127.0.0.1:${server.port}`;
    ok(`contractd listening on ${base}, mailing through smtp://127.0.0.1:${smtp.port}`);
    check(!existsSync(join(dataDir, "outbox")) || readdirSync(join(dataDir, "outbox")).length === 0,
      "no .eml files with --smtp-url");
    const api = await demoApi(server);

    // The owner's address, set through the admin socket of the running service.
    const setOwner = spawnTied(contractdBinary, ["organizations", "set", "--data-dir", dataDir,
      "--org", "org_demo", "--email", OWNER.email, "--name", OWNER.name], { stdio: ["ignore", "pipe", "pipe"] });
    let setOutput = "";
    setOwner.stdout.on("data", (chunk) => { setOutput += chunk; });
    setOwner.stderr.on("data", (chunk) => { setOutput += chunk; });
    const setCode = await new Promise((resolve) => setOwner.on("exit", resolve));
    checkEqual(setCode, 0, `contractd organizations set (${setOutput.trim()})`);
    ok(`org_demo's notification address is ${OWNER.email}`);

    // Ada signs first, Grace second and behind an access code; both on the hosted page.
    const request = JSON.parse(readFileSync(join(sourceDir, "examples", "requests", "create-nda.json"), "utf8"));
    request.title = TITLE;
    for (const p of request.participants) {
      if (p.action !== "sign") continue;
      p.executionChannel = "platform_hosted";
      if (p.email === ADA) p.routingOrder = 1;
      if (p.email === GRACE) {
        Object.assign(p, { routingOrder: 2, authentication: "access_code", accessCode: ACCESS_CODE });
      }
    }
    checkEqual(request.participants.filter((p) => p.action === "receive_copy").map((p) => p.email).join(),
      ARCHIVE, "the copy recipient of the example");
    request.notifications = {
      "contract.completed": { recipients: ["owner", "signers", "copy_recipients"], attachSignedPdf: true },
    };
    const contract = await api.expect(201, "POST", "/api/v1/contracts", request);
    await api.expect(200, "POST", `/api/v1/contracts/${contract.id}/send`, undefined,
      { "Idempotency-Key": `mail-send-${contract.id}` });
    const idOf = (email) => contract.participants.find((p) => p.email === email).participantId;
    ok(`contract ${contract.id} sent`);

    // 1. Only Ada is asked, and only once.
    const [adaRequest] = await waitForMail(mailDir, 1, "Ada's signing request");
    const adaLink = checkSigningRequest(adaRequest, ADA, base);
    ok(`Ada's request: "${adaRequest.subject}" from ${adaRequest.from}, the link in both parts`);
    let items = await settledNotifications(api, contract.id, 1, "after sending");
    checkEqual(JSON.stringify(items.map((i) => [i.kind, i.recipient.email])),
      JSON.stringify([["signing_request", ADA]]), "notifications after sending");

    browser = await launchChromium();
    ok(`chromium ${browser.version()}`);
    const phone = await browser.newContext(PHONE);
    currentPage = (await openPage(phone, adaLink, problems)).page;
    await currentPage.locator("#signing").waitFor({ state: "visible", timeout: 15_000 });
    const beforeAda = mailbox(mailDir);
    checkEqual(beforeAda.length, 1, "messages before Ada signed (Grace's turn has not come)");
    ok("Grace is not mailed before Ada signed");
    await signOnPage(currentPage, "Ada Lovelace", "Ada on a phone");
    await phone.close();

    // 2. Grace's turn: her request arrives, and the page wants the code first. The owner is told
    // that Ada signed as well; the two messages may arrive in either order.
    const afterAda = await waitForMail(mailDir, 3, "Grace's signing request and the owner's notice");
    const graceRequest = afterAda.find((m) => m.envelope.to.includes(GRACE));
    check(graceRequest !== undefined,
      `Grace's signing request after Ada signed; got ${afterAda.map((m) => `${m.envelope.to} "${m.subject}"`)}`);
    const graceLink = checkSigningRequest(graceRequest, GRACE, base);
    check(graceLink !== adaLink, "Grace has her own link");
    check(!graceRequest.text.includes(ACCESS_CODE) && !graceRequest.html.includes(ACCESS_CODE),
      "the access code is not in the mail");
    ok(`Grace's request arrived after Ada signed: "${graceRequest.subject}"`);
    const desktop = await browser.newContext(DESKTOP);
    currentPage = (await openPage(desktop, graceLink, problems)).page;
    await currentPage.locator("#auth-form").waitFor({ state: "visible", timeout: 15_000 });
    check(await currentPage.locator("#signing").isHidden(), "the document is hidden before the code");
    await currentPage.getByLabel("Access code").fill(ACCESS_CODE);
    await currentPage.getByRole("button", { name: "Continue" }).click();
    ok("Grace's page asked for the access code");
    await signOnPage(currentPage, "Grace Hopper", "Grace behind an access code");
    await desktop.close();
    currentPage = null;

    // 3. Completed: the signed PDF as the API serves it.
    let status = null;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(100)) {
      status = await api.expect(200, "GET", `/api/v1/contracts/${contract.id}/status`);
      if (status.status === "completed") break;
    }
    checkEqual(status.status, "completed", "contract status");
    const signedPdf = await fetch(`${base}/api/v1/contracts/${contract.id}/documents/signed-only`,
      { headers: { Authorization: api.authorization() } });
    checkEqual(signedPdf.status, 200, "signed PDF download");
    const pdfHash = sha256(Buffer.from(await signedPdf.arrayBuffer()));
    ok(`contract completed; signed PDF sha256 ${pdfHash.slice(0, 16)}...`);

    // 4. Every message the service meant to send, and nothing else.
    const expected = [
      ["signing_request", ADA], ["signer_completed", OWNER.email], ["signing_request", GRACE],
      ["signer_completed", OWNER.email],
      ["contract_completed", OWNER.email], ["contract_completed", ADA], ["contract_completed", GRACE],
      ["contract_completed", ARCHIVE],
    ];
    items = await settledNotifications(api, contract.id, expected.length, "after completion");
    const key = ([kind, email]) => `${kind} ${email}`;
    checkEqual(JSON.stringify(items.map((i) => key([i.kind, i.recipient.email])).sort()),
      JSON.stringify(expected.map(key).sort()), "the notifications of the contract");
    await waitForMail(mailDir, expected.length, "every message");
    await sleep(500);  // a message too many would arrive by now
    const all = mailbox(mailDir);
    checkEqual(all.length, expected.length, "messages received");
    const itemByMessageId = new Map(items.map((i) => [i.messageId, i]));
    checkEqual(itemByMessageId.size, items.length, "distinct Message-IDs");
    const eventRecipient = new Set();
    for (const message of all) {
      const item = itemByMessageId.get(message.messageId);
      check(item !== undefined, `message ${message.n} (${message.messageId}) is not in /notifications`);
      itemByMessageId.delete(message.messageId);
      checkEqual(item.state, "sent", `state of ${message.messageId}`);
      checkEqual(item.lastReply && item.lastReply.code, 250, `last reply of ${message.messageId}`);
      checkEqual(message.envelope.to.join(","), item.recipient.email,
        `envelope of ${item.kind} to ${item.recipient.email}`);
      const pair = `${item.eventId} ${item.recipient.email}`;
      check(!eventRecipient.has(pair), `(event, recipient) twice: ${pair}`);
      eventRecipient.add(pair);
      check(Boolean(message.text) && Boolean(message.html), `${item.kind} to ${item.recipient.email}: text and HTML`);
      check(message.subject.includes(TITLE), `${item.kind} subject "${message.subject}" names the contract`);
      if (item.kind === "contract_completed") {
        checkEqual(message.attachments.length, 1, `attachments of the completion mail to ${item.recipient.email}`);
        const [pdf] = message.attachments;
        checkEqual(pdf.contentType, "application/pdf", "attachment type");
        checkEqual(pdf.sha256, pdfHash, `the PDF mailed to ${item.recipient.email}`);
      } else {
        checkEqual(message.attachments.length, 0, `attachments of ${item.kind} to ${item.recipient.email}`);
      }
    }
    ok(`${all.length} messages, each in /notifications as sent with 250, once per (event, recipient)`);
    ok(`the signed PDF reached ${OWNER.email}, ${ADA}, ${GRACE} and ${ARCHIVE}`);

    check(problems.length === 0, `problems in the browser:\n${problems.join("\n")}`);
    ok(`no script errors and no Content-Security-Policy refusals; ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    await reportFailure(currentPage, join(artifactDir, "mail-signing-failure.png"), problems);
    if (server) console.error(`contractd output:\n${server.output()}`);
    throw error;
  } finally {
    await closeBrowserAndContractd(browser, server);
    if (smtp) await stopChild(smtp.child);
    rmSync(work, { recursive: true, force: true });
  }
}

runTest(main, OVERALL_TIMEOUT_MS, "all mail signing checks passed");
