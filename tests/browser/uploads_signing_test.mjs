// A contract made from two uploaded PDFs, signed on the hosted page in a real Chromium by two
// signers in turn: each sees every page of the composed document, their own fields where they are
// placed (signatures by coordinates and by text tag, a name, a date and a text whose markup stays
// text), and no one else's; each clicks into their signature box, which takes them to the signature field, and
// signs. The contract ends completed and its signed PDF passes pdfsig over the whole file.
// axe-core runs on each signer's page at desktop and phone widths: no serious or critical
// violation.
//
// Usage: node uploads_signing_test.mjs CONTRACTD_BINARY ARTIFACT_DIR
// Environment: CHROMIUM (default /usr/bin/chromium).
// Screenshots of each signer's page at both widths are saved in ARTIFACT_DIR as
// uploads-<signer>-<desktop|phone>.png (and uploads-failure.png of the page open when a check
// failed).
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import {
  browserRun, check, CheckFailed, checkAccessibility, checkEqual, demoApi, DESKTOP, launchChromium, ok,
  openPage, PHONE, runTest, sleep, startContractd, testArguments, uploadFixture,
} from "./harness.mjs";

const { contractdBinary, artifactDir } = testArguments("uploads_signing_test.mjs");
const OVERALL_TIMEOUT_MS = 240_000;

// Where each field of the contract should be drawn: its page in the composed PDF and its box as
// fractions of that page, computed here from the contract's own answer.
function expectedPlaces(contract) {
  return contract.fields.map((field) => {
    const document = contract.documents[field.documentIndex];
    const size = document.pages[field.page - 1];
    return { ...field, composedPage: document.firstPage + field.page - 1,
      left: field.x / size.width, top: field.y / size.height,
      width: field.width / size.width, height: field.height / size.height };
  });
}

// Every page drawn and loaded, and exactly the signer's fields drawn on them where they are
// placed; returns the pages answer.
async function checkPlaces(page, what, mine, others, pageCount) {
  await page.locator("#signing").waitFor({ state: "visible", timeout: 15_000 });
  const sheets = page.locator(".page-sheet");
  await sheets.first().waitFor({ timeout: 15_000 });
  checkEqual(await sheets.count(), pageCount, `${what}: pages drawn`);
  for (let n = 1; n <= pageCount; n++) {
    const sheet = page.locator(`.page-sheet[data-page="${n}"]`);
    await sheet.scrollIntoViewIfNeeded();
    await page.locator(`.page-sheet[data-page="${n}"][data-state="loaded"]`).waitFor({ timeout: 20_000 });
  }
  // The pages answer itself lists the signer's fields and no other's, at the fractions placed.
  const info = await page.evaluate(async () => {
    const token = window.location.pathname.split("/").pop();
    return (await fetch(`/api/v1/hosted-signing/${token}/document/pages`)).json();
  });
  checkEqual(info.fields.map((f) => f.fieldId).sort().join(","), mine.map((f) => f.fieldId).sort().join(","),
    `${what}: the fields of the pages answer`);
  for (const field of info.fields) {
    const placed = mine.find((f) => f.fieldId === field.fieldId);
    checkEqual(field.page, placed.composedPage, `${what}: answered page of ${field.fieldId}`);
    checkEqual(field.value, placed.type === "text" ? placed.value : undefined, `${what}: value of ${field.fieldId}`);
    for (const side of ["left", "top", "width", "height"]) {
      check(Math.abs(field[side] - placed[side]) <= 0.00006,
        `${what}: answered ${side} of ${field.fieldId} is ${field[side]}, placed at ${placed[side]}`);
    }
  }
  const drawn = await page.evaluate(() => Array.from(document.querySelectorAll(".field-box"), (box) => {
    const sheet = box.closest(".page-sheet").getBoundingClientRect();
    const rect = box.getBoundingClientRect();
    return { fieldId: box.dataset.fieldId, type: box.dataset.type, tag: box.tagName,
      page: Number(box.closest(".page-sheet").dataset.page), text: box.querySelector(".tag").textContent,
      markup: box.querySelectorAll("b, img, script").length,
      left: (rect.left - sheet.left) / sheet.width, top: (rect.top - sheet.top) / sheet.height,
      width: rect.width / sheet.width, height: rect.height / sheet.height };
  }));
  checkEqual(drawn.map((d) => d.fieldId).sort().join(","), mine.map((f) => f.fieldId).sort().join(","),
    `${what}: the fields drawn`);
  for (const other of others) {
    check(!drawn.some((d) => d.fieldId === other.fieldId), `${what}: another signer's ${other.fieldId} is drawn`);
  }
  for (const field of mine) {
    const box = drawn.find((d) => d.fieldId === field.fieldId);
    checkEqual(box.page, field.composedPage, `${what}: page of ${field.fieldId}`);
    checkEqual(box.type, field.type, `${what}: type of ${field.fieldId}`);
    for (const side of ["left", "top", "width", "height"]) {
      check(Math.abs(box[side] - field[side]) < 0.005,
        `${what}: ${field.fieldId} ${side} is ${box[side]} of the page, placed at ${field[side]}`);
    }
    const signs = field.type === "signature" || field.type === "initials";
    checkEqual(box.tag, signs ? "BUTTON" : "DIV", `${what}: ${field.fieldId} element`);
    const words = { signature: "You sign here", name: "Your name", date_signed: "Signing date",
      text: field.value };
    checkEqual(box.text, words[field.type], `${what}: ${field.fieldId} label`);
    checkEqual(box.markup, 0, `${what}: elements made from ${field.fieldId}'s text`);
  }
  ok(`${what}: ${pageCount} pages; ${mine.map((f) => `${f.type} ${f.fieldId} (${f.placement}) on page ${f.composedPage}`)
    .join(", ")} where placed; no other signer's field`);
}

