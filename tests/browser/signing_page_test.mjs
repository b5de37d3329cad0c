// The hosted signing page in a real browser against a real contractd: a signer signs on a
// phone-sized screen, another declines, and cancelled, replaced, dead, expired, unknown and
// withdrawn (voided contract) and lapsed (expired contract) links each show their message. Every outcome is checked through the API too.
// The document shows as page images (no PDF viewer needed) at phone and desktop widths, with the
// signer's signature places marked. The page says which organization asks ("Acme GmbH asks you to
// sign", and without a name no stand-in), and its times name their zone (a phone in Berlin, a
// desktop in New York). axe-core finds no serious or critical violation, and the labels of the
// signature places 7:1, on the page with its places drawn (phone and desktop), on a notice, on the
// decline form and on the access-code form.
//
// Usage: node signing_page_test.mjs CONTRACTD_BINARY ARTIFACT_DIR
// Environment: CHROMIUM (default /usr/bin/chromium).
// Exits 0 only when every check passed; a screenshot of the phone page before signing is saved
// as ARTIFACT_DIR/signing-page.png, one at desktop width as signing-page-desktop.png (whole pages,
// and one of the page that was open when a check failed).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import {
  browserRun, check, checkAccessibility, checkEqual, demoApi, DESKTOP, launchChromium, ok, openPage,
  PHONE, runTest, setDemoOrganization, sourceDir, startContractd, testArguments,
} from "./harness.mjs";

const { contractdBinary, artifactDir } = testArguments("signing_page_test.mjs");
const OVERALL_TIMEOUT_MS = 240_000;
// Where the integrator's returnUrl points; the browser's requests there are answered locally.
const RETURN_ORIGIN = "https://integrator.example";
const ORGANIZATION = "Acme GmbH";
// Where and in which language each screen is: the page's times must say their zone.
const PHONE_PLACE = { locale: "en-GB", timezoneId: "Europe/Berlin" };
const DESKTOP_PLACE = { locale: "en-US", timezoneId: "America/New_York" };

// A mutual NDA whose two signers both sign on the hosted page, created and sent.
// `adaMembers` are added to Ada's participant (an authentication method, say).
async function sendNda(api, title, sendBody = undefined, adaMembers = {}) {
  const request = JSON.parse(readFileSync(join(sourceDir, "examples", "requests", "create-nda.json"), "utf8"));
  request.title = title;
  for (const p of request.participants) {
    if (p.action === "sign") p.executionChannel = "platform_hosted";
    if (p.email === "ada@acme.example") Object.assign(p, adaMembers);
  }
  const contract = await api.expect(201, "POST", "/api/v1/contracts", request);
  await api.expect(200, "POST", `/api/v1/contracts/${contract.id}/send`, sendBody,
    { "Idempotency-Key": `browser-send-${contract.id}` });
  const byEmail = (email) => contract.participants.find((p) => p.email === email).participantId;
  return { id: contract.id, title, ada: byEmail("ada@acme.example"), grace: byEmail("grace@globex.example") };
}

async function createSession(api, contractId, participantId, extra = {}) {
  const session = await api.expect(201, "POST", `/api/v1/contracts/${contractId}/signing-sessions`,
    { participantId, ...extra });
  checkEqual(session.state, "open", "new session state");
  check(/^http:\/\/127\.0\.0\.1:\d+\/sign\/[^/]+$/.test(session.url), `session url ${session.url}`);
  return session;
}

