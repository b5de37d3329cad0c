// What the browser tests share: checks that print "ok - ..." lines, a contractd on a fresh data
// directory with its demo client, an API client, a page that records script errors and CSP
// refusals, axe-core's accessibility check, and a guard that ends every child process when a test
// runs out of time.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const sourceDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
export const DESKTOP = { viewport: { width: 1280, height: 900 } };

// CONTRACTD_BINARY ARTIFACT_DIR, as every browser test takes them; without them, a usage line
// and exit 2.
export function testArguments(script) {
  const [contractdBinary, artifactDir] = process.argv.slice(2);
  if (!contractdBinary || !artifactDir) {
    console.error(`usage: node ${script} CONTRACTD_BINARY ARTIFACT_DIR`);
    process.exit(2);
  }
  return { contractdBinary, artifactDir };
}

// Debian's Chromium (or the CHROMIUM environment variable's), headless.
export function launchChromium() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true,
    args: ["--no-sandbox"] });
}

export class CheckFailed extends Error {}

export function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

export function checkEqual(actual, expected, what) {
  check(actual === expected, `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

export function ok(message) {
  console.log(`ok - ${message}`);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Every child started here, so that a timeout can still end them.
const children = new Set();

// Starts a child that the kernel kills when this test process dies, however it dies (a timeout's
// SIGKILL runs no handler of ours): util-linux's setpriv sets PR_SET_PDEATHSIG and then execs.
export function spawnTied(command, args, options) {
  return track(spawn("setpriv", ["--pdeathsig", "KILL", "--", command, ...args], options));
}

export function track(child) {
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
}

// contractd on a fresh data directory and a free loopback port, with its demo client;
// `extraArgs` are more flags of `contractd serve`.
export async function startContractd(binary, dataDir, extraArgs = []) {
  const child = spawnTied(binary, ["serve", "--data-dir", dataDir, "--listen", "127.0.0.1:0",
    "--demo-client", "true", "--templates", join(sourceDir, "examples", "templates"), ...extraArgs],
  { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => { output += chunk; });
  const started = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`contractd did not start:\n${output}`)), 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`contractd exited with ${code}:\n${output}`));
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
      const port = output.match(/listening on http:\/\/127\.0\.0\.1:(\d+)/);
      if (!port) return;
      const clientId = output.match(/clientId\s+(cli_\S+)/);
      const clientSecret = output.match(/clientSecret\s+(\S+)/);
      clearTimeout(timer);
      if (!clientId || !clientSecret) {
        reject(new Error(`no demo client banner:\n${output}`));
        return;
      }
      resolve({ port: Number(port[1]), clientId: clientId[1], clientSecret: clientSecret[1] });
    });
  });
  const info = await started;
  child.removeAllListeners("exit");
  child.on("exit", () => children.delete(child));
  return { child, output: () => output, ...info };
}

// `contractd organizations set` for the demo organization (org_demo), told to the running service
// through its data directory's admin socket; `args` are its flags, such as ["--name", "Acme GmbH"].
export async function setDemoOrganization(binary, dataDir, args) {
  const child = spawnTied(binary, ["organizations", "set", "--data-dir", dataDir, "--org", "org_demo", ...args],
    { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => { output += chunk; });
  child.stderr.on("data", (chunk) => { output += chunk; });
  const code = await new Promise((resolve) => child.on("exit", resolve));
  checkEqual(code, 0, `contractd organizations set ${args.join(" ")} (${output.trim()})`);
}

// SIGTERM, then SIGKILL after 30 s; resolves with the exit code.
export async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

export function apiClient(base) {
  let bearer = null;
  async function call(method, path, body, headers = {}) {
    const init = { method, headers: { ...headers } };
    if (bearer) init.headers.Authorization = `Bearer ${bearer}`;
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(base + path, init);
    const text = await response.text();
    let json = null;
    try { json = JSON.parse(text); } catch { json = null; }
    return { status: response.status, json, text, headers: response.headers };
  }
  async function expect(status, method, path, body, headers) {
    const result = await call(method, path, body, headers);
    check(result.status === status, `${method} ${path}: expected ${status}, got ${result.status} ${result.text}`);
    return result.json;
  }
  return { call, expect, setBearer: (token) => { bearer = token; }, authorization: () => `Bearer ${bearer}` };
}

// An API client of the demo client of `server`, with a machine token.
export async function demoApi(server) {
  const api = apiClient(`http://127.0.0.1:${server.port}`);
  const token = await api.expect(200, "POST", "/api/v1/auth/machine-token",
    { clientId: server.clientId, clientSecret: server.clientSecret });
  api.setBearer(token.accessToken);
  return api;
}

// Uploads tests/fixtures/documents/<name> as the demo client (POST /api/v1/documents, the PDF as
// the body) and returns the answer; anything but 201 fails the check.
export async function uploadFixture(api, base, name) {
  const response = await fetch(`${base}/api/v1/documents?name=${encodeURIComponent(name)}`, {
    method: "POST", body: readFileSync(join(sourceDir, "tests", "fixtures", "documents", name)),
    headers: { Authorization: api.authorization(), "Content-Type": "application/pdf" },
  });
  const text = await response.text();
  checkEqual(response.status, 201, `upload of ${name}: ${text}`);
  return JSON.parse(text);
}

// A page that records what must never happen: script errors and Content-Security-Policy refusals.
export async function openPage(context, url, problems) {
  const page = await context.newPage();
  page.on("pageerror", (error) => problems.push(`script error on ${url}: ${error.message}`));
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) {
      problems.push(`CSP refusal on ${url}: ${message.text()}`);
    }
  });
  const response = await page.goto(url);
  check(response !== null, `no response for ${url}`);
  return { page, response };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

