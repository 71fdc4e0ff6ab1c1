import { assert, assertEquals, assertStringIncludes } from "./_helpers/assert.ts";
import { startService } from "./_helpers/server.ts";
import { DESKTOP_UA } from "./_helpers/visits.ts";

Deno.test("deno task start serves the API over HTTP on its KV file and stops on SIGTERM", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lapse-server-" });
  try {
    const kvPath = `${dir}/nested/links.kv`;
    await using service = await startService({ env: { KV_PATH: kvPath } });
    const created = await fetch(`${service.origin}/api/create`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ url: "example.com/over-http", slug: "wire" }),
    });
    assertEquals(created.status, 201);
    assertEquals((await created.json()).shortUrl, `${service.origin}/wire`);
    const redirect = await fetch(`${service.origin}/wire`, { redirect: "manual" });
    assertEquals(redirect.status, 302);
    assertEquals(redirect.headers.get("location"), "https://example.com/over-http");
    await redirect.body?.cancel();
    const head = await fetch(`${service.origin}/wire`, { method: "HEAD", redirect: "manual" });
    assertEquals(head.status, 302);
    const links = await (await fetch(`${service.origin}/api/links`)).json();
    assertEquals(links.length, 1);
    const page = await fetch(`${service.origin}/missing`);
    assertEquals(page.status, 404);
    assertStringIncludes(await page.text(), "The name is free");
    const preflight = await fetch(`${service.origin}/api/create`, { method: "OPTIONS" });
    assertEquals(preflight.status, 204);
    await preflight.body?.cancel();
    const status = await service.stop("SIGTERM");
    assertEquals(status.code, 0, service.output());
    assert((await Deno.stat(kvPath)).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("links survive a restart on the same KV file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lapse-server-" });
  try {
    const env = { KV_PATH: `${dir}/links.kv` };
    {
      await using first = await startService({ env });
      const res = await fetch(`${first.origin}/api/create`, {
        method: "POST",
        body: JSON.stringify({ url: "example.com/kept", slug: "kept" }),
      });
      assertEquals(res.status, 201);
      await res.body?.cancel();
      assertEquals((await first.stop()).code, 0);
    }
    await using second = await startService({ env });
    const redirect = await fetch(`${second.origin}/kept`, { redirect: "manual" });
    assertEquals(redirect.headers.get("location"), "https://example.com/kept");
    await redirect.body?.cancel();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a bad configuration stops start-up with a clear message", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "start"],
    cwd: new URL("../", import.meta.url),
    env: { PORT: "eighty", KV_PATH: ":memory:" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(output.code, 1);
  const stderr = new TextDecoder().decode(output.stderr);
  assertStringIncludes(stderr, "Invalid configuration");
  assertStringIncludes(stderr, "PORT: must be a whole number");
});

Deno.test("deno task import loads legacy links, and deno task sweep dates them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lapse-import-" });
  try {
    const file = `${dir}/legacy.json`;
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        legacy: "example.com/legacy",
        counted: { url: "example.com/c", title: "C", clicks: "oops" },
        docs: "example.com/reserved",
      }),
    );
    const env = { KV_PATH: `${dir}/links.kv`, BASE_URL: "http://sho.rt" };
    const run = (args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["task", "--quiet", ...args],
        cwd: new URL("../", import.meta.url),
        env,
        stdout: "piped",
        stderr: "piped",
      }).output();
    const imported = await run(["import", file]);
    const text = new TextDecoder().decode(imported.stdout) +
      new TextDecoder().decode(imported.stderr);
    assertEquals(imported.code, 0, text);
    assertStringIncludes(text, "imported 2 links, skipped 1");
    assertStringIncludes(text, "skipped docs: reserved word");
    const swept = await run(["sweep"]);
    assertEquals(swept.code, 0);
    assertEquals(JSON.parse(new TextDecoder().decode(swept.stdout)), {
      stamped: 2,
      swept: 0,
      slugs: [],
    });
    const missing = await run(["import"]);
    assertEquals(missing.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SIGTERM right after 100 visits loses none of them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lapse-server-" });
  try {
    const env = { KV_PATH: `${dir}/links.kv` };
    {
      await using first = await startService({ env });
      const res = await fetch(`${first.origin}/api/create`, {
        method: "POST",
        body: JSON.stringify({ url: "example.com/counted", slug: "counted" }),
      });
      assertEquals(res.status, 201);
      await res.body?.cancel();
      const visits = await Promise.all(Array.from({ length: 100 }, async () => {
        const visit = await fetch(`${first.origin}/counted`, {
          redirect: "manual",
          headers: { "User-Agent": DESKTOP_UA },
        });
        await visit.body?.cancel();
        return visit.status;
      }));
      assertEquals(visits.filter((status) => status === 302).length, 100);
      assertEquals((await first.stop("SIGTERM")).code, 0);
    }
    await using second = await startService({ env });
    const [entry] = await (await fetch(`${second.origin}/api/links`)).json();
    assertEquals(entry.clicks, 100);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
