import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  call,
  clientNumber,
  type ServiceProcess,
  startService,
  tempDir,
} from "../../testing/server.ts";
import { DESKTOP_UA } from "../../testing/visits.ts";
import { within } from "../_helpers/wait.ts";

Deno.test("two service processes on one KV file", async (t) => {
  await using dir = await tempDir("lapse-pair-");
  const env = { KV_PATH: `${dir.path}/links.kv`, TRUST_PROXY: "1" };
  await using a = await startService({ env });
  await using b = await startService({ env });
  const both: ServiceProcess[] = [a, b];

  await t.step("100 creates of one slug split across both give one 201", async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call(both[i % 2]!.origin, "/api/create", {
          json: { url: `example.com/pair/${i}`, slug: "shared-name" },
          client: clientNumber(i),
        })),
    );
    const statuses = answers.map((answer) => answer.status);
    assertEquals(statuses.filter((status) => status === 201).length, 1, String(statuses));
    assertEquals(statuses.filter((status) => status === 409).length, 99, String(statuses));
    const winner = answers.find((answer) => answer.status === 201)!.json<{ url: string }>().url;
    for (const service of both) {
      const redirect = await call(service.origin, "/shared-name");
      assertEquals([redirect.status, redirect.headers.get("location")], [302, winner]);
    }
  });

  await t.step(
    "200 concurrent creates across both all succeed, whatever the file lock does",
    async () => {
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          call(both[i % 2]!.origin, "/api/create", {
            json: { url: `example.com/pair-many/${i}` },
            client: clientNumber(500 + i),
          })),
      );
      assertEquals(
        answers.map((answer) => answer.status),
        new Array(200).fill(201),
      );
      for (const service of both) {
        const links = (await call(service.origin, "/api/links")).json<unknown[]>();
        assertEquals(links.length, 201);
      }
    },
  );

  await t.step(
    "one client's bulk allowance is shared: 12 requests across both, 5 succeed",
    async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          call(both[i % 2]!.origin, "/api/bulk", {
            json: { urls: [`example.com/pair-bulk/${i}`] },
            client: "2001:db8::b0b",
          })),
      );
      const statuses = answers.map((answer) => answer.status);
      assertEquals(statuses.filter((status) => status === 200).length, 5, String(statuses));
      assertEquals(statuses.filter((status) => status === 429).length, 7, String(statuses));
    },
  );

  await t.step("visits through both are all counted, and both report the total", async () => {
    const made = await call(a.origin, "/api/create", {
      json: { url: "example.com/pair-clicks", slug: "pair-clicks" },
      client: clientNumber(1000),
    });
    assertEquals(made.status, 201);
    const visits = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(both[i % 3 === 0 ? 1 : 0]!.origin, "/pair-clicks", {
          headers: { "User-Agent": DESKTOP_UA },
          client: clientNumber(i),
        })),
    );
    assertEquals(visits.filter((visit) => visit.status === 302).length, 60);
    const counted = await within(5_000, async () => {
      const answers = await Promise.all(
        both.map((service) => call(service.origin, "/api/unshorten?slug=pair-clicks")),
      );
      return answers.every((answer) => answer.json<{ clicks: number }>().clicks === 60);
    });
    assert(counted !== null, "60 clicks were not reported by both within 5 s");
    console.log(
      `clicks: 40 through A, 20 through B, both report 60 after ${counted.toFixed(0)} ms`,
    );
    assert(counted < 3_000, `clicks took ${counted.toFixed(0)} ms to appear`);
  });

  await t.step("once a removal through A has answered, B never redirects the link", async () => {
    const waits: number[] = [];
    for (let round = 0; round < 3; round++) {
      const slug = `pair-gone-${round}`;
      const made = await call(a.origin, "/api/create", {
        json: { url: `example.com/${slug}`, slug },
        client: clientNumber(2000 + round),
      });
      assertEquals(made.status, 201);
      for (let i = 0; i < 2; i++) assertEquals((await call(b.origin, `/${slug}`)).status, 302);
      const started = performance.now();
      const removed = await call(a.origin, `/api/remove?slug=${slug}`, { method: "DELETE" });
      assertEquals(removed.status, 200);
      waits.push(performance.now() - started);
      for (let i = 0; i < 10; i++) assertEquals((await call(b.origin, `/${slug}`)).status, 404);
    }
    console.log(`removals through A answered after ${waits.map((ms) => ms.toFixed(0))} ms`);
  });

  await t.step(
    "a name removed and made again through A leads to the new link through B",
    async () => {
      const slug = "pair-reclaimed";
      const make = (path: string, client: number) =>
        call(a.origin, "/api/create", {
          json: { url: `example.com/${path}`, slug },
          client: clientNumber(client),
        });
      assertEquals((await make("old", 3000)).status, 201);
      assertEquals(
        (await call(b.origin, `/${slug}`)).headers.get("location"),
        "https://example.com/old",
      );
      const removed = await call(a.origin, `/api/remove?slug=${slug}`, { method: "DELETE" });
      assertEquals(removed.status, 200);
      assertEquals((await make("new", 3001)).status, 201);
      const redirect = await call(b.origin, `/${slug}`);
      assertEquals([redirect.status, redirect.headers.get("location")], [
        302,
        "https://example.com/new",
      ]);
    },
  );

  for (const [slug, times] of [["pair-five", 5], ["pair-one", 1], ["pair-fifty", 50]] as const) {
    await t.step(
      `200 concurrent Opens of a link with maxVisits ${times} across both: exactly ${times} 303s`,
      async () => {
        const made = await call(a.origin, "/api/create", {
          json: { url: `example.com/${slug}`, slug, maxVisits: times },
          client: clientNumber(4000 + times),
        });
        assertEquals(made.status, 201);
        // Both have the link cached, and their Open pages, every client's GET, take nothing.
        for (const service of both) {
          assertEquals((await call(service.origin, `/${slug}`, { method: "HEAD" })).status, 200);
          const page = await call(service.origin, `/${slug}`, {
            headers: { "User-Agent": DESKTOP_UA, Accept: "text/html" },
          });
          assertEquals([page.status, page.headers.get("location")], [200, null]);
          assert(page.text.includes("This link opens <strong>"), page.text.slice(0, 300));
        }
        const opens = await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            call(both[i % 2]!.origin, `/${slug}`, {
              method: "POST",
              headers: { "User-Agent": DESKTOP_UA, Accept: "text/html" },
              client: clientNumber(5000 + times * 1000 + i),
            })),
        );
        const statuses = opens.map((open) => open.status);
        assertEquals(statuses.filter((status) => status === 303).length, times, String(statuses));
        assertEquals(
          statuses.filter((status) => status === 404).length,
          200 - times,
          String(statuses),
        );
        for (const open of opens.filter((open) => open.status === 303)) {
          assertEquals(open.headers.get("location"), `https://example.com/${slug}`);
          assertEquals(open.headers.get("referrer-policy"), "unsafe-url");
          assertEquals(open.headers.get("cache-control"), "no-store");
        }
        for (const open of opens.filter((open) => open.status === 404)) {
          assert(open.text.includes("was used up"), open.text.slice(0, 300));
          assert(!open.text.includes(`example.com/${slug}`), "a used-up page names no destination");
        }
        const unshorten = await call(b.origin, `/api/unshorten?slug=${slug}`);
        assertEquals([unshorten.status, unshorten.json<{ usedUp: boolean }>().usedUp], [410, true]);
      },
    );
  }

  for (const service of both) assertEquals((await service.stop()).code, 0, service.output());
  // Every removal was confirmed by B, none answered at the one-second bound without it.
  assert(!a.output().includes("removal answered before"), a.output());
});
