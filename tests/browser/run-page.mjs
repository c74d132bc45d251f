// Drives the page's "Run my code" view in headless Chromium (Debian's /usr/bin/chromium),
// through playwright-core (npm), as a student would: choose the course, the files, the class,
// the spec and the case, press "Run and check", read the verdicts and the report.
//   node run-page.mjs PLAYWRIGHT_DIR BASE_URL SCENARIOS.json OUT.json SCREENSHOT.png
// tests/web_page.rs writes the scenarios, serves the page and compares what this prints with
// the command line. Every request the page (and its workers) makes is recorded: anything not
// under BASE_URL is aborted and reported.
import { createRequire } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";

const [playwrightDir, base, scenariosFile, outFile, shotFile] = process.argv.slice(2);
const require = createRequire(playwrightDir + "/");
const { chromium } = require("playwright-core");
const scenarios = JSON.parse(readFileSync(scenariosFile, "utf8"));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
const requests = [];
const outside = [];
await context.route("**/*", (route) => {
  const url = route.request().url();
  if (url.startsWith(base)) return route.continue();
  outside.push(url);
  return route.abort();
});
context.on("request", (r) => requests.push(r.url()));
const page = await context.newPage();
const consoleErrors = [];
page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
page.on("worker", (w) => w.on("console", (m) => { if (m.type() === "error") consoleErrors.push("worker: " + m.text()); }));

const pageStart = Date.now();
await page.goto(base + "index.html#view=run");
await page.waitForSelector("body[data-ready=yes]", { timeout: 60000 });
const results = { pageReadyMs: Date.now() - pageStart, runs: [] };
// Before anything is run, the runtime is not loaded: only the page's own files.
results.requestsBeforeRun = requests.slice();

for (const s of scenarios) {
  // A fresh set of files for each run (the remove buttons, as a student would).
  for (;;) {
    const remove = await page.$("#run-file-list button");
    if (!remove) break;
    await remove.click();
  }
  await page.selectOption("#run-course", s.course);
  await page.setInputFiles("#run-files", s.files);
  await page.waitForFunction((n) => document.querySelectorAll("#run-file-list li").length === n, s.files.length);
  if (s.module) await page.selectOption("#run-module", s.module);
  if (s.class) await page.selectOption("#run-class", s.class);
  if (s.spec) await page.selectOption("#run-spec", s.spec);
  await page.selectOption("#run-case", s.case || "*");
  if (s.timeout) {
    // A limit the menu may not offer (a test's short one): added to it.
    await page.evaluate((t) => {
      const sel = document.getElementById("run-timeout");
      if (![...sel.options].some((o) => o.value === String(t))) sel.append(new Option(t + " s", String(t)));
    }, s.timeout);
    await page.selectOption("#run-timeout", String(s.timeout));
  }
  const started = Date.now();
  await page.evaluate(() => { document.body.dataset.runDone = "no"; });
  await page.click("#run-go");
  await page.waitForSelector("body[data-run-done=yes]", { timeout: 240000 });
  const wall = Date.now() - started;
  const got = await page.evaluate(() => ({
    progress: document.getElementById("run-progress").textContent,
    command: document.getElementById("run-command").textContent,
    verdicts: [...document.querySelectorAll("#run-verdicts li")].map((li) => ({
      case: li.dataset.case, status: li.dataset.status, text: li.textContent,
      runMs: Number(li.dataset.runMs || 0), judgeMs: Number(li.dataset.judgeMs || 0),
    })),
    verdict: document.getElementById("run-verdict").textContent,
    mistakes: document.getElementById("run-mistakes").textContent,
    place: document.getElementById("run-place").textContent,
    first: (document.getElementById("run-first-divergence") || {}).textContent || "",
    tree: document.getElementById("run-tree").innerHTML,
    report: document.getElementById("run-report").textContent,
    pythonReadyMs: Number(document.body.dataset.pythonReadyMs || 0),
    gameMs: Number(document.body.dataset.gameMs || 0),
  }));
  // Each case's report, for the comparison with the command line.
  got.reports = [];
  for (let i = 0; i < got.verdicts.length && s.course !== "csc148-game"; i++) {
    await page.click(`#run-verdicts li:nth-child(${i + 1}) button`);
    got.reports.push(await page.textContent("#run-report"));
  }
  if (s.course !== "csc148-game" && got.verdicts.length) {
    // Back to the case the page showed first (the first that failed).
    const shown = got.verdicts.findIndex((v) => v.status !== "PASS");
    await page.click(`#run-verdicts li:nth-child(${(shown < 0 ? 0 : shown) + 1}) button`);
  }
  if (s.screenshot) await page.screenshot({ path: shotFile, fullPage: true });
  results.runs.push({ name: s.name, wall, ...got });
}

results.requests = [...new Set(requests)];
results.outside = outside;
results.consoleErrors = consoleErrors;
writeFileSync(outFile, JSON.stringify(results, null, 1));
await browser.close();