// The labels over the page images ("You sign here", a field's name): small text over a document,
// held to 7:1 (axe's color-contrast-enhanced, WCAG AAA) where AA asks 4.5:1.
const PLACE_LABELS = ".field-box .tag";

// axe-core in the page or frame (evaluated through the browser's debugging protocol, which the
// page's Content-Security-Policy does not govern): no serious or critical violation, and the
// labels of the signer's places, if any are drawn, measured against 7:1. With `places: true`
// at least one label must have been measured: the check ran where the places are on the pages.
export async function checkAccessibility(page, what, { places = false } = {}) {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  check(bad.length === 0, `${what}: axe found ${describe(bad)}`);
  const labels = await page.evaluate(async (selector) => {
    if (!document.querySelector(selector)) return null;
    return window.axe.run(selector, { runOnly: ["color-contrast-enhanced"] });
  }, PLACE_LABELS);
  const measured = labels ? labels.passes.concat(labels.violations).flatMap((r) => r.nodes) : [];
  if (labels) {
    check(labels.violations.length === 0, `${what}: the labels of the places: axe found ${describe(labels.violations)}`);
    check(labels.incomplete.length === 0, `${what}: axe could not measure the labels of the places at ` +
      labels.incomplete.flatMap((r) => r.nodes.map((n) => n.target.join(" "))).join(", "));
  }
  check(!places || measured.length > 0, `${what}: no label of a place on the pages was measured`);
  const ratios = [...new Set(measured.map((n) => n.any[0] && n.any[0].data && n.any[0].data.contrastRatio))];
  ok(`${what}: axe-core ${result.testEngine.version}, no serious or critical violation` +
    ` (${result.violations.length} minor or moderate)` +
    (measured.length ? `; place labels at ${ratios.join(", ")}:1 (${measured.length})` : ""));
}

function describe(violations) {
  return violations.map((v) =>
    `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`).join("; ");
}

// What a failed check leaves behind: a screenshot of the page that was open (if one was) as
// `shotPath`, and the problems the browser reported.
export async function reportFailure(page, shotPath, problems) {
  if (page) {
    await page.screenshot({ path: shotPath, fullPage: true }).catch(() => {});
    console.error(`screenshot of the page at the failure: ${shotPath}`);
  }
  if (problems.length) console.error(problems.join("\n"));
}

// Closes the browser and stops contractd (either may be null), printing contractd's output when
// it did not stop cleanly.
export async function closeBrowserAndContractd(browser, server) {
  if (browser) await browser.close().catch(() => {});
  if (server) {
    const code = await stopChild(server.child);
    if (code !== 0) console.error(`contractd stopped with ${code}:\n${server.output()}`);
  }
}

// Runs `body(run)` with a fresh data directory (`run.dataDir`) and the list the pages report their
// problems into (`run.problems`); `body` puts what it starts in `run.server` and `run.browser`, and
// the page it is looking at in `run.page`. Passes only when the browser reported no problem; a
// failure leaves a screenshot of `run.page` as ARTIFACT_DIR/`name`-failure.png. Everything is
// stopped and the data directory removed, however it ends.
export async function browserRun(artifactDir, name, body) {
  mkdirSync(artifactDir, { recursive: true });
  const run = { dataDir: mkdtempSync(join(tmpdir(), `${name}-`)), problems: [], server: null, browser: null,
    page: null };
  try {
    await body(run);
    run.page = null;
    check(run.problems.length === 0, `problems in the browser:\n${run.problems.join("\n")}`);
    ok("no script errors and no Content-Security-Policy refusals");
  } catch (error) {
    await reportFailure(run.page, join(artifactDir, `${name}-failure.png`), run.problems);
    throw error;
  } finally {
    await closeBrowserAndContractd(run.browser, run.server);
    rmSync(run.dataDir, { recursive: true, force: true });
  }
}

// Runs `main`, prints `passedLine` when it passes and "not ok - ..." when it fails; after
// `timeoutMs` it kills every tracked child and exits 1.
export function runTest(main, timeoutMs, passedLine) {
  const guard = setTimeout(() => {
    console.error(`not ok - the check did not finish within ${timeoutMs / 1000} s`);
    for (const child of children) child.kill("SIGKILL");
    process.exit(1);
  }, timeoutMs);
  main().then(() => {
    clearTimeout(guard);
    console.log(passedLine);
  }, (error) => {
    clearTimeout(guard);
    console.error(`not ok - ${error instanceof CheckFailed ? error.message : error.stack}`);
    process.exitCode = 1;
  });
}
