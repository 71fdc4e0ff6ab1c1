/**
 * A link that opens a limited number of times, in Chromium: its Open page, the Open button with
 * and without JavaScript, the unlock page before it, another site's auto-submitting form refused,
 * and the visits left beside the time left in `/links`.
 * @module
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import {
  type BrowserFixture,
  screenshot,
  SKIP_BROWSER_TESTS,
  startBrowserFixture,
  waitForIslands,
  watchedPage,
} from "./_browser.ts";

/** Makes a link through the API (`maxVisits` is a number, as JSON sends it). */
async function make(f: BrowserFixture, body: Record<string, string | number>): Promise<void> {
  const res = await fetch(`${f.origin}/api/create`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  assertEquals(res.status, 201, await res.text());
}

/** The visits `slug` has left, as unshorten tells them. */
async function visitsLeft(f: BrowserFixture, slug: string): Promise<number> {
  const res = await fetch(`${f.origin}/api/unshorten?slug=${slug}`);
  return (await res.json()).visitsLeft;
}

/** Serves `pages` (path to HTML) on 127.0.0.3: another origin than the service's 127.0.0.1. */
function serveElsewhere(pages: Record<string, string>): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.3", port: 0, onListen: () => {} }, (request) => {
    const page = pages[new URL(request.url).pathname];
    if (page === undefined) return new Response("not here", { status: 404 });
    return new Response(page, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

/** Presses Open on the page at `/slug` and returns the text of the page it lands on. */
async function pressOpen(page: Page, slug: string): Promise<string> {
  await page.goto(`/${slug}`);
  await page.getByRole("button", { name: "Open" }).click();
  await page.waitForURL((url) => url.pathname !== `/${slug}`);
  return await page.locator("body").innerText();
}

Deno.test({
  name: "a limited link opens by its Open button in Chromium, and by nothing else",
  ignore: SKIP_BROWSER_TESTS,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using f = await startBrowserFixture();

    for (const javaScriptEnabled of [true, false]) {
      const how = javaScriptEnabled ? "with" : "without";
      await t.step(`the Open page, then Open, ${how} JavaScript`, async () => {
        const slug = `twice-${how}`;
        await make(f, {
          url: `${f.destination}/doc-${how}`,
          slug,
          title: "The board's minutes",
          maxVisits: 2,
        });
        const { page, problems } = await watchedPage(f, { javaScriptEnabled });
        await page.goto(`/${slug}`);
        assertEquals(await page.title(), `Open /${slug} · lapse`);
        const card = await page.locator("main").innerText();
        assertStringIncludes(card, "This link opens twice more, until");
        assertStringIncludes(card, "The board's minutes");
        assert(!card.includes(f.destination), card);
        // Left alone, the page presses nothing: the visits are all there.
        await page.reload();
        assertEquals(await visitsLeft(f, slug), 2);
        assertEquals(await pressOpen(page, slug), `arrived at /doc-${how}`);
        assertEquals(await visitsLeft(f, slug), 1);
        await page.goto(`/${slug}`);
        assertStringIncludes(await page.locator("main").innerText(), "opens once more");
        assertEquals(await pressOpen(page, slug), `arrived at /doc-${how}`);
        const gone = await page.goto(`/${slug}`);
        assertEquals(gone?.status(), 404);
        assertStringIncludes(await page.locator("main").innerText(), "was used up");
        assertEquals(problems, []);
        await page.context().close();
      });
    }

    await t.step("protected and limited: the unlock page, then the Open page", async () => {
      await make(f, {
        url: `${f.destination}/locked-doc`,
        slug: "locked-once",
        pass: "sesame",
        maxVisits: 1,
      });
      const { page, problems } = await watchedPage(f, { javaScriptEnabled: false });
      await page.goto("/locked-once");
      await page.getByLabel("Password").fill("sesame");
      await page.getByRole("button", { name: "Unlock" }).click();
      await page.getByRole("button", { name: "Open" }).waitFor();
      assertEquals(new URL(page.url()).pathname, "/locked-once");
      assertEquals(await visitsLeft(f, "locked-once"), 1, "unlocking took no visit");
      await page.getByRole("button", { name: "Open" }).click();
      await page.waitForURL(`${f.destination}/locked-doc`);
      const spent = await fetch(`${f.origin}/api/unshorten?slug=locked-once`);
      assertEquals([spent.status, (await spent.json()).usedUp], [410, true]);
      assertEquals(problems, []);
      await page.context().close();
    });

    await t.step("another site's auto-submitting form to the link is refused", async () => {
      await make(f, {
        url: `${f.destination}/target`,
        slug: "kept-safe",
        maxVisits: 1,
      });
      const action = `${f.origin}/kept-safe`;
      const site = serveElsewhere({
        "/prize": `<!doctype html><title>win a prize</title>
<form method="post" action="${action}"><input type="hidden" name="from" value=""></form>
<script>document.forms[0].submit();</script>`,
        "/bare": `<!doctype html><title>win a prize</title>
<form method="post" action="${action}"></form><script>document.forms[0].submit();</script>`,
      });
      try {
        const page = await f.open();
        for (const path of ["/prize", "/bare"]) {
          const posted = page.waitForResponse((res) =>
            res.url() === action && res.request().method() === "POST"
          );
          await page.goto(`http://127.0.0.3:${site.addr.port}${path}`);
          const answer = await posted;
          assertEquals(answer.status(), 403, path);
          assertEquals(answer.headers()["location"], undefined);
        }
        assertEquals(await visitsLeft(f, "kept-safe"), 1, "no visit taken");
        // The person, on the link's own page, still opens it.
        assertEquals(await pressOpen(page, "kept-safe"), "arrived at /target");
        await page.context().close();
      } finally {
        await site.shutdown();
      }
    });

    await t.step(
      "/links at 1280 px gives the visits left and the time left a line each",
      async () => {
        await make(f, {
          url: "example.com/row",
          slug: "row-limited",
          maxVisits: 5,
        });
        const page = await f.open({ viewport: { width: 1280, height: 800 } });
        await page.goto("/links");
        await waitForIslands(page);
        const row = page.locator("#link-row-limited .row-time");
        const text = (await row.textContent()) ?? "";
        assertStringIncludes(text, "5 of 5 visits left 6 days 23 hours left");
        const visits = await row.locator(".row-visits").boundingBox();
        const time = await row.locator("span:not(.row-visits):not(.visually-hidden)").first()
          .boundingBox();
        assert(visits !== null && time !== null);
        assert(time.y >= visits.y + visits.height - 1, `${JSON.stringify([visits, time])}`);
        await screenshot(page, "links-limited-row-1280");
        await page.context().close();
      },
    );

    await t.step("the Open page photographed at 390 and 1280 px, light and dark", async () => {
      await make(f, {
        url: "example.com/shot",
        slug: "photographed",
        title: "Tickets for the Saturday concert",
        maxVisits: 3,
      });
      for (const colorScheme of ["light", "dark"] as const) {
        for (const width of [390, 1280]) {
          const page = await f.open({ colorScheme, viewport: { width, height: 800 } });
          await page.goto("/photographed");
          const wide = await page.evaluate(() => document.documentElement.scrollWidth);
          assert(wide <= width, `${wide} px wide at ${width}`);
          await screenshot(page, `open-${colorScheme}-${width}`);
          await page.context().close();
        }
      }
    });
  },
});
