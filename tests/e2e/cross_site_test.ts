/**
 * The cross-site rule in Chromium: a page on another origin whose forms submit themselves can
 * make, remove and guess nothing through a visitor's browser; its JSON `fetch` still creates.
 * @module
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { createByApi, SKIP_BROWSER_TESTS, startBrowserFixture } from "./_browser.ts";

/** A page that posts `fields` to `action` as `enctype` as soon as it loads. */
function autoSubmitting(action: string, enctype: string, fields: [string, string][]): string {
  const inputs = fields.map(([name, value]) =>
    `<input type="hidden" name='${name.replaceAll("'", "&#39;")}' value='${
      value.replaceAll("'", "&#39;")
    }'>`
  ).join("");
  return `<!doctype html><title>win a prize</title>
<form method="post" action="${action}" enctype="${enctype}">${inputs}</form>
<script>document.forms[0].submit();</script>`;
}

/** Serves `pages` (path to HTML) on 127.0.0.3: another origin than the service's 127.0.0.1. */
function serveElsewhere(pages: Record<string, string>): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.3", port: 0, onListen: () => {} }, (request) => {
    const page = pages[new URL(request.url).pathname];
    if (page === undefined) return new Response("not here", { status: 404 });
    return new Response(page, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

/** Opens `url` in `page` and returns the status of the POST the page then sends to `target`. */
async function postStatusOf(page: Page, url: string, target: string): Promise<number> {
  const posted = page.waitForResponse((res) =>
    res.url() === target && res.request().method() === "POST"
  );
  await page.goto(url);
  return (await posted).status();
}

Deno.test({
  name:
    "a page on another origin: its auto-submitting forms change nothing, its JSON fetch creates",
  ignore: SKIP_BROWSER_TESTS,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using f = await startBrowserFixture();
    await createByApi(f, { url: `${f.destination}/kept`, slug: "kept", pass: "right" });
    const phish = "https://evil.example/phish";
    // A text/plain form sends `name=value`: this name and value make a JSON object of it.
    const plainJson = (json: string): [string, string][] => [[json.slice(0, -2) + ',"x":"', '"}']];
    const site = serveElsewhere({
      "/plain-create": autoSubmitting(
        `${f.origin}/api/create`,
        "text/plain",
        plainJson(`{"url":"${phish}"}`),
      ),
      "/plain-sweep": autoSubmitting(
        `${f.origin}/api/sweep`,
        "text/plain",
        plainJson(`{"confirm":"sweep"}`),
      ),
      "/form-create": autoSubmitting(
        `${f.origin}/api/create`,
        "application/x-www-form-urlencoded",
        [
          ["url", phish],
          ["title", "Your bank statement"],
        ],
      ),
      "/form-unlock": autoSubmitting(
        `${f.origin}/api/unlock`,
        "application/x-www-form-urlencoded",
        [
          ["slug", "kept"],
          ["pass", "guess"],
        ],
      ),
      "/blank": "<!doctype html><title>elsewhere</title>",
    });
    try {
      const elsewhere = `http://127.0.0.3:${site.addr.port}`;
      const page = await f.open();

      for (
        const [path, target] of [
          ["/plain-create", "/api/create"],
          ["/plain-sweep", "/api/sweep"],
          ["/form-create", "/api/create"],
          ["/form-unlock", "/api/unlock"],
        ]
      ) {
        const status = await postStatusOf(page, `${elsewhere}${path}`, `${f.origin}${target}`);
        assertEquals(status, 403, path);
        // The visitor lands on the refusal, not on a page of the service saying "your link".
        assertEquals(new URL(page.url()).pathname, target, path);
        assertStringIncludes(await page.locator("body").innerText(), "another site", path);
      }
      const cookies = await page.context().cookies(f.origin);
      assertEquals(cookies.map((cookie) => cookie.name), [], "no lapse_made, no unlock cookie");

      await page.goto(`${elsewhere}/blank`);
      const fetched = await page.evaluate(async (origin) => {
        const post = (path: string, body: unknown) =>
          fetch(`${origin}${path}`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(body),
          });
        const created = await post("/api/create", { url: "example.com/from-elsewhere" });
        const guesses = [];
        for (let i = 0; i < 5; i++) {
          guesses.push((await post("/api/unlock", { slug: "kept", pass: `guess${i}` })).status);
        }
        return { created: created.status, link: await created.json(), guesses };
      }, f.origin);
      assertEquals(fetched.created, 201);
      assertEquals(fetched.link.url, "https://example.com/from-elsewhere");
      assertEquals(fetched.guesses, [403, 403, 403, 403, 403]);

      // Only the JSON fetch made a link; the sweep and every guess left the store alone.
      const links = await (await fetch(`${f.origin}/api/links`)).json();
      assertEquals(
        links.map((link: { slug: string }) => link.slug).sort(),
        [fetched.link.slug, "kept"].sort(),
      );
      // The visitor's own guesses are all still theirs: the right one after a typo goes through.
      const own = await f.open();
      await own.goto(`${f.origin}/kept`);
      await own.fill("input[name=pass]", "typo");
      await own.press("input[name=pass]", "Enter");
      await own.waitForSelector("text=wrong password");
      await own.fill("input[name=pass]", "right");
      await Promise.all([
        own.waitForURL(`${f.destination}/kept`),
        own.press("input[name=pass]", "Enter"),
      ]);
      assert(own.url().startsWith(f.destination), own.url());
    } finally {
      await site.shutdown();
    }
  },
});
