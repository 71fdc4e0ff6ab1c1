import type { Page } from "playwright-core";
import { createStore } from "../../lib/kv/store.ts";
import { createLink } from "../../lib/links/mod.ts";
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import {
  CLIPBOARD,
  createByApi,
  openMoreOptions,
  screenshot,
  SKIP_BROWSER_TESTS,
  startBrowserFixture,
  waitForIslands,
  watchedPage,
} from "./_browser.ts";

const HOSTILE_TITLE = "<img src=x onerror=alert(1)>";
const HOSTILE_NOTE = "</script><script>alert(1)</script>";
// "At most 15 KB", read as 15,000 bytes: the stricter of its two readings.
const MAX_HOME_JS_GZIP = 15_000;

// Makes `count` links straight in the service's store, newer than any made before.
async function fillStore(kvPath: string, count: number): Promise<void> {
  const kv = await Deno.openKv(kvPath);
  try {
    const store = createStore(kv);
    for (let i = 0; i < count; i++) {
      await createLink(store, { url: `example.com/filler/${i}` }, { serviceHost: "127.0.0.1" });
    }
  } finally {
    kv.close();
  }
}

async function slugState(page: Page, state: string): Promise<void> {
  await page.waitForSelector(`#create-slug-hint[data-state="${state}"]`);
}