// `text` shows the moment `iso` as a reader at `place` reads it: the day, the month in words, the
// year, the hour and minute and the zone's name (as Node's ICU writes them for that place).
function checkTimeShown(text, iso, place, what) {
  const parts = new Intl.DateTimeFormat(place.locale, { timeZone: place.timezoneId, day: "numeric",
    month: "long", year: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" })
    .formatToParts(new Date(iso));
  const wanted = parts.filter((p) => p.type !== "literal" && p.type !== "dayPeriod").map((p) => p.value);
  const zone = parts.find((p) => p.type === "timeZoneName").value;
  check(/^(CET|CEST|EST|EDT|GMT[+-]\d+(:\d\d)?)$/.test(zone), `${what}: ${place.timezoneId} is called "${zone}"`);
  const missing = wanted.filter((value) => !text.includes(value));
  check(missing.length === 0, `${what}: "${text}" lacks ${missing.join(", ")} (${iso} at ${place.timezoneId})`);
  check(!/\d\/\d/.test(text), `${what}: "${text}" writes a date in figures`);
  ok(`${what}: "${text}"`);
}

async function participantStatus(api, contractId, participantId) {
  const status = await api.expect(200, "GET", `/api/v1/contracts/${contractId}/status`);
  return { contract: status.status, participant: status.participants.find((p) => p.participantId === participantId) };
}

async function noticeOf(page) {
  const notice = page.locator("#notice");
  await notice.waitFor({ state: "visible", timeout: 15_000 });
  return { kind: await notice.getAttribute("data-kind"), title: (await page.locator("#notice-title").textContent()).trim() };
}

async function expectNotice(page, kind, titlePattern, what) {
  const notice = await noticeOf(page);
  checkEqual(notice.kind, kind, `${what}: notice kind`);
  check(titlePattern.test(notice.title), `${what}: notice title "${notice.title}" does not match ${titlePattern}`);
  check(await page.locator("#signing").isHidden(), `${what}: the signing form must be hidden`);
  ok(`${what}: "${notice.title}"`);
}

// What a person sees of the document: the page images loaded, on screen, with ink on them (read
// back through a canvas), full width on a phone and readable on a desktop, and the signer's
// signature box drawn over the page the pages route names, at the place it names.
async function checkPageImages(page, what, minWidth) {
  await page.locator('.page-sheet[data-page="1"][data-state="loaded"]').waitFor({ timeout: 20_000 });
  const first = await page.evaluate(() => {
    const img = document.querySelector('.page-sheet[data-page="1"] img');
    const rect = img.getBoundingClientRect();
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext("2d");
    context.drawImage(img, 0, 0);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let ink = 0;
    for (let i = 0; i < pixels.length; i += 4) {
      if (pixels[i] + pixels[i + 1] + pixels[i + 2] < 600) ink++;
    }
    return { naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight, width: rect.width,
      height: rect.height, left: rect.left, right: rect.right, viewport: window.innerWidth,
      ink: ink / (canvas.width * canvas.height), pages: document.querySelectorAll(".page-sheet").length,
      visible: getComputedStyle(img).visibility === "visible" && rect.width > 0 };
  });
  check(first.naturalWidth > 0 && first.naturalHeight > 0, `${what}: page 1 has no pixels`);
  check(first.visible, `${what}: page 1 is not visible`);
  check(first.left >= 0 && first.right <= first.viewport, `${what}: page 1 sticks out of the screen`);
  check(first.width >= minWidth, `${what}: page 1 is ${first.width}px wide, less than ${minWidth}`);
  check(Math.abs(first.height / first.width - first.naturalHeight / first.naturalWidth) < 0.01,
    `${what}: page 1 is distorted`);
  check(first.ink > 0.003 && first.ink < 0.5, `${what}: page 1 looks blank (ink ${first.ink})`);

  const info = await page.evaluate(async () => {
    const token = window.location.pathname.split("/").pop();
    return (await fetch(`/api/v1/hosted-signing/${token}/document/pages`)).json();
  });
  checkEqual(first.pages, info.pageCount, `${what}: pages drawn`);
  check(info.signatureBoxes.length > 0, `${what}: the signer has no signature box`);
  const box = info.signatureBoxes[0];
  const mark = page.locator(`.page-sheet[data-page="${box.page}"] .sig-box`).first();
  await mark.scrollIntoViewIfNeeded();
  await page.locator(`.page-sheet[data-page="${box.page}"][data-state="loaded"]`).waitFor({ timeout: 20_000 });
  const placed = await page.evaluate((n) => {
    const sheet = document.querySelector(`.page-sheet[data-page="${n}"]`).getBoundingClientRect();
    const mark = document.querySelector(`.page-sheet[data-page="${n}"] .sig-box`).getBoundingClientRect();
    return { left: (mark.left - sheet.left) / sheet.width, top: (mark.top - sheet.top) / sheet.height,
      width: mark.width / sheet.width, height: mark.height / sheet.height,
      onScreen: mark.top >= 0 && mark.bottom <= window.innerHeight };
  }, box.page);
  check(await mark.isVisible() && placed.onScreen, `${what}: the signature box is not on screen`);
  for (const side of ["left", "top", "width", "height"]) {
    check(Math.abs(placed[side] - box[side]) < 0.01,
      `${what}: signature box ${side} ${placed[side]} instead of ${box[side]}`);
  }
  ok(`${what}: ${info.pageCount} page images at ${first.naturalWidth} px shown ${Math.round(first.width)} px wide ` +
    `(ink ${(first.ink * 100).toFixed(1)}%), signature box on page ${box.page}`);
}

async function main() {
  await browserRun(artifactDir, "signing-page", async (run) => {
    const { problems } = run;
    const server = (run.server = await startContractd(contractdBinary, run.dataDir));
    const base = `http://127.0.0.1:${server.port}`;
    ok(`contractd listening on ${base}`);
    const api = await demoApi(server);

    const template = JSON.parse(readFileSync(join(sourceDir, "examples", "templates", "mutual-nda.json"), "utf8"));
    const roleName = template.versions.find((v) => v.published).roles
      .find((r) => r.templateRoleId === "party_a_signatory").name;

    // A link that expires while the rest runs (the shortest lifetime a session takes is 5 s).
    const third = await sendNda(api, "Mutual NDA: a link left to expire");
    const expiring = await createSession(api, third.id, third.ada, { ttlSeconds: 5 });

    const browser = (run.browser = await launchChromium());
    ok(`chromium ${browser.version()}`);

    // 1. Ada signs on a phone and is taken back to the integrator.
    const first = await sendNda(api, "Mutual NDA: Acme and Globex (browser check)");
    const returnUrl = `${RETURN_ORIGIN}/signed?contract=${first.id}`;
    const session = await createSession(api, first.id, first.ada, { returnUrl });
    // The organization's name, as its operator sets it.
    await setDemoOrganization(contractdBinary, run.dataDir, ["--name", ORGANIZATION]);
    const phone = await browser.newContext({ ...PHONE, ...PHONE_PLACE });
    await phone.route(`${RETURN_ORIGIN}/**`, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Back at the integrator</h1>" }));
    const { page, response } = await openPage(phone, session.url, problems);
    run.page = page;
    checkEqual(response.status(), 200, "page status");
    const headers = response.headers();
    checkEqual(headers["content-type"], "text/html; charset=utf-8", "page content type");
    checkEqual(headers["referrer-policy"], "no-referrer", "Referrer-Policy");
    checkEqual(headers["cache-control"], "no-store", "Cache-Control");
    checkEqual(headers["x-frame-options"], "DENY", "X-Frame-Options");
    check(/frame-ancestors 'none'/.test(headers["content-security-policy"] || ""), "CSP frame-ancestors");
    ok("page served with its security headers");

    await page.locator("#signing").waitFor({ state: "visible", timeout: 15_000 });
    checkEqual((await page.locator("h1").textContent()).trim(), first.title, "contract title");
    checkEqual(await page.locator("#signer-name").textContent(), "Ada Lovelace", "signer name");
    checkEqual(await page.locator("#signer-email").textContent(), "ada@acme.example", "signer email");
    checkEqual(await page.locator("#signer-role").textContent(), roleName, "signer role");
    checkEqual(await page.locator("#doc-sha256").textContent(), session.documentSha256, "document SHA-256");
    ok("title, signer, role and document fingerprint shown");
    checkEqual((await page.locator("#asker").textContent()).trim(), `${ORGANIZATION} asks you to sign`,
      "who asks, above the title");
    const visibleText = await page.locator("body").innerText();
    check(visibleText.replace(/\s+/g, " ").startsWith(`${ORGANIZATION} asks you to sign ${first.title}`),
      `the visible text begins with the organization and the title: ${visibleText.slice(0, 120)}`);
    ok(`"${ORGANIZATION} asks you to sign" above the title`);
    checkTimeShown(await page.locator("#expiry").textContent(), session.expiresAt, PHONE_PLACE,
      "the link's expiry on a phone in Berlin");

    // The document the page links to is the one the fingerprint names.
    const downloadHref = await page.locator("#doc-download").getAttribute("href");
    const documentUrl = new URL(downloadHref, session.url).href;
    checkEqual(await page.locator("#doc-open").getAttribute("href"), downloadHref, "open link");
    const pdf = Buffer.from(await (await fetch(documentUrl)).arrayBuffer());
    checkEqual(pdf.subarray(0, 5).toString("latin1"), "%PDF-", "downloaded document");
    checkEqual(createHash("sha256").update(pdf).digest("hex"), session.documentSha256, "downloaded document hash");
    await page.locator("#doc-check.ok").waitFor({ timeout: 15_000 });
    ok("download link serves the PDF with that fingerprint; the page checked it too");
    // Full width on a phone: the card's inner width, less the grey margin around the pages.
    await checkPageImages(page, "phone", 320);
    await checkAccessibility(page, "the phone page with the signature place on screen", { places: true });
    await page.evaluate(() => window.scrollTo(0, 0));

    const signature = page.getByLabel("Type your full name as your signature");
    const consent = page.getByRole("checkbox", { name: /I agree to sign electronically/ });
    const signButton = page.getByRole("button", { name: "Sign", exact: true });
    check(await signButton.isDisabled(), "Sign is disabled before a name and consent");
    await signature.fill("Ada Lovelace");
    checkEqual((await page.locator("#signature-preview").textContent()).trim(), "Ada Lovelace", "signature preview");
    check(await signButton.isDisabled(), "Sign is disabled before consent");
    await consent.check();
    check(await signButton.isEnabled(), "Sign is enabled with a name and consent");
    await signature.fill("   ");
    check(await signButton.isDisabled(), "Sign is disabled with a blank name");
    await signature.fill("Ada Lovelace");
    ok("Sign is enabled only with a typed name and consent; the preview follows the name");

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(overflow <= 0, `the page scrolls sideways on a phone by ${overflow}px`);
    await page.screenshot({ path: join(artifactDir, "signing-page.png"), fullPage: true });
    ok(`phone screenshot saved to ${join(artifactDir, "signing-page.png")}`);
    await checkAccessibility(page, "the phone page before signing", { places: true });

    await signButton.click();
    await expectNotice(page, "SIGNED", /signed the document/, "after signing");
    checkEqual(await page.locator("#return-link").getAttribute("href"), returnUrl, "return link");
    await page.waitForURL(returnUrl, { timeout: 15_000 });
    ok("followed the returnUrl after the confirmation");
    const signed = await participantStatus(api, first.id, first.ada);
    checkEqual(signed.participant.state, "signed", "Ada's state through the API");
    check(Boolean(signed.participant.signedAt), "Ada's signedAt through the API");
    ok(`API: participant signed, contract ${signed.contract}`);

    const again = await openPage(phone, session.url, problems);
    run.page = again.page;
    await expectNotice(again.page, "ALREADY_SIGNED", /already signed/, "the used link opened again");
    checkTimeShown(await again.page.locator("#notice-text").textContent(), signed.participant.signedAt,
      PHONE_PLACE, "when Ada signed, on the used link");
    await phone.close();

    // 2. Links that no longer work, on a desktop screen.
    const desktop = await browser.newContext({ ...DESKTOP, ...DESKTOP_PLACE });
    const cancelled = await createSession(api, first.id, first.grace);
    await api.expect(200, "POST", `/api/v1/signing-sessions/${cancelled.sessionId}/cancel`);
    run.page = (await openPage(desktop, cancelled.url, problems)).page;
    await expectNotice(run.page, "SIGNING_SESSION_CANCELLED", /no longer active/, "a cancelled link");

    const replaced = await createSession(api, first.id, first.grace);
    const refreshed = await api.expect(200, "POST", `/api/v1/signing-sessions/${replaced.sessionId}/refresh`);
    check(refreshed.url && refreshed.url !== replaced.url, "refresh gives a new url");
    run.page = (await openPage(desktop, replaced.url, problems)).page;
    await expectNotice(run.page, "SIGNING_SESSION_CANCELLED", /no longer active/, "a link replaced by a refresh");
    run.page = (await openPage(desktop, refreshed.url, problems)).page;
    await run.page.locator("#signing").waitFor({ state: "visible", timeout: 15_000 });
    checkEqual(await run.page.locator("#signer-name").textContent(), "Grace Hopper", "refreshed link signer");
    ok("the refreshed link opens the signing form");
    checkTimeShown(await run.page.locator("#expiry").textContent(), refreshed.expiresAt, DESKTOP_PLACE,
      "the link's expiry on a desktop in New York");
    await run.page.setViewportSize({ width: 1280, height: 800 });
    await checkPageImages(run.page, "desktop", 760);
    await checkAccessibility(run.page, "the desktop page", { places: true });
    await run.page.screenshot({ path: join(artifactDir, "signing-page-desktop.png"), fullPage: true });
    ok(`desktop screenshot saved to ${join(artifactDir, "signing-page-desktop.png")}`);

    run.page = (await openPage(desktop, `${base}/sign/tok_this_link_does_not_exist`, problems)).page;
    await expectNotice(run.page, "SIGNING_SESSION_NOT_FOUND", /not valid/, "an unknown link");
    await checkAccessibility(run.page, "the notice of an unknown link");

    // The sender withdraws a contract: its open link says so, in words a signer understands.
    const withdrawn = await sendNda(api, "Mutual NDA: withdrawn by the sender");
    const withdrawnLink = await createSession(api, withdrawn.id, withdrawn.ada);
    await api.expect(200, "POST", `/api/v1/contracts/${withdrawn.id}/void`, { reason: "Sent by mistake" });
    run.page = (await openPage(desktop, withdrawnLink.url, problems)).page;
    await expectNotice(run.page, "SIGNING_SESSION_GONE", /was withdrawn/, "a link of a voided contract");
    const withdrawnText = await run.page.locator("#notice-text").textContent();
    check(/withdrawn by the sender/.test(withdrawnText) && /do not need to sign/.test(withdrawnText),
      `a link of a voided contract: notice text "${withdrawnText}"`);

    // A contract that expires in a few seconds: its link is checked in part 4.
    const lapsing = await sendNda(api, "Mutual NDA: not signed in time",
      { signingSettings: { expiresAt: new Date(Date.now() + 4000).toISOString() } });
    const lapsingLink = await createSession(api, lapsing.id, lapsing.ada);

    // 3. Ada declines another contract with a reason; Grace's open link dies with it.
    const second = await sendNda(api, "Mutual NDA: declined in the browser");
    const graceLink = await createSession(api, second.id, second.grace);
    const declineSession = await createSession(api, second.id, second.ada);
    const declinePage = (await openPage(desktop, declineSession.url, problems)).page;
    run.page = declinePage;
    await declinePage.locator("#signing").waitFor({ state: "visible", timeout: 15_000 });
    await declinePage.getByRole("button", { name: "Decline", exact: true }).click();
    const confirm = declinePage.getByRole("button", { name: "Decline to sign" });
    check(await confirm.isDisabled(), "decline needs a reason");
    await declinePage.getByLabel("Why are you declining?").fill("The confidentiality term is too long.");
    check(await confirm.isEnabled(), "decline is possible with a reason");
    await checkAccessibility(declinePage, "the decline form");
    await confirm.click();
    await expectNotice(declinePage, "DECLINED", /declined to sign/, "after declining");
    const declined = await participantStatus(api, second.id, second.ada);
    checkEqual(declined.contract, "declined", "contract status after the decline");
    checkEqual(declined.participant.state, "declined", "Ada's state after the decline");
    ok("API: contract declined");

    run.page = (await openPage(desktop, declineSession.url, problems)).page;
    await expectNotice(run.page, "ALREADY_DECLINED", /declined this document/, "the declined link opened again");
    run.page = (await openPage(desktop, graceLink.url, problems)).page;
    await expectNotice(run.page, "SIGNING_SESSION_CANCELLED", /no longer active/,
      "another signer's link after the contract was declined");
    // 3b. Ada must first give the access code the sender told her; a wrong one costs a try.
    const guarded = await sendNda(api, "Mutual NDA: behind an access code", undefined,
      { authentication: "access_code", accessCode: "Analytical-1843" });
    const guardedLink = await createSession(api, guarded.id, guarded.ada);
    const guardedPage = (await openPage(desktop, guardedLink.url, problems)).page;
    run.page = guardedPage;
    await guardedPage.locator("#auth-form").waitFor({ state: "visible", timeout: 15_000 });
    check(await guardedPage.locator("#signing").isHidden(), "the document is hidden before the code");
    const codeField = guardedPage.getByLabel("Access code");
    await codeField.fill("Analytical-0000");
    await guardedPage.getByRole("button", { name: "Continue" }).click();
    await guardedPage.locator("#auth-error").waitFor({ state: "visible", timeout: 15_000 });
    checkEqual(await guardedPage.locator("#auth-remaining").textContent(), "4 tries left.",
      "tries left after a wrong code");
    ok("the page asks for the access code and counts a wrong one");
    await checkAccessibility(guardedPage, "the access-code form after a wrong code");
    await codeField.fill("Analytical-1843");
    await guardedPage.getByRole("button", { name: "Continue" }).click();
    await guardedPage.locator("#signing").waitFor({ state: "visible", timeout: 15_000 });
    await guardedPage.locator("#doc-check.ok").waitFor({ timeout: 15_000 });
    await guardedPage.locator('.page-sheet[data-page="1"][data-state="loaded"]').waitFor({ timeout: 20_000 });
    ok("the page images load with the signer's proof");
    await guardedPage.getByLabel("Type your full name as your signature").fill("Ada Lovelace");
    await guardedPage.getByRole("checkbox", { name: /I agree to sign electronically/ }).check();
    await guardedPage.getByRole("button", { name: "Sign", exact: true }).click();
    await expectNotice(guardedPage, "SIGNED", /signed the document/, "signed behind an access code");
    const guardedStatus = await participantStatus(api, guarded.id, guarded.ada);
    checkEqual(guardedStatus.participant.state, "signed", "Ada's state after the access code");
    ok("API: signed after the right access code");

    // 4. The link created first has expired by now (or soon: wait past its expiry).
    const untilExpired =
      Math.max(Date.parse(expiring.expiresAt), Date.parse(lapsingLink.expiresAt)) + 1500 - Date.now();
    if (untilExpired > 0) {
      console.log(`# waiting ${Math.ceil(untilExpired / 1000)} s for a link to expire`);
      await new Promise((resolve) => setTimeout(resolve, untilExpired));
    }
    run.page = (await openPage(desktop, expiring.url, problems)).page;
    await expectNotice(run.page, "SIGNING_SESSION_EXPIRED", /has expired/, "an expired link");
    // The contract that expired: the service expired it by itself, and its link says so.
    const lapsed = await participantStatus(api, lapsing.id, lapsing.ada);
    checkEqual(lapsed.contract, "expired", "contract status after its expiresAt");
    run.page = (await openPage(desktop, lapsingLink.url, problems)).page;
    await expectNotice(run.page, "SIGNING_SESSION_GONE", /time to sign this contract has passed/,
      "a link of an expired contract");

    // 5. An organization without a name: the page says who asks no other way (no id, no stand-in).
    await setDemoOrganization(contractdBinary, run.dataDir, ["--name", ""]);
    run.page = (await openPage(desktop, refreshed.url, problems)).page;
    await run.page.locator("#signing").waitFor({ state: "visible", timeout: 15_000 });
    checkEqual((await run.page.locator("#asker").textContent()).trim(), "You are asked to sign",
      "who asks, for an organization without a name");
    const unnamedText = await run.page.locator("body").innerText();
    check(!unnamedText.includes(ORGANIZATION) && !unnamedText.includes("org_demo"),
      "neither the old name nor the organization's id is shown");
    ok("an organization without a name: \"You are asked to sign\"");
    await desktop.close();
  });
}

runTest(main, OVERALL_TIMEOUT_MS, "all signing page checks passed");
