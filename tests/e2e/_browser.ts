/**
 * Driving Debian's Chromium with playwright-core against the real service. Browser tests are
 * required where `LAPSE_BROWSER_REQUIRED=1` (CI); elsewhere, without Chromium, they are skipped
 * with a loud warning, never silently.
 * @module
 */
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { type ServiceProcess, startService } from "../../testing/server.ts";

/** The Chromium binary: `CHROMIUM_PATH`, or Debian's. */
export const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";

/** Whether a missing browser fails the run instead of skipping the browser tests. */
export const BROWSER_REQUIRED = Deno.env.get("LAPSE_BROWSER_REQUIRED") === "1";

/** Whether the browser tests are skipped on this machine (after a loud warning). */
export const SKIP_BROWSER_TESTS = !BROWSER_REQUIRED && !chromiumPresent();

if (SKIP_BROWSER_TESTS) {
  console.warn(
    `\n%c!!! BROWSER TESTS SKIPPED: no Chromium at ${CHROMIUM_PATH}.` +
      "\n!!! Install it (apt-get install chromium) or set CHROMIUM_PATH; CI sets" +
      " LAPSE_BROWSER_REQUIRED=1, where a missing browser fails.\n",
    "color: red; font-weight: bold",
  );
}

/** Where the tests write their screenshots (git-ignored). */
export const SCREENSHOTS = new URL("../artifacts/screenshots/", import.meta.url);

// Without the background-networking flags Chromium dials out at start, and this network refuses.
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

function chromiumPresent(): boolean {
  try {
    return Deno.statSync(CHROMIUM_PATH).isFile;
  } catch {
    return false;
  }
}

/** A running service, a browser, and a way to open pages on it. */
export interface BrowserFixture extends AsyncDisposable {
  service: ServiceProcess;
  browser: Browser;
  /** The service's origin. */
  origin: string;
  /** The service's KV file, for a test that fills the store faster than the API would. */
  kvPath: string;
  /**
   * Origin of a stand-in destination site on another loopback address (the service refuses
   * links to its own host): it answers every path with `arrived at <path>`.
   */
  destination: string;
  /** A page in a new context with `options`; closed with the fixture. */
  open(options?: BrowserContextOptions): Promise<Page>;
}

/** Starts the service (on a temporary KV file) and Chromium. */
export async function startBrowserFixture(): Promise<BrowserFixture> {
  const dir = await Deno.makeTempDir({ prefix: "lapse-e2e-" });
  const service = await startService({ env: { KV_PATH: `${dir}/links.kv` }, timeoutMs: 60_000 });
  const site = Deno.serve(
    { hostname: "127.0.0.2", port: 0, onListen: () => {} },
    (request) =>
      new Response(`<title>arrived</title><p>arrived at ${new URL(request.url).pathname}</p>`, {
        headers: { "Content-Type": "text/html; charset=utf-8" },
      }),
  );
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  } catch (error) {
    await site.shutdown();
    await service[Symbol.asyncDispose]();
    throw error;
  }
  return {
    service,
    browser,
    origin: service.origin,
    kvPath: `${dir}/links.kv`,
    destination: `http://127.0.0.2:${site.addr.port}`,
    async open(options = {}) {
      const context = await browser.newContext({ baseURL: service.origin, ...options });
      return await context.newPage();
    },
    async [Symbol.asyncDispose]() {
      try {
        await browser.close();
        await site.shutdown();
      } finally {
        await service[Symbol.asyncDispose]();
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    },
  };
}

/**
 * Waits until every island on `page` has hydrated, but those inside a closed `<details>`, which
 * hydrate when it opens (call this again after opening one).
 */
export async function waitForIslands(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLElement>("[data-island]")].every((island) =>
      "hydrated" in island.dataset || island.closest("details:not([open])") !== null
    )
  );
}

/** Saves a full-page screenshot as `name.png` under {@linkcode SCREENSHOTS}. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });
}

/** The permissions a page needs to test a copy button (`watchedPage(f, {permissions})`). */
export const CLIPBOARD = ["clipboard-read", "clipboard-write"];

/** A page of `f` that records CSP violations, script errors and dialogs in `problems`. */
export async function watchedPage(
  f: BrowserFixture,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; problems: string[] }> {
  const page = await f.open(options);
  const problems: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("dialog", async (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    await dialog.dismiss();
  });
  return { page, problems };
}

/** Makes a link through the API of `f`'s service, and returns it. */
export async function createByApi(
  f: BrowserFixture,
  body: Record<string, string>,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${f.origin}/api/create`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  return await res.json();
}

/** Opens the start page's "More options" (custom name, title, note, password, visit limit) if closed. */
export async function openMoreOptions(page: Page): Promise<void> {
  const more = page.locator("details.more");
  if (!(await more.evaluate((details) => (details as HTMLDetailsElement).open))) {
    await more.locator("summary").click();
  }
}

/**
 * Words cut in two on `page`: each word of the visible text outside addresses and code (which
 * may break anywhere) that the browser laid out on more than one line. Hyphens and slashes are
 * places a word may end, so a name broken after one is not counted.
 */
export async function brokenWords(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    const skip = ".url, code, pre, svg, input, textarea, .visually-hidden, [hidden]";
    const broken: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(skip) || parent.getClientRects().length === 0) continue;
      const text = node.textContent ?? "";
      for (const match of text.matchAll(/[^\s\-\/]+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index!);
        range.setEnd(node, match.index! + match[0].length);
        const tops = new Set(
          [...range.getClientRects()].filter((r) => r.width > 0)
            .map((r) => Math.round(r.top)),
        );
        if (tops.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}
