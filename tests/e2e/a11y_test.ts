import axe from "axe-core";
import { h, type VNode } from "preact";
import type { Page } from "playwright-core";
import { StatsPage } from "../../components/StatsPage.tsx";
import type { Stats } from "../../lib/stats/types.ts";
import { renderPage } from "../../routes/_lib/html.ts";
import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  brokenWords,
  type BrowserFixture,
  openMoreOptions,
  screenshot,
  SKIP_BROWSER_TESTS,
  startBrowserFixture,
  waitForIslands,
} from "./_browser.ts";

const AXE_SOURCE = (axe as unknown as { source: string }).source;

/** Figures for the stats page until the click analytics fill it: a busy week. */
const BUSY_WEEK: Stats = {
  links: 42,
  clicks: 1234,
  days: [3, 8, 5, 12, 9, 4, 1].map((links, i) => ({
    date: `2026-11-${String(16 + i).padStart(2, "0")}`,
    links,
    clicks: [120, 260, 90, 310, 240, 150, 64][i]!,
  })),
  top: [
    { slug: "launch", shortUrl: "http://127.0.0.1/launch", title: "Launch notes", clicks: 512 },
    { slug: "menu", shortUrl: "http://127.0.0.1/menu", title: "", clicks: 230 },
    {
      slug: "a-much-longer-custom-slug-name",
      shortUrl: "http://127.0.0.1/x",
      title: "",
      clicks: 8,
    },
  ],
  referrers: [
    { name: "direct", clicks: 700 },
    { name: "news.example.com", clicks: 400 },
    { name: "<script>alert(1)</script>", clicks: 12 },
  ],
  devices: [
    { name: "mobile", clicks: 800 },
    { name: "desktop", clicks: 420 },
    { name: "bot", clicks: 90 },
    { name: "tablet", clicks: 14 },
  ],
  countries: [{ name: "DE", clicks: 600 }, { name: "US", clicks: 500 }, {
    name: "unknown",
    clicks: 134,
  }],
};

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[]; failureSummary: string }[];
}

