// verify-site.mjs HTML_DIR CHROMIUM: serves the built docs on 127.0.0.1, opens them in headless
// Chromium and fails (exit 1) on
//   - a lesson page (lessonNN.html) that the course map on the main page does not link,
//   - a link from the main page or a lesson page to a page that does not exist,
//   - a request answered 404 (page, script, style, image), an image that does not render,
//   - any console error or uncaught exception on a visited page,
//   - a lesson page without its previous/next bar, or hints that do not open one at a time.
import { chromium } from "playwright-core";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";

const [htmlArgument, executablePath] = process.argv.slice(2);
const htmlDir = path.resolve(htmlArgument);
const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".png": "image/png",
                ".svg": "image/svg+xml", ".map": "text/plain", ".json": "application/json" };
const server = http.createServer((request, response) => {
  if (request.url === "/favicon.ico") {  // asked for by the browser itself, not by the site
    response.writeHead(204);
    response.end();
    return;
  }
  const name = decodeURIComponent(new URL(request.url, "http://x").pathname).replace(/^\/+/, "") || "index.html";
  const file = path.join(htmlDir, path.normalize(name));
  if (!file.startsWith(path.resolve(htmlDir)) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    response.writeHead(404);
    response.end("not found");
    return;
  }
  response.writeHead(200, { "Content-Type": types[path.extname(file)] || "application/octet-stream" });
  fs.createReadStream(file).pipe(response);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const problems = [];
const problem = (where, what) => { problems.push(`${where}: ${what}`); console.log(`  FAIL ${where}: ${what}`); };

// Opens one page; returns the local pages it links to.
async function visit(name) {
  const page = await browser.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") problem(name, `console error: ${message.text()} (${(message.location() || {}).url || ""})`);
  });
  page.on("pageerror", (error) => problem(name, `uncaught exception: ${error.message}`));
  page.on("response", (response) => {
    if (response.status() >= 400) problem(name, `${response.status()} for ${response.url().replace(base, "")}`);
  });
  page.on("requestfailed", (request) => problem(name, `request failed: ${request.url().replace(base, "")}`));
  const response = await page.goto(base + name, { waitUntil: "load" });
  if (!response || response.status() !== 200) {
    problem(name, "page missing");
    await page.close();
    return [];
  }
  await page.waitForTimeout(150);  // let the tree view's scripts run
  // Wait until every image has loaded or failed (at most 5 s), then look for empty ones. The
  // tree view swaps some icons while it starts, so a suspect is looked at again a second later.
  const brokenImages = () => page.evaluate(async () => {
    const images = Array.from(document.images).filter((image) => image.getAttribute("src"));
    await Promise.all(images.map((image) => image.complete ? null : new Promise((done) => {
      image.addEventListener("load", done);
      image.addEventListener("error", done);
      setTimeout(done, 5000);
    })));
    return images.filter((image) => image.isConnected && image.complete && image.naturalWidth === 0)
      .map((image) => image.getAttribute("src"));
  });
  let broken = await brokenImages();
  if (broken.length) {
    await page.waitForTimeout(1000);
    broken = await brokenImages();
  }
  for (const src of broken) problem(name, `broken image ${src}`);
  const links = await page.evaluate(() =>
    Array.from(document.querySelectorAll("div.contents a[href], div.header a[href]"))
      .map((a) => a.getAttribute("href")).filter((href) => href && !/^(https?:|mailto:|#|javascript:)/.test(href))
      .map((href) => href.split("#")[0]).filter((href) => href.endsWith(".html")));
  if (/^lesson\d\d\.html$/.test(name)) await checkLessonPage(page, name);
  await page.close();
  return links;
}

async function checkLessonPage(page, name) {
  if ((await page.locator("nav.wb-lesson-nav").count()) < 1) problem(name, "no previous/next navigation bar");
  const hints = page.locator("li.wb-hint");
  const count = await hints.count();
  if (count === 0) return;
  if (count > 1 && (await hints.nth(1).isVisible())) problem(name, "hint 2 visible before hint 1 was opened");
  await hints.nth(0).locator("summary").click();
  // The page reveals the next hint from the "toggle" event, which the browser fires as a task
  // after the click: wait for it (up to 5 s) rather than look at once.
  const revealed = count < 2 || await hints.nth(1).waitFor({ state: "visible", timeout: 5000 })
    .then(() => true, () => false);
  if (!revealed) problem(name, "opening hint 1 did not reveal hint 2");
  console.log(`  ${name}: ${count} hints, revealed one at a time`);
}

const fromIndex = await visit("index.html");
const lessonFiles = fs.readdirSync(htmlDir).filter((f) => /^lesson\d\d\.html$/.test(f)).sort();
const linkedLessons = new Set(fromIndex.filter((href) => /^lesson\d\d\.html$/.test(href)));
if (lessonFiles.length === 0) problem("index.html", "no lesson pages were built");
for (const lesson of lessonFiles) if (!linkedLessons.has(lesson)) problem("index.html", `course map does not link ${lesson}`);

const visited = new Set(["index.html"]);
const queue = [...new Set([...fromIndex, ...lessonFiles])];
while (queue.length) {
  const name = queue.shift();
  if (visited.has(name)) continue;
  visited.add(name);
  const links = await visit(name);
  // Follow links one level beyond the lesson pages (the harness's header pages, other lessons).
  if (/^lesson\d\d\.html$/.test(name)) for (const link of links) if (!visited.has(link)) queue.push(link);
}
await browser.close();
server.close();
console.log(`${visited.size} pages visited (${lessonFiles.length} lesson pages)`);
if (problems.length) {
  console.log(`FAIL: ${problems.length} problems`);
  process.exit(1);
}
console.log("OK: every lesson page and the pages they link render without errors");