// The signer's page at desktop width: places, axe, a screenshot; then on a phone, where they
// click into their signature box and sign.
async function signOnPage(run, url, who, mine, others, pageCount) {
  const desktop = await run.browser.newContext(DESKTOP);
  const wide = (run.page = (await openPage(desktop, url, run.problems)).page);
  await checkPlaces(wide, `${who} at desktop width`, mine, others, pageCount);
  await checkAccessibility(wide, `${who} at desktop width`, { places: true });
  const wideShot = join(artifactDir, `uploads-${who.toLowerCase()}-desktop.png`);
  await wide.screenshot({ path: wideShot, fullPage: true });
  ok(`desktop screenshot saved to ${wideShot}`);
  if (who === "Ada") {
    // The check can fail: a place to sign that a screen reader could not name is caught.
    await wide.evaluate(() => { document.querySelector(".sig-box").textContent = ""; });
    const caught = await checkAccessibility(wide, "a signature box without a name").then(() => null, (e) => e);
    check(caught instanceof CheckFailed && /button-name \(critical\)/.test(caught.message),
      `axe did not catch a signature box without a name: ${caught && caught.message}`);
    ok("axe catches a signature box without a name (button-name, critical)");
  }
  await desktop.close();

  const phone = await run.browser.newContext(PHONE);
  const page = (run.page = (await openPage(phone, url, run.problems)).page);
  await checkPlaces(page, `${who} on a phone`, mine, others, pageCount);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, `${who} on a phone: the page scrolls sideways by ${overflow}px`);
  await checkAccessibility(page, `${who} on a phone`, { places: true });
  const shot = join(artifactDir, `uploads-${who.toLowerCase()}-phone.png`);
  await page.screenshot({ path: shot, fullPage: true });
  ok(`phone screenshot saved to ${shot}`);

  const signature = mine.find((f) => f.type === "signature");
  const box = page.locator(`.sig-box[data-field-id="${signature.fieldId}"]`);
  await box.scrollIntoViewIfNeeded();
  await box.click();
  checkEqual(await page.evaluate(() => document.activeElement && document.activeElement.id), "signature",
    `${who}: focus after clicking into the signature box`);
  const input = await page.locator("#signature").boundingBox();
  check(input && input.y >= 0 && input.y + input.height <= PHONE.viewport.height,
    `${who}: the signature field is not on screen after the click`);
  ok(`${who} clicked into ${signature.fieldId}: the signature field has the focus, on screen`);
  await page.keyboard.type(who === "Ada" ? "Ada Lovelace" : "Grace Hopper");
  await page.getByRole("checkbox", { name: /I agree to sign electronically/ }).check();
  await page.getByRole("button", { name: "Sign", exact: true }).click();
  const notice = page.locator("#notice");
  await notice.waitFor({ state: "visible", timeout: 15_000 });
  checkEqual(await notice.getAttribute("data-kind"), "SIGNED", `${who}: notice after signing`);
  ok(`${who} signed on the phone`);
  await phone.close();
}