async function axeViolations(page: Page): Promise<Violation[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  return await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run(document, { resultTypes: ["violations"] });
    // deno-lint-ignore no-explicit-any
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      // deno-lint-ignore no-explicit-any
      nodes: v.nodes.map((n: any) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
}

function describe(violations: Violation[]): string {
  return violations.map((v) =>
    `${v.id} (${v.impact}): ${v.help}\n` +
    v.nodes.map((n) => `  ${n.target.join(" ")}: ${n.failureSummary}`).join("\n")
  ).join("\n");
}

/** Makes a link through the start page's form and waits for its card and recent list. */
async function showResult(page: Page): Promise<void> {
  await page.goto("/");
  await waitForIslands(page);
  await page.getByLabel("Destination", { exact: true }).fill(
    "example.com/a/very/long/destination/that/should/wrap/nicely/on/small/screens?q=1",
  );
  await openMoreOptions(page);
  await page.getByLabel("Title (optional)").fill("A title for the card");
  await page.getByRole("button", { name: "Shorten", exact: true }).click();
  await page.locator(".result").waitFor();
  await page.locator("#recent-heading").waitFor();
}

async function preparePages(f: BrowserFixture): Promise<Record<string, string>> {
  for (
    const body of [
      {
        url: "example.com/a/rather/long/path?with=query&and=more",
        slug: "docs-page",
        title: "Docs",
      },
      { url: `${f.destination}/locked`, slug: "locked-one", title: "Locked", pass: "pw" },
      { url: "example.org", slug: "noted", note: "A note that runs on for a while to wrap." },
      {
        url: `${f.destination}/minutes`,
        slug: "board-minutes",
        title: "Minutes of the board meeting",
        maxVisits: 5,
      },
    ]
  ) {
    const res = await fetch(`${f.origin}/api/create`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    assertEquals(res.status, 201);
    await res.body?.cancel();
  }
  return {
    home: "/",
    links: "/links",
    link: "/links/docs-page",
    "link-locked": "/links/locked-one",
    stats: "/stats",
    "stats-figures": "/stats?figures",
    about: "/about",
    changelog: "/changelog",
    docs: "/docs",
    "not-found": "/no-such-link",
    unlock: "/locked-one",
    open: "/board-minutes",
    "link-limited": "/links/board-minutes",
  };
}

Deno.test({
  name: "every page passes axe in light and dark, and is photographed at 1280 and 390 px",
  ignore: SKIP_BROWSER_TESTS,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using f = await startBrowserFixture();
    const pages = await preparePages(f);
    const figures = renderPage(h(StatsPage, { stats: BUSY_WEEK }) as VNode);
    const figuresHtml = await figures.text();
    await t.step(
      "axe reports a deliberately unlabelled field (the check itself works)",
      async () => {
        const page = await f.open({ bypassCSP: true });
        await page.setContent('<html lang="en"><title>t</title><main><input></main></html>');
        const ids = (await axeViolations(page)).map((violation) => violation.id);
        await page.context().close();
        assertEquals(ids.includes("label"), true, ids.join(", "));
      },
    );
    for (const scheme of ["light", "dark"] as const) {
      await t.step(`no axe violations on any page, ${scheme}`, async () => {
        // The page's CSP would refuse axe's inline script; the pages' own CSP is tested elsewhere.
        const page = await f.open({
          colorScheme: scheme,
          viewport: { width: 1280, height: 800 },
          bypassCSP: true,
        });
        await page.route("**/stats?figures", (route) =>
          route.fulfill({
            status: 200,
            headers: Object.fromEntries(figures.headers),
            body: figuresHtml,
          }));
        const failures: string[] = [];
        for (const [name, path] of Object.entries(pages)) {
          await page.goto(path);
          await waitForIslands(page);
          const violations = await axeViolations(page);
          if (violations.length > 0) failures.push(`${path} (${scheme}):\n${describe(violations)}`);
          await screenshot(page, `${name}-${scheme}-1280`);
        }
        await showResult(page);
        const violations = await axeViolations(page);
        if (violations.length > 0) {
          failures.push(`/ with a result (${scheme}):\n${describe(violations)}`);
        }
        await screenshot(page, `home-result-${scheme}-1280`);
        await page.context().close();
        assertEquals(failures, [], failures.join("\n\n"));
      });
      await t.step(`every page fits 390 px and passes axe there, ${scheme}`, async () => {
        const page = await f.open({
          colorScheme: scheme,
          viewport: { width: 390, height: 844 },
          bypassCSP: true, // for axe's inline script, as above
        });
        await page.route("**/stats?figures", (route) =>
          route.fulfill({
            status: 200,
            headers: Object.fromEntries(figures.headers),
            body: figuresHtml,
          }));
        const failures: string[] = [];
        for (const [name, path] of Object.entries(pages)) {
          await page.goto(path);
          await waitForIslands(page);
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          if (width > 390) failures.push(`${path}: ${width} px wide`);
          // What scrolls inside the page at this width must be reachable by keyboard, say.
          const violations = await axeViolations(page);
          if (violations.length > 0) failures.push(`${path}:\n${describe(violations)}`);
          await screenshot(page, `${name}-${scheme}-390`);
        }
        await showResult(page);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > 390) failures.push(`/ with a result: ${width} px wide`);
        const violations = await axeViolations(page);
        if (violations.length > 0) failures.push(`/ with a result:\n${describe(violations)}`);
        await screenshot(page, `home-result-${scheme}-390`);
        await page.context().close();
        assertEquals(failures, [], failures.join("\n\n"));
      });
    }
    await t.step(
      "from 320 px up no page is wider than the screen or cuts a word in two",
      async () => {
        const page = await f.open({ bypassCSP: true });
        await page.route("**/stats?figures", (route) =>
          route.fulfill({
            status: 200,
            headers: Object.fromEntries(figures.headers),
            body: figuresHtml,
          }));
        const failures: string[] = [];
        for (const width of [320, 390, 768, 1280]) {
          await page.setViewportSize({ width, height: 800 });
          for (const path of Object.values(pages)) {
            await page.goto(path);
            await waitForIslands(page);
            const wide = await page.evaluate(() => document.documentElement.scrollWidth);
            if (wide > width) failures.push(`${path} at ${width} px: ${wide} px wide`);
            const broken = await brokenWords(page);
            if (broken.length > 0) {
              failures.push(`${path} at ${width} px cuts ${broken.join(", ")}`);
            }
          }
          await showResult(page);
          const broken = await brokenWords(page);
          if (broken.length > 0) failures.push(`/ with a result at ${width} px cuts ${broken}`);
        }
        // The check itself finds a word that is cut.
        await page.setViewportSize({ width: 320, height: 800 });
        await page.setContent(
          '<p style="width: 60px; overflow-wrap: anywhere">protected by a password</p>',
        );
        const cut = await brokenWords(page);
        assert(cut.includes("password"), cut.join(", "));
        await page.context().close();
        assertEquals(failures, [], failures.join("\n"));
      },
    );
  },
});