Deno.test({
  name: "the pages in a real browser",
  ignore: SKIP_BROWSER_TESTS,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using f = await startBrowserFixture();

    await t.step(
      "the start page hydrates its islands and loads at most 15 KB of JavaScript gzipped",
      async () => {
        const { page, problems } = await watchedPage(f);
        // The bytes each script took on the wire, as the server compressed them.
        const scripts: Promise<{ url: string; bytes: number; encoding: string | null }>[] = [];
        page.on("response", (response) => {
          if (!response.url().endsWith(".js")) return;
          scripts.push(
            Promise.all([response.finished(), response.request().sizes()]).then((
              [, sizes],
            ) => ({
              url: response.url(),
              bytes: sizes.responseBodySize,
              encoding: response.headers()["content-encoding"] ?? null,
            })),
          );
        });
        await page.goto("/");
        await waitForIslands(page);
        await page.waitForLoadState("networkidle");
        const loaded = await Promise.all(scripts);
        const total = loaded.reduce((sum, script) => sum + script.bytes, 0);
        console.log(`home page JavaScript: ${loaded.length} files, ${total} bytes gzipped`);
        assert(loaded.some((script) => script.url.endsWith("/static/build/_client.js")));
        assertEquals(loaded.filter((script) => script.encoding !== "gzip"), []);
        assert(loaded.some((script) => /\/CreateForm-\w+\.js$/.test(script.url)));
        assert(total <= MAX_HOME_JS_GZIP, `${total} bytes gzipped is over ${MAX_HOME_JS_GZIP}`);
        // Bulk, behind its closed disclosure, loads and hydrates when it is opened.
        assert(!loaded.some((script) => /\/BulkForm-\w+\.js$/.test(script.url)));
        const bulk = page.locator('[data-island="BulkForm"]');
        assertEquals(await bulk.getAttribute("data-hydrated"), null);
        assertEquals(
          await page.locator("[data-island][data-hydrated]").count(),
          await page.locator("[data-island]").count() - 1,
        );
        await page.getByText("Several links at once").click();
        await page.locator('[data-island="BulkForm"][data-hydrated]').waitFor();
        assertEquals(problems, []);
        await page.context().close();
      },
    );

    await t.step(
      "the create island shows the new link's card in place, and the link redirects",
      async () => {
        const { page, problems } = await watchedPage(f);
        await page.goto("/");
        await waitForIslands(page);
        await page.getByLabel("Destination", { exact: true }).fill(
          `${f.destination}/made-in-browser`,
        );
        await openMoreOptions(page);
        await page.getByLabel("Title (optional)").fill("Made in a browser");
        await page.getByRole("button", { name: "Shorten", exact: true }).click();
        const card = page.locator(".result");
        await card.waitFor();
        assertEquals(new URL(page.url()).pathname, "/"); // the island posted; no navigation
        const shortLink = card.locator(".short-url a");
        const shortUrl = await shortLink.textContent() ?? "";
        assert(shortUrl.startsWith(`${f.origin}/`), shortUrl);
        assertEquals(await shortLink.getAttribute("href"), shortUrl);
        const slug = shortUrl.slice(f.origin.length + 1);
        assertEquals(await card.locator("img.qr").getAttribute("src"), `/api/qr?slug=${slug}`);
        assertEquals(await card.locator(".expiry strong").textContent(), "6 days 23 hours");
        assertEquals(
          await card.getByRole("link", { name: /Clicks and details/ }).getAttribute("href"),
          `/links/${slug}`,
        );
        assertEquals(await page.getByLabel("Destination", { exact: true }).inputValue(), "");
        // Remembered in this browser, across a reload.
        await page.locator("#recent-heading").waitFor();
        await page.reload();
        await waitForIslands(page);
        assertEquals(await page.locator(".recent a").first().textContent(), shortUrl);
        await screenshot(page, "home-result-light");
        await page.locator(".recent a").first().click();
        await page.waitForURL(`${f.destination}/made-in-browser`);
        assertStringIncludes(await page.textContent("p") ?? "", "arrived at /made-in-browser");
        assertEquals(problems, []);
        await page.context().close();
      },
    );

    await t.step(
      "a link made with JavaScript on a made link's page leaves the address of the start page",
      async () => {
        const { page, problems } = await watchedPage(f);
        // A post without a script (the browser's own form post) lands on `/?made=`.
        const posted = await page.request.post("/api/create", {
          form: { url: "example.com/first", slug: "made-first" },
          headers: { Accept: "text/html" },
          maxRedirects: 0,
        });
        assertEquals(posted.status(), 303);
        await page.goto("/?made=made-first");
        await waitForIslands(page);
        const shortLink = page.locator(".result .short-url a");
        assertEquals(await shortLink.textContent(), `${f.origin}/made-first`);
        await page.getByLabel("Destination", { exact: true }).fill("example.com/second");
        await openMoreOptions(page);
        await page.getByLabel("Custom name (optional)").fill("made-second");
        await page.getByRole("button", { name: "Shorten", exact: true }).click();
        await page.locator(".short-url a", { hasText: "/made-second" }).waitFor();
        assertEquals(page.url(), `${f.origin}/`);
        // A reload shows the start page, not the first link's card again.
        await page.reload();
        await waitForIslands(page);
        assertEquals(await page.locator(".result").count(), 0);
        assertEquals(problems, []);
        await page.context().close();
      },
    );

    await t.step(
      "the slug hint says taken, reserved, invalid and free as the name is typed",
      async () => {
        await createByApi(f, { url: "example.com/taken", slug: "already-here" });
        const { page, problems } = await watchedPage(f);
        await page.goto("/?slug=already-here");
        await waitForIslands(page);
        await slugState(page, "taken");
        assertStringIncludes(await page.textContent("#create-slug-hint") ?? "", "is taken");
        const slug = page.getByLabel("Custom name (optional)");
        await slug.fill("Stats");
        await slugState(page, "reserved");
        await slug.fill("a!");
        await slugState(page, "invalid");
        await slug.fill("fresh-name");
        await slugState(page, "available");
        assertStringIncludes(
          await page.textContent("#create-slug-hint") ?? "",
          "“fresh-name” is free",
        );
        assertEquals(problems, []);
        await page.context().close();
      },
    );

    await t.step("the copy button puts the short URL on the clipboard", async () => {
      const { page, problems } = await watchedPage(f, { permissions: CLIPBOARD });
      await page.goto("/");
      await waitForIslands(page);
      await page.getByLabel("Destination", { exact: true }).fill("example.com/copy-me");
      await page.getByRole("button", { name: "Shorten", exact: true }).click();
      const shortUrl = await page.locator(".result .short-url a").textContent();
      await page.locator(".result").getByRole("button", { name: "Copy" }).click();
      await page.locator(".result .copy [role=status]", { hasText: "Copied" }).waitFor();
      assertEquals(await page.evaluate(() => navigator.clipboard.readText()), shortUrl);
      assertEquals(problems, []);
      await page.context().close();
    });

    await t.step("bulk mode makes a link of each line and reports each row", async () => {
      const { page, problems } = await watchedPage(f);
      // An address naming another outcome (one this browser does not have): left for `/`.
      await page.goto("/?bulk=AAAAAAAAAAAAAAAAAAAAAA");
      await waitForIslands(page);
      await page.getByText("Several links at once").click();
      await waitForIslands(page);
      await page.getByLabel(/Destinations, one a line/).fill(
        "example.com/bulk-1\nnot a url\n\nexample.org/bulk-2",
      );
      await page.getByRole("button", { name: "Shorten all" }).click();
      const rows = page.locator(".bulk-row");
      await rows.nth(2).waitFor();
      assertEquals(await rows.count(), 3);
      assertEquals(await page.locator(".bulk-row.failed").count(), 1);
      assertStringIncludes(await rows.nth(1).textContent() ?? "", "not a url");
      assertStringIncludes(await rows.nth(0).textContent() ?? "", "Made");
      // Only the line that failed stays, to be mended; the made ones would be made twice.
      assertEquals(await page.getByLabel(/Destinations, one a line/).inputValue(), "not a url");
      // Each made row says where its link goes.
      assertEquals(
        await rows.nth(2).locator(".bulk-destination").textContent(),
        "https://example.org/bulk-2",
      );
      assertEquals(page.url(), `${f.origin}/`);
      assertEquals(await page.locator(".recent li").count(), 2);
      await screenshot(page, "home-bulk-light");
      assertEquals(problems, []);
      await page.context().close();
    });

    await t.step(
      "a protected link unlocks through the island and goes on to its destination",
      async () => {
        await createByApi(f, {
          url: `${f.destination}/secret`,
          slug: "guarded",
          pass: "open sesame",
        });
        const { page, problems } = await watchedPage(f);
        const response = await page.goto("/guarded");
        assertEquals(response?.status(), 401);
        await waitForIslands(page);
        await page.getByLabel("Password").fill("wrong one");
        await page.getByRole("button", { name: "Unlock" }).click();
        await page.locator("#unlock-error", { hasText: "Wrong password" }).waitFor();
        assertEquals(new URL(page.url()).pathname, "/guarded");
        await page.getByLabel("Password").fill("open sesame");
        await page.getByRole("button", { name: "Unlock" }).click();
        await page.waitForURL(`${f.destination}/secret`);
        assertStringIncludes(await page.textContent("p") ?? "", "arrived at /secret");
        assertEquals(problems, []);
        await page.context().close();
      },
    );

    await t.step(
      "with JavaScript off, the bulk form posts and lands on its outcome, which reloads safely",
      async () => {
        const { page, problems } = await watchedPage(f, { javaScriptEnabled: false });
        const count = async () =>
          (await (await fetch(`${f.origin}/api/links`)).json() as unknown[]).length;
        await page.goto("/");
        await page.getByText("Several links at once").click();
        const lines = page.getByLabel(/Destinations, one a line/);
        await lines.fill("example.com/no-script-bulk\nnot a url");
        await page.getByLabel("Password for every link (optional)").fill("pw");
        const [response] = await Promise.all([
          page.waitForResponse((res) => res.url().endsWith("/api/bulk")),
          page.getByRole("button", { name: "Shorten all" }).click(),
        ]);
        assertEquals(response.status(), 303);
        await page.waitForURL(/\/\?bulk=[\w-]{22}$/);
        const rows = page.locator(".bulk-row");
        assertEquals(await rows.count(), 2);
        assertEquals(await page.locator(".bulk-row.failed").count(), 1);
        assertEquals(await lines.inputValue(), "not a url");
        assertStringIncludes(
          await page.locator("#bulk-pass-help").textContent() ?? "",
          "Type it again",
        );
        const made = await count();
        // Reloading shows the same outcome and makes nothing again.
        await page.reload();
        assertEquals(await rows.count(), 2);
        assertEquals(await count(), made);
        assertEquals(problems, []);
        await page.context().close();
      },
    );

    await t.step("the links page filters as you type and deletes after asking", async () => {
      await createByApi(f, { url: "example.com/doomed", slug: "doomed", title: "Doomed link" });
      const { page, problems } = await watchedPage(f);
      await page.goto("/links");
      await waitForIslands(page);
      const rows = page.locator(".link-row");
      const total = await rows.count();
      assert(total >= 3, `${total} rows`);
      await page.getByLabel("Filter by name, title, destination or note").fill("DOOMED");
      await page.locator("#links-shown", { hasText: `1 of ${total} shown` }).waitFor();
      assertEquals(await page.locator(".link-row:visible").count(), 1);
      const row = page.locator(".link-row:visible");
      await row.getByRole("button", { name: "Delete /doomed" }).click();
      await row.getByText("Delete /doomed for good?").waitFor();
      await row.getByRole("button", { name: "Yes, delete" }).click();
      await row.getByText("Deleted /doomed").waitFor();
      await screenshot(page, "links-deleted-light");
      // The deleted row leads nowhere now, and a filter hides it as any row.
      assertEquals(await row.locator("a.link-slug[href]").count(), 0);
      await page.getByLabel("Filter by name, title, destination or note").fill("zzzz");
      await page.locator("#links-shown", { hasText: "No link matches “zzzz”" }).waitFor();
      assertEquals(await page.locator(".link-row:visible").count(), 0);
      await page.getByLabel("Filter by name, title, destination or note").fill("");
      await page.locator("#links-shown", { hasText: `${total - 1} links shown` }).waitFor();
      const check = await (await fetch(`${f.origin}/api/check?slug=doomed`)).json();
      assertEquals(check.exists, false);
      assertEquals(problems, []);
      await page.context().close();
    });

    await t.step(
      "with JavaScript off, the create form posts and lands on the new link's card",
      async () => {
        const { page, problems } = await watchedPage(f, { javaScriptEnabled: false });
        await page.goto("/");
        await page.getByLabel("Destination", { exact: true }).fill("example.com/no-script");
        await openMoreOptions(page);
        await page.getByLabel("Custom name (optional)").fill("no-script");
        const [response] = await Promise.all([
          page.waitForResponse((res) => res.url().endsWith("/api/create")),
          page.getByRole("button", { name: "Shorten", exact: true }).click(),
        ]);
        assertEquals(response.status(), 303);
        await page.waitForURL(`${f.origin}/?made=no-script`);
        const link = page.locator(".result .short-url a");
        assertEquals(await link.textContent(), `${f.origin}/no-script`);
        // No button that needs a script is shown without one.
        assertEquals(await page.locator(".result button").count(), 1, "the copy button is there");
        assertEquals(await page.locator(".result button").isVisible(), false);
        await screenshot(page, "home-no-script-result-light");
        // Reloading the card's page sends nothing again: the name is not refused as taken.
        await page.reload();
        assertEquals(await page.locator("[role=alert]").count(), 0);
        assertEquals(await link.textContent(), `${f.origin}/no-script`);
        // Taken now: the same post gets the form back with the reason and the values.
        await page.getByLabel("Destination", { exact: true }).fill("example.com/again");
        await openMoreOptions(page);
        await page.getByLabel("Custom name (optional)").fill("no-script");
        const [refused] = await Promise.all([
          page.waitForResponse((res) => res.url().endsWith("/api/create")),
          page.getByRole("button", { name: "Shorten", exact: true }).click(),
        ]);
        assertEquals(refused.status(), 409);
        await page.waitForLoadState();
        assertEquals(
          await page.textContent("[role=alert]"),
          'Custom name "no-script" is already taken',
        );
        // Said under the field it is about, which "More options" shows by itself.
        assertEquals(await page.locator("details.more").getAttribute("open"), "");
        assert(await page.locator("#create-error").isVisible());
        assertEquals(
          await page.getByLabel("Custom name (optional)").getAttribute("aria-describedby"),
          "create-error create-slug-hint",
        );
        assertEquals(
          await page.getByLabel("Destination", { exact: true }).inputValue(),
          "example.com/again",
        );
        assertEquals(problems, []);
        await page.context().close();
      },
    );

    await t.step("hostile titles and notes show as text and run nothing", async () => {
      const { page, problems } = await watchedPage(f);
      await page.goto("/");
      await waitForIslands(page);
      await page.getByLabel("Destination", { exact: true }).fill("example.com/hostile");
      await openMoreOptions(page);
      await page.getByLabel("Title (optional)").fill(HOSTILE_TITLE);
      await page.getByLabel("Note (optional)").fill(HOSTILE_NOTE);
      await page.getByRole("button", { name: "Shorten", exact: true }).click();
      await page.locator(".result").getByText(HOSTILE_TITLE).waitFor();
      await page.goto("/links");
      await waitForIslands(page);
      await page.getByText(HOSTILE_TITLE).first().waitFor();
      await page.getByText(HOSTILE_NOTE).first().waitFor();
      assertEquals(await page.locator("main img").count(), 0);
      assertEquals(problems, []);
      await page.context().close();
    });

    await t.step("a title written to turn text around turns only itself", async () => {
      await createByApi(f, { url: "example.com/turned", slug: "turned", title: "\u202egnp.exe" });
      const { page, problems } = await watchedPage(f);
      await page.goto("/links?q=turned");
      const title = page.locator(".link-row:visible .link-title");
      assertEquals(await title.textContent(), "\u202egnp.exe");
      assertEquals(await title.evaluate((node) => getComputedStyle(node).unicodeBidi), "isolate");
      assertEquals(problems, []);
      await page.context().close();
    });

    await t.step(
      "a filter the page's rows cannot answer says what it counted and that Filter searches all",
      async () => {
        await createByApi(f, { url: "example.com/needle", slug: "needle-one" });
        const { page, problems } = await watchedPage(f);
        const filter = page.getByLabel("Filter by name, title, destination or note");
        const shown = page.locator("#links-shown");
        // The server's filter left the other links out: cleared, the box cannot show them.
        await page.goto("/links?q=needle");
        await waitForIslands(page);
        assertEquals(await shown.textContent(), "1 link shown");
        await filter.fill("");
        await shown.filter({ hasText: "1 shown of the links matching “needle”." }).waitFor();
        assertStringIncludes(await shown.textContent() ?? "", "Press Filter to search every link.");
        // Text narrower than the server's filter is answered by the rows.
        await filter.fill("needle-o");
        await shown.filter({ hasText: /^1 link shown$/ }).waitFor();
        // A list of several pages: an older link is not among this page's rows, Filter finds it.
        await fillStore(f.kvPath, 60);
        await page.goto("/links");
        await waitForIslands(page);
        assertEquals(await page.locator(".link-row").count(), 50);
        await filter.fill("needle-one");
        await shown.filter({ hasText: "No match among the 50 links on this page." }).waitFor();
        await filter.press("Enter");
        await page.waitForURL(/\/links\?q=needle-one$/);
        await waitForIslands(page);
        assertEquals(await shown.textContent(), "1 link shown");
        assertEquals(problems, []);
        await page.context().close();
      },
    );
  },
});
