// A signer fills in fields of every kind on the hosted page in a real Chromium: each field is a
// labelled control in the sign form, in page order, and a blue box on its page that takes the
// signer to it; a field shown only when a box is ticked appears when it is ticked; a required
// entry left empty is refused by its field before anything is sent, and a value the service
// refuses (its pattern, which RE2 checks there) comes back by its field. Then the signer signs on
// a phone, attaching a scan (a file of the wrong type is refused by its field first), and the
// values are the contract's. axe-core runs at desktop and phone widths, with
// errors shown too: no serious or critical violation.
//
// Usage: node fields_filling_test.mjs CONTRACTD_BINARY ARTIFACT_DIR
// Environment: CHROMIUM (default /usr/bin/chromium).
// Screenshots: fields-<desktop|phone>.png in ARTIFACT_DIR (fields-failure.png when a check failed).
import { join } from "node:path";

import {
  browserRun, check, checkAccessibility, checkEqual, demoApi, DESKTOP, launchChromium, ok, openPage,
  PHONE, runTest, sleep, startContractd, testArguments, uploadFixture,
} from "./harness.mjs";

const { contractdBinary, artifactDir } = testArguments("fields_filling_test.mjs");
const OVERALL_TIMEOUT_MS = 180_000;
const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

async function entriesShown(page, what) {
  await page.locator("#signing").waitFor({ state: "visible", timeout: 15_000 });
  await page.locator("#entries:not([hidden])").waitFor({ timeout: 15_000 });
  const ids = await page.evaluate(() => Array.from(document.querySelectorAll("#entries-list .entry"),
    (row) => (row.hidden ? "-" : "") + row.querySelector("[id^=entry-]").id));
  ok(`${what}: entries ${ids.join(", ")}`);
  return ids;
}

