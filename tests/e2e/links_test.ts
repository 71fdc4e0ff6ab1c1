import { createStore } from "../../lib/kv/store.ts";
import { createLink } from "../../lib/links/mod.ts";
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { MOBILE_UA } from "../../testing/visits.ts";
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

// Makes `count` links straight in the service's store, newer than any made before.
async function fillStore(kvPath: string, count: number): Promise<void> {
  const kv = await Deno.openKv(kvPath);
  try {
    const store = createStore(kv);
    for (let i = 0; i < count; i++) {
      await createLink(store, { url: `example.com/page/${i}`, slug: `paged-${i}` }, {
        serviceHost: "127.0.0.1",
      });
    }
  } finally {
    kv.close();
  }
}

Deno.test({
  name: "the links list, a link's page and the start page's options in a real browser",
  ignore: SKIP_BROWSER_TESTS,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using f = await startBrowserFixture();
    await createByApi(f, { url: "example.com/first-of-all", slug: "first-of-all" });
    await fillStore(f.kvPath, 60);

    for (const javaScriptEnabled of [true, false]) {
      const how = javaScriptEnabled ? "with" : "without";
      await t.step(`/links pages through every link ${how} JavaScript`, async () => {
        const { page, problems } = await watchedPage(f, { javaScriptEnabled });
        await page.goto("/links");
        if (javaScriptEnabled) await waitForIslands(page);
        const slugs = () => page.locator(".link-slug").allTextContents();
        const first = await slugs();
        assertEquals(first.length, 50);
        assertEquals(first[0], "/paged-59");
        assertEquals(await page.getByRole("link", { name: "Newest links" }).count(), 0);
        await page.getByRole("link", { name: "Older links" }).click();
        await page.waitForURL(/\/links\?cursor=[0-9A-Z]{26}$/);
        if (javaScriptEnabled) await waitForIslands(page);
        const second = await slugs();
        assertEquals(second, [
          ...Array.from({ length: 10 }, (_, i) => `/paged-${9 - i}`),
          "/first-of-all",
        ]);
        assertEquals(await page.getByRole("link", { name: "Older links" }).count(), 0);
        if (javaScriptEnabled) {
          // The second page's islands work as the first's: the filter counts its rows.
          assertEquals(await page.textContent("#links-shown"), "11 links shown");
        }
        await page.getByRole("link", { name: "Newest links" }).click();
        await page.waitForURL(/\/links$/);
        assertEquals((await slugs())[0], "/paged-59");
        assertEquals(problems, []);
        await page.context().close();
      });
    }

    await t.step("a row's copy button puts its short URL on the clipboard", async () => {
      const { page, problems } = await watchedPage(f, { permissions: CLIPBOARD });
      await page.goto("/links?q=paged-42");
      await waitForIslands(page);
      const row = page.locator(".link-row", { has: page.locator('a:text-is("/paged-42")') });
      await row.getByRole("button", { name: "Copy /paged-42" }).click();
      await row.locator(".copy [role=status]", { hasText: "Copied" }).waitFor();
      assertEquals(
        await page.evaluate(() => navigator.clipboard.readText()),
        `${f.origin}/paged-42`,
      );
      // The host shows the whole address while it has focus.
      const tip = row.locator(".tip");
      assertEquals(await tip.isVisible(), false);
      await row.locator(".host").focus();
      assertEquals(await tip.isVisible(), true);
      assertEquals(await tip.textContent(), "https://example.com/page/42");
      assertEquals(problems, []);
      await page.context().close();
    });

    await t.step(
      "a link's own page shows its clicks, copies and hides nothing it may show",
      async () => {
        await createByApi(f, {
          url: `${f.destination}/counted`,
          slug: "counted",
          title: "Counted",
        });
        for (let i = 0; i < 3; i++) {
          const res = await fetch(`${f.origin}/counted`, {
            redirect: "manual",
            headers: { "User-Agent": MOBILE_UA, Referer: "https://news.example/story" },
          });
          assertEquals(res.status, 302);
          await res.body?.cancel();
        }
        const { page, problems } = await watchedPage(f, { permissions: CLIPBOARD });
        await page.goto("/links?q=counted");
        await waitForIslands(page);
        await page.getByRole("link", { name: "Stats of /counted" }).click();
        await page.waitForURL(`${f.origin}/links/counted`);
        // Visits are written within a second or two: the clicks first, the day's figures with
        // the rest of the link's figures (STATS_LAG_SECONDS is 1 here).
        for (let tries = 0; tries < 20; tries++) {
          const shown = await page.locator(".figures dd").allTextContents();
          if (shown.length === 2 && shown.every((figure) => figure === "3")) break;
          await new Promise((resolve) => setTimeout(resolve, 250));
          await page.reload();
        }
        await waitForIslands(page);
        assertEquals(await page.locator(".figures dd").allTextContents(), ["3", "3"]);
        assertEquals(await page.locator("h1").textContent(), "/counted");
        assertStringIncludes(
          await page.locator(".facts").textContent() ?? "",
          `${f.destination}/counted`,
        );
        assertStringIncludes(
          await page.locator(".bar-list").first().textContent() ?? "",
          "news.example",
        );
        assertEquals(await page.locator("svg.chart rect.bar").count(), 7);
        await page.getByRole("button", { name: "Copy" }).click();
        await page.locator(".copy [role=status]", { hasText: "Copied" }).waitFor();
        assertEquals(
          await page.evaluate(() => navigator.clipboard.readText()),
          `${f.origin}/counted`,
        );
        await screenshot(page, "link-counted-light-1280");
        // An unknown one: the 404 page.
        const missing = await page.goto("/links/never-made");
        assertEquals(missing?.status(), 404);
        assertEquals(problems, []);
        await page.context().close();
      },
    );

    await t.step("More options opens by itself when a refusal is about a field in it", async () => {
      const { page, problems } = await watchedPage(f);
      await page.goto("/");
      await waitForIslands(page);
      const more = page.locator("details.more");
      assertEquals(await more.getAttribute("open"), null);
      await page.getByLabel("Destination", { exact: true }).fill("example.com/refused");
      await openMoreOptions(page);
      await page.getByLabel("Custom name (optional)").fill("stats");
      await more.locator("summary").click(); // closed again before sending
      assertEquals(await more.getAttribute("open"), null);
      await page.getByRole("button", { name: "Shorten", exact: true }).click();
      await page.locator("#create-error", { hasText: "reserved" }).waitFor();
      assertEquals(await more.getAttribute("open"), "");
      assert(await page.locator("#create-error").isVisible());
      await page.waitForFunction(() => document.activeElement?.id === "create-error");
      assertEquals(problems, []);
      await page.context().close();
    });

    await t.step(
      "without JavaScript, a refused post comes back with More options open",
      async () => {
        const { page, problems } = await watchedPage(f, { javaScriptEnabled: false });
        await page.goto("/");
        await page.getByLabel("Destination", { exact: true }).fill("not a url");
        await openMoreOptions(page);
        await page.getByLabel("Title (optional)").fill("Kept title");
        await page.locator("details.more summary").click();
        const [refused] = await Promise.all([
          page.waitForResponse((res) => res.url().endsWith("/api/create")),
          page.getByRole("button", { name: "Shorten", exact: true }).click(),
        ]);
        assertEquals(refused.status(), 400);
        await page.waitForLoadState();
        assertEquals(await page.locator("details.more").getAttribute("open"), "");
        assert(await page.getByLabel("Title (optional)").isVisible());
        assertEquals(await page.getByLabel("Title (optional)").inputValue(), "Kept title");
        // The reason sits under the destination, the field it names.
        const error = page.locator("#create-error");
        assertEquals(
          await error.evaluate((node) => node.closest(".field")?.querySelector("input")?.id),
          "create-url",
        );
        assertEquals(problems, []);
        await page.context().close();
      },
    );

    await t.step("without JavaScript, deleting from /links asks first, then deletes", async () => {
      await createByApi(f, { url: "example.com/no-script-doomed", slug: "no-script-doomed" });
      const { page, problems } = await watchedPage(f, { javaScriptEnabled: false });
      await page.goto("/links?q=no-script-doomed");
      await page.getByRole("button", { name: "Delete /no-script-doomed" }).click();
      await page.getByRole("heading", { name: "Delete /no-script-doomed?" }).waitFor();
      assertEquals(
        (await (await fetch(`${f.origin}/api/check?slug=no-script-doomed`)).json()).exists,
        true,
        "nothing is deleted before the answer",
      );
      await page.getByRole("button", { name: "Yes, delete /no-script-doomed" }).click();
      await page.waitForURL(/\/links\?q=no-script-doomed&removed=no-script-doomed$/);
      assertEquals(await page.locator(".notice").textContent(), "Deleted /no-script-doomed");
      assertEquals(
        (await (await fetch(`${f.origin}/api/check?slug=no-script-doomed`)).json()).exists,
        false,
      );
      assertEquals(problems, []);
      await page.context().close();
    });
  },
});
