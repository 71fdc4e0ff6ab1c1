import type { Page } from "playwright-core";
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import {
  createByApi,
  openMoreOptions,
  SKIP_BROWSER_TESTS,
  startBrowserFixture,
  waitForIslands,
  watchedPage,
} from "./_browser.ts";

// Long enough for a local service, short enough that a page that never arrives fails quickly.
const ARRIVAL_MS = 10_000;

/** Waits until the focused element has `id`, and fails saying what has focus instead. */
async function waitForFocus(page: Page, id: string): Promise<void> {
  try {
    await page.waitForFunction((id) => document.activeElement?.id === id, id, {
      timeout: ARRIVAL_MS,
    });
  } catch {
    const focused = await page.evaluate(() => {
      const active = document.activeElement;
      return active ? `<${active.tagName.toLowerCase()} id="${active.id}">` : "nothing";
    });
    throw new Error(`focus is on ${focused}, not #${id}`);
  }
}

Deno.test({
  name: "forms in a real browser: unlock without JavaScript, focus, live results, links",
  ignore: SKIP_BROWSER_TESTS,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using f = await startBrowserFixture();

    await t.step(
      "with JavaScript off, the right password goes on to the destination on another site",
      async () => {
        await createByApi(f, {
          url: `${f.destination}/no-script-secret`,
          slug: "no-script-lock",
          pass: "open sesame",
        });
        const { page, problems } = await watchedPage(f, { javaScriptEnabled: false });
        const locked = await page.goto("/no-script-lock");
        assertEquals(locked?.status(), 401);
        await page.getByLabel("Password").fill("wrong one");
        const [refused] = await Promise.all([
          page.waitForResponse((res) => res.url().endsWith("/api/unlock")),
          page.getByRole("button", { name: "Unlock" }).click(),
        ]);
        assertEquals(refused.status(), 403);
        await page.waitForLoadState();
        assertEquals(await page.getAttribute("#unlock-pass", "aria-invalid"), "true");
        assertEquals(await page.textContent("#unlock-error"), "Wrong password");
        await page.getByLabel("Password").fill("open sesame");
        await page.getByRole("button", { name: "Unlock" }).click();
        await page.waitForURL(`${f.destination}/no-script-secret`, { timeout: ARRIVAL_MS });
        assertStringIncludes(await page.textContent("p") ?? "", "arrived at /no-script-secret");
        assertEquals(problems, []);
        await page.context().close();
      },
    );

    await t.step("a wrong password gives focus back to the password field", async () => {
      await createByApi(f, { url: "example.com/focus-lock", slug: "focus-lock", pass: "right" });
      const { page, problems } = await watchedPage(f);
      await page.goto("/focus-lock");
      await waitForIslands(page);
      await page.getByLabel("Password").fill("wrong");
      await page.getByRole("button", { name: "Unlock" }).click();
      await page.locator("#unlock-error", { hasText: "Wrong password" }).waitFor();
      await waitForFocus(page, "unlock-pass");
      assertEquals(await page.inputValue("#unlock-pass"), "", "the refused password is gone");
      // The same refusal again, with focus taken away meanwhile.
      await page.getByLabel("Password").fill("wrong");
      await page.getByRole("button", { name: "Unlock" }).click();
      await waitForFocus(page, "unlock-pass");
      assertEquals(await page.getAttribute("#unlock-pass", "aria-invalid"), "true");
      assertEquals(problems, []);
      await page.context().close();
    });

    await t.step("out of attempts, the unlock button counts the wait down", async () => {
      await createByApi(f, { url: "example.com/wait-lock", slug: "wait-lock", pass: "right" });
      const { page, problems } = await watchedPage(f);
      // The service's own 429 comes after minutes; this one asks for 3 seconds, in its words.
      await page.route("**/api/unlock", (route) =>
        route.fulfill({
          status: 429,
          headers: { "Retry-After": "3" },
          contentType: "application/json",
          body: JSON.stringify({
            error:
              "too many wrong passwords on this link (at most 5 per 10-minute window); retry in 3 s",
          }),
        }));
      await page.goto("/wait-lock");
      await waitForIslands(page);
      await page.getByLabel("Password").fill("wrong");
      await page.getByRole("button", { name: "Unlock" }).click();
      const button = page.locator("form button[type=submit]");
      await page.locator("form button[type=submit]", { hasText: /^Try again in [123] s$/ })
        .waitFor();
      assertEquals(await button.isDisabled(), true);
      assertStringIncludes(await page.textContent("#unlock-error") ?? "", "retry in 3 s");
      await waitForFocus(page, "unlock-pass");
      // Enter cannot send the form while its button waits.
      await page.getByLabel("Password").fill("again");
      await page.keyboard.press("Enter");
      // Once the wait is over: the button back, the refusal gone, and that said once.
      await page.getByRole("status").filter({ hasText: "You can try again now." })
        .waitFor({ timeout: 5_000 });
      assertEquals(await button.textContent(), "Unlock");
      assertEquals(await button.isEnabled(), true);
      assertEquals(await page.locator("#unlock-error").count(), 0);
      assertEquals(await page.getAttribute("#unlock-pass", "aria-invalid"), null);
      assertEquals(await page.inputValue("#unlock-pass"), "again", "nothing was sent meanwhile");
      assertEquals(problems, []);
      await page.context().close();
    });

    await t.step(
      "the create form moves focus to the new link's heading, or to the reason it was refused",
      async () => {
        const { page, problems } = await watchedPage(f);
        await page.goto("/");
        await waitForIslands(page);
        await page.getByLabel("Destination", { exact: true }).fill("example.com/focus-me");
        await page.getByRole("button", { name: "Shorten", exact: true }).click();
        await page.locator(".result").waitFor();
        await waitForFocus(page, "result-heading");
        await page.getByLabel("Destination", { exact: true }).fill("example.com/refused");
        await openMoreOptions(page);
        await page.getByLabel("Custom name (optional)").fill("stats");
        await page.getByRole("button", { name: "Shorten", exact: true }).click();
        await page.locator("#create-error", { hasText: "reserved" }).waitFor();
        await waitForFocus(page, "create-error");
        // The same refusal again still brings focus back from the disabled button.
        await page.getByLabel("Destination", { exact: true }).focus();
        await page.getByRole("button", { name: "Shorten", exact: true }).click();
        await waitForFocus(page, "create-error");
        assertEquals(problems, []);
        await page.context().close();
      },
    );

    for (const javaScriptEnabled of [true, false]) {
      await t.step(
        `a link made to open once through the form opens once (JavaScript ${
          javaScriptEnabled ? "on" : "off"
        })`,
        async () => {
          const { page, problems } = await watchedPage(f, { javaScriptEnabled });
          await page.goto("/");
          if (javaScriptEnabled) await waitForIslands(page);
          const path = `/once-${javaScriptEnabled ? "js" : "plain"}`;
          await page.getByLabel("Destination", { exact: true }).fill(`${f.destination}${path}`);
          await openMoreOptions(page);
          await page.getByLabel("Opens at most N times (optional)").fill("1");
          await page.getByRole("button", { name: "Shorten", exact: true }).click();
          await page.locator(".result").waitFor();
          const shortUrl = await page.locator(".short-url a").getAttribute("href");
          assert(shortUrl, "the card links to the short URL");
          // The short link's page opens it only by its Open button.
          await page.goto(shortUrl);
          await page.getByRole("button", { name: "Open" }).click();
          await page.waitForURL(`${f.destination}${path}`, { timeout: ARRIVAL_MS });
          const again = await page.goto(shortUrl);
          assertEquals(again?.status(), 404);
          assertStringIncludes(await page.textContent("main") ?? "", "was used up");
          // The Open used it up: it has left the list.
          await page.goto(`/links?q=${path.slice(1)}`);
          assertEquals(await page.locator(`#link-${path.slice(1)}`).count(), 0);
          assertEquals(problems, []);
          await page.context().close();
        },
      );
    }

    await t.step(
      "bulk results take focus, and a later refusal clears them and takes focus itself",
      async () => {
        const { page, problems } = await watchedPage(f);
        await page.goto("/");
        await waitForIslands(page);
        await page.getByText("Several links at once").click();
        await waitForIslands(page);
        const lines = page.getByLabel(/Destinations, one a line/);
        await lines.fill("example.com/bulk-focus-1\nexample.com/bulk-focus-2");
        await page.getByRole("button", { name: "Shorten all" }).click();
        await page.locator(".bulk-row").nth(1).waitFor();
        await waitForFocus(page, "bulk-results");
        assertEquals(await page.getAttribute("#bulk-results", "aria-label"), "Results, row by row");
        await lines.fill(Array.from({ length: 11 }, (_, i) => `example.com/${i}`).join("\n"));
        await page.getByRole("button", { name: "Shorten all" }).click();
        await page.locator("#bulk-error", { hasText: "Max 10 links per request" }).waitFor();
        await waitForFocus(page, "bulk-error");
        assertEquals(await page.locator(".bulk-row").count(), 0);
        assertEquals(await lines.getAttribute("aria-invalid"), "true");
        assertEquals(await lines.getAttribute("aria-describedby"), "bulk-error");
        assertEquals(problems, []);
        await page.context().close();
      },
    );

    await t.step("deleting on /links with JavaScript counts the link out", async () => {
      await createByApi(f, { url: "example.com/count-1", slug: "count-one" });
      await createByApi(f, { url: "example.com/count-2", slug: "count-two" });
      const { page, problems } = await watchedPage(f);
      await page.goto("/links");
      await waitForIslands(page);
      const total = await page.locator(".link-row").count();
      assert(total >= 2, `${total} rows`);
      const shown = page.locator("#links-shown");
      assertEquals(await shown.textContent(), `${total} links shown`);
      const row = page.locator(".link-row", { has: page.locator('a:text-is("/count-one")') });
      await row.getByRole("button", { name: "Delete /count-one" }).click();
      await row.getByRole("button", { name: "Yes, delete" }).click();
      await row.getByText("Deleted /count-one").waitFor();
      await page.locator("#links-shown", { hasText: `${total - 1} links shown` }).waitFor();
      // And under a filter, both figures.
      await page.getByLabel("Filter by name, title, destination or note").fill("count-");
      await page.locator("#links-shown", { hasText: `1 of ${total - 1} shown` }).waitFor();
      const other = page.locator(".link-row:visible");
      await other.getByRole("button", { name: "Delete /count-two" }).click();
      await other.getByRole("button", { name: "Yes, delete" }).click();
      await page.locator("#links-shown", { hasText: `0 of ${total - 2} shown` }).waitFor();
      assertEquals(problems, []);
      await page.context().close();
    });

    await t.step("a link deleted in this browser leaves the list of those made in it", async () => {
      const { page, problems } = await watchedPage(f);
      const made = (slug: string) => ({ slug, shortUrl: `${f.origin}/${slug}`, expiresAt });
      const expiresAt = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString();
      await createByApi(f, { url: "example.com/kept", slug: "recent-kept" });
      await createByApi(f, { url: "example.com/gone", slug: "recent-gone" });
      await page.goto("/");
      await page.evaluate(
        (links) => localStorage.setItem("lapse.recent", JSON.stringify(links)),
        [made("recent-gone"), made("recent-kept")],
      );
      await page.goto("/links?q=recent-gone");
      await waitForIslands(page);
      const row = page.locator(".link-row:visible");
      await row.getByRole("button", { name: "Delete /recent-gone" }).click();
      await row.getByRole("button", { name: "Yes, delete" }).click();
      await row.getByText("Deleted /recent-gone").waitFor();
      await page.goto("/");
      await waitForIslands(page);
      await page.locator("#recent-heading").waitFor();
      assertEquals(await page.locator(".recent a").allTextContents(), [`${f.origin}/recent-kept`]);
      assertEquals(problems, []);
      await page.context().close();
    });

    await t.step("the links made in this browser link only to http(s) URLs", async () => {
      const { page, problems } = await watchedPage(f);
      await page.goto("/");
      const expiresAt = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString();
      const good = `${f.origin}/good-one`;
      await page.evaluate(
        (links) => localStorage.setItem("lapse.recent", JSON.stringify(links)),
        [
          { slug: "evil", shortUrl: "javascript:alert(document.domain)", expiresAt },
          { slug: "data", shortUrl: "data:text/html,<script>alert(1)</script>", expiresAt },
          { slug: "good-one", shortUrl: good, expiresAt },
        ],
      );
      await page.reload();
      await waitForIslands(page);
      await page.locator("#recent-heading").waitFor();
      const items = page.locator(".recent li");
      assertEquals(await items.count(), 3);
      const hrefs = await page.locator(".recent a").evaluateAll((links) =>
        links.map((link) => link.getAttribute("href"))
      );
      assertEquals(hrefs, [good]);
      assertStringIncludes(await items.nth(0).textContent() ?? "", "javascript:alert");
      assertEquals(problems, []);
      await page.context().close();
    });
  },
});