async function main() {
  await browserRun(artifactDir, "fields", async (run) => {
    const server = (run.server = await startContractd(contractdBinary, run.dataDir));
    const base = `http://127.0.0.1:${server.port}`;
    const api = await demoApi(server);
    const agreement = await uploadFixture(api, base, "two_pages_tagged_cairo.pdf");
    // fld_1..fld_10 in this order; then the tags: {{signature:1}} on page 1 is Ada's signature
    // (fld_11), {{date_signed:2}} Grace's date (fld_12).
    const at = (page, y, width = 180, height = 20) => ({ participantIndex: 0, page, x: 330, y, width, height });
    const contract = await api.expect(201, "POST", "/api/v1/contracts", {
      title: "Service order (browser check)", sendNow: true,
      documents: [{ documentId: agreement.documentId }],
      participants: [
        { action: "sign", recipientType: "individual", executionChannel: "platform_hosted",
          name: "Ada Lovelace", email: "ada@acme.example" },
        { action: "sign", recipientType: "individual", executionChannel: "integrator_managed",
          name: "Grace Hopper", email: "grace@globex.example" }],
      fields: [
        { type: "signature", participantIndex: 1, page: 2, x: 300, y: 300, width: 220, height: 60 },
        { ...at(1, 100), type: "number", name: "Hours a week", min: 1, max: 60 },
        { ...at(1, 140), type: "dropdown", name: "Billing", options: ["monthly", "yearly"] },
        { ...at(1, 180, 20, 20), type: "checkbox", name: "Needs a purchase order", required: false },
        { ...at(1, 220), type: "text", name: "Purchase order", showIf: { field: "fld_4", equals: true },
          pattern: "PO-[0-9]{4}", patternMessage: "PO- and four digits, as PO-1234" },
        { ...at(1, 260), type: "date", name: "Start date", min: "2026-01-01" },
        { ...at(1, 300), type: "phone", name: "Phone", required: false },
        { ...at(1, 340, 180, 60), type: "radio", name: "Support", options: ["email", "phone"] },
        { ...at(1, 420), type: "text", value: "Net 30 days" },
        { ...at(1, 460), type: "attachment", name: "Scan of the order" }],
    });
    const ada = contract.participants[0].participantId;
    const link = await api.expect(201, "POST", `/api/v1/contracts/${contract.id}/signing-sessions`,
      { participantId: ada });
    const browser = (run.browser = await launchChromium());
    ok(`chromium ${browser.version()}; contract ${contract.id} with ${contract.fields.length} fields`);

    const desktop = await browser.newContext(DESKTOP);
    const wide = (run.page = (await openPage(desktop, link.url, run.problems)).page);
    const shown = await entriesShown(wide, "desktop");
    checkEqual(shown.join(","), "entry-fld_2,entry-fld_3,entry-fld_4,-entry-fld_5,entry-fld_6,entry-fld_7,entry-fld_8,entry-fld_10",
      "the entries, in page order, the purchase order hidden");
    checkEqual(await wide.locator(".entry-box").count(), 8, "blue boxes drawn");
    await checkAccessibility(wide, "entries at desktop width", { places: true });
    await wide.screenshot({ path: join(artifactDir, "fields-desktop.png"), fullPage: true });
    await desktop.close();

    const phone = await browser.newContext(PHONE);
    const page = (run.page = (await openPage(phone, link.url, run.problems)).page);
    await entriesShown(page, "phone");
    // Signing with nothing entered: each required entry says so by its field; nothing is sent.
    const before = await api.expect(200, "GET", `/api/v1/contracts/${contract.id}`);
    await page.getByLabel("Type your full name as your signature").fill("Ada Lovelace");
    await page.getByRole("checkbox", { name: /I agree to sign electronically/ }).check();
    await page.getByRole("button", { name: "Sign", exact: true }).click();
    const hours = page.getByLabel("Hours a week (page 1)");
    checkEqual(await page.evaluate(() => document.activeElement && document.activeElement.id), "entry-fld_2",
      "focus after signing with empty entries");
    checkEqual(await page.locator("#entry-fld_2-error").textContent(), "Please fill this in.", "the number's error");
    checkEqual(await hours.getAttribute("aria-invalid"), "true", "the number is marked invalid");
    check((await hours.getAttribute("aria-describedby")).includes("entry-fld_2-error"), "the error is bound to its field");
    await checkAccessibility(page, "entries with errors on a phone", { places: true });
    const after = await api.expect(200, "GET", `/api/v1/contracts/${contract.id}`);
    checkEqual(after.version, before.version, "contract version after a refused signing");
    ok("empty required entries are refused by their fields before anything is sent");

    // The box on the page takes the signer to its entry (by keyboard here: the boxes are buttons).
    checkEqual(await page.locator('.entry-box[data-field-id="fld_5"]').isHidden(), true,
      "the hidden entry's box is hidden too");
    const box = page.locator('.entry-box[data-field-id="fld_6"]');
    await box.scrollIntoViewIfNeeded();
    await box.focus();
    await page.keyboard.press("Enter");
    checkEqual(await page.evaluate(() => document.activeElement && document.activeElement.id), "entry-fld_6",
      "focus after clicking the start date's box");
    ok("clicking a blue box takes the signer to its entry");

    await hours.fill("37.5");
    await page.getByLabel("Billing (page 1)").selectOption("yearly");
    await page.getByLabel("Needs a purchase order (page 1, optional)").check();
    const order = page.getByLabel("Purchase order (page 1)");
    await order.waitFor({ state: "visible" });
    await order.fill("1234");
    await page.getByLabel("Start date (page 1)").fill("2026-03-02");
    await page.getByLabel("phone", { exact: true }).check();
    // The scan: a text file is refused by its field before it is sent; a PNG is attached.
    const scan = page.getByLabel("Scan of the order (page 1): a PDF, PNG or JPEG of at most 10 MB");
    await scan.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    checkEqual(await page.locator("#entry-fld_10-error").textContent(), "Choose a PDF, PNG or JPEG file.",
      "a file of the wrong type");
    await scan.setInputFiles({ name: "scan.png", mimeType: "image/png", buffer: TINY_PNG });
    await page.locator("#entry-fld_10-status", { hasText: "Attached: scan.png" }).waitFor({ timeout: 10_000 });
    checkEqual(await page.locator('.entry-box[data-field-id="fld_10"] .tag').textContent(), "Attached: scan.png",
      "the attachment's box names the file");
    ok("a PNG is attached on the page");
    checkEqual(await page.locator('.entry-box[data-field-id="fld_2"] .tag').textContent(), "37.5",
      "the number's box shows what is entered");
    // The pattern is the service's to check (RE2): its refusal comes back by the field.
    await page.getByRole("button", { name: "Sign", exact: true }).click();
    await page.locator("#entry-fld_5-error:not([hidden])").waitFor({ timeout: 10_000 });
    checkEqual(await page.locator("#entry-fld_5-error").textContent(), "PO- and four digits, as PO-1234",
      "the service's refusal of the purchase order");
    ok("the service's refusal of a value is shown by its field");

    await order.fill("PO-1234");
    await page.getByRole("button", { name: "Sign", exact: true }).click();
    const notice = page.locator("#notice");
    await notice.waitFor({ state: "visible", timeout: 15_000 });
    checkEqual(await notice.getAttribute("data-kind"), "SIGNED", "notice after signing");
    await page.screenshot({ path: join(artifactDir, "fields-phone.png"), fullPage: true });
    await phone.close();

    let fields = null;
    for (let i = 0; i < 50; i++) {
      fields = await api.expect(200, "GET", `/api/v1/contracts/${contract.id}/fields`);
      if (fields.items.some((f) => f.value !== undefined && f.fieldId === "fld_2")) break;
      await sleep(100);
    }
    const values = Object.fromEntries(fields.items.map((f) => [f.fieldId, f.value]));
    checkEqual(JSON.stringify([values.fld_2, values.fld_3, values.fld_4, values.fld_5, values.fld_6,
      values.fld_7, values.fld_8, values.fld_9, values.fld_10 && values.fld_10.name,
      values.fld_10 && values.fld_10.size]),
    JSON.stringify(["37.5", "yearly", true, "PO-1234", "2026-03-02", undefined, "phone", "Net 30 days",
      "scan.png", TINY_PNG.length]),
    "the values recorded");
    ok("Ada signed on a phone; the contract holds her values");
  });
}

runTest(main, OVERALL_TIMEOUT_MS, "all checks of filling in fields on the hosted page passed");
