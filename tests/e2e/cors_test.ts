import { assert, assertEquals } from "../_helpers/assert.ts";
import { createByApi, SKIP_BROWSER_TESTS, startBrowserFixture } from "./_browser.ts";
import { pause } from "../../lib/pause.ts";

Deno.test({
  name: "a page on another origin reads the rate-limit figures and the request id with fetch",
  ignore: SKIP_BROWSER_TESTS,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using f = await startBrowserFixture();
    // Rate-limit windows are whole minutes of the clock: the counts below need one window.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await pause(60_100 - intoMinute);
    await createByApi(f, { url: `${f.destination}/there`, slug: "across" });
    const page = await f.open();
    // The stand-in site is on 127.0.0.2, the service on 127.0.0.1: another origin.
    await page.goto(`${f.destination}/elsewhere`);
    const read = await page.evaluate(async (origin) => {
      const headers = (res: Response) => ({
        status: res.status,
        limit: res.headers.get("RateLimit-Limit"),
        remaining: res.headers.get("RateLimit-Remaining"),
        reset: res.headers.get("RateLimit-Reset"),
        requestId: res.headers.get("X-Request-Id"),
        origin: location.origin,
      });
      const first = headers(await fetch(`${origin}/api/stats?slug=across`));
      const second = headers(await fetch(`${origin}/api/stats`));
      const created = await fetch(`${origin}/api/create`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ url: "example.com/from-elsewhere" }),
      });
      return { first, second, created: headers(created) };
    }, f.origin);
    console.log(`cross-origin fetch from ${read.first.origin}: ${JSON.stringify(read)}`);
    assertEquals(read.first.origin, f.destination);
    assertEquals([read.first.status, read.first.limit, read.first.remaining], [200, "60", "59"]);
    assertEquals([read.second.status, read.second.remaining], [200, "58"]);
    assert(/^\d+$/.test(read.first.reset ?? ""), `RateLimit-Reset ${read.first.reset}`);
    assert((read.first.requestId ?? "").length >= 8, `X-Request-Id ${read.first.requestId}`);
    // The link made above, from the same address, counted against create's allowance too.
    assertEquals([read.created.status, read.created.limit, read.created.remaining], [
      201,
      "30",
      "28",
    ]);
  },
});