async function main() {
  await browserRun(artifactDir, "uploads", async (run) => {
    const server = (run.server = await startContractd(contractdBinary, run.dataDir));
    const base = `http://127.0.0.1:${server.port}`;
    const api = await demoApi(server);

    // Page 1 of the agreement holds {{signature:1}}, page 2 {{date_signed:2}}; the form is one page.
    const agreement = await uploadFixture(api, base, "two_pages_tagged_cairo.pdf");
    const form = await uploadFixture(api, base, "acroform_with_actions.pdf");
    const contract = await api.expect(201, "POST", "/api/v1/contracts", {
      title: "Supply agreement (browser check)", sendNow: true,
      documents: [{ documentId: agreement.documentId, name: "Agreement" }, { documentId: form.documentId }],
      participants: [
        { action: "sign", recipientType: "individual", executionChannel: "platform_hosted",
          name: "Ada Lovelace", email: "ada@acme.example", routingOrder: 1 },
        { action: "sign", recipientType: "individual", executionChannel: "platform_hosted",
          name: "Grace Hopper", email: "grace@globex.example", routingOrder: 2 }],
      fields: [
        { type: "signature", participantIndex: 1, documentIndex: 1, page: 1, x: 330, y: 300, width: 220, height: 60 },
        { type: "name", participantIndex: 0, documentIndex: 0, page: 2, x: 300, y: 700, width: 200, height: 24 },
        { type: "text", participantIndex: 0, documentIndex: 1, page: 1, x: 350, y: 40, width: 200, height: 20,
          value: "PO-1234 <b>net 30</b>" }],
    });
    checkEqual(contract.status, "sent", "contract status after sendNow");
    const [ada, grace] = contract.participants.map((p) => p.participantId);
    const places = expectedPlaces(contract);
    const adaFields = places.filter((f) => f.participantId === ada);
    const graceFields = places.filter((f) => f.participantId === grace);
    const pageCount = contract.documents.reduce((n, d) => n + d.pageCount, 0);
    checkEqual(pageCount, 3, "pages of the composed document");
    checkEqual(adaFields.map((f) => `${f.type}/${f.placement}`).sort().join(","),
      "name/coordinates,signature/textTag,text/coordinates", "Ada's fields");
    checkEqual(graceFields.map((f) => `${f.type}/${f.placement}`).sort().join(","),
      "date_signed/textTag,signature/coordinates", "Grace's fields");
    ok(`contract ${contract.id} from two uploads, sent: ${places.length} fields on ${pageCount} pages`);

    const browser = (run.browser = await launchChromium());
    ok(`chromium ${browser.version()}`);

    const adaLink = await api.expect(201, "POST", `/api/v1/contracts/${contract.id}/signing-sessions`,
      { participantId: ada });
    await signOnPage(run, adaLink.url, "Ada", adaFields, graceFields, pageCount);

    const graceLink = await api.expect(201, "POST", `/api/v1/contracts/${contract.id}/signing-sessions`,
      { participantId: grace });
    await signOnPage(run, graceLink.url, "Grace", graceFields, adaFields, pageCount);

    let status = null;
    for (let i = 0; i < 100; i++) {
      status = await api.expect(200, "GET", `/api/v1/contracts/${contract.id}/status`);
      if (status.status === "completed") break;
      await sleep(100);
    }
    checkEqual(status.status, "completed", "contract status after both signed");
    const signed = await fetch(`${base}/api/v1/contracts/${contract.id}/documents/signed-only`,
      { headers: { Authorization: api.authorization() } });
    checkEqual(signed.status, 200, "signed PDF status");
    const pdfPath = join(run.dataDir, "signed.pdf");
    writeFileSync(pdfPath, Buffer.from(await signed.arrayBuffer()));
    const pdfsig = execFileSync("pdfsig", [pdfPath], { encoding: "utf8" });
    check(/Signature is Valid/.test(pdfsig), `pdfsig: the signature is not valid:\n${pdfsig}`);
    check(/Total document signed/.test(pdfsig), `pdfsig: not the whole document signed:\n${pdfsig}`);
    ok("contract completed; pdfsig: the signature is valid over the whole document");
  });
}

runTest(main, OVERALL_TIMEOUT_MS, "all checks of signing a contract from uploads passed");
