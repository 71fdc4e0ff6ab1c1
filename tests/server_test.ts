import { assert, assertEquals, assertStringIncludes } from "./_helpers/assert.ts";
import {
  call,
  freePort,
  runUntilExit,
  startService,
  tempDir,
  unwritableFolder,
} from "../testing/server.ts";
import { DESKTOP_UA } from "../testing/visits.ts";
import { tallyKey } from "../lib/kv/keys.ts";
import { REFERRER_TALLY } from "../lib/tallies/kinds.ts";
import { within } from "./_helpers/wait.ts";

Deno.test("deno task start serves the API over HTTP on its KV file and stops on SIGTERM", async () => {
  await using dir = await tempDir("lapse-server-");
  const kvPath = `${dir.path}/nested/links.kv`;
  await using service = await startService({ env: { KV_PATH: kvPath } });
  const created = await call(service.origin, "/api/create", {
    json: { url: "example.com/over-http", slug: "wire" },
  });
  assertEquals(created.status, 201);
  assertEquals(created.json<{ shortUrl: string }>().shortUrl, `${service.origin}/wire`);
  const redirect = await call(service.origin, "/wire");
  assertEquals(redirect.status, 302);
  assertEquals(redirect.headers.get("location"), "https://example.com/over-http");
  assertEquals((await call(service.origin, "/wire", { method: "HEAD" })).status, 302);
  assertEquals((await call(service.origin, "/api/links")).json<unknown[]>().length, 1);
  const page = await call(service.origin, "/missing");
  assertEquals(page.status, 404);
  assertStringIncludes(page.text, "The name is free");
  assertEquals((await call(service.origin, "/api/create", { method: "OPTIONS" })).status, 204);
  // HEAD answers GET's status and headers, the page's length included, without the body.
  const locked = await call(service.origin, "/api/create", {
    json: { url: "example.com/locked", slug: "locked", pass: "pw" },
  });
  assertEquals(locked.status, 201);
  // (Uncompressed: a compressed page's length is not known before it is sent.)
  const browser = { headers: { Accept: "text/html", "Accept-Encoding": "identity" } };
  for (const path of ["/missing", "/locked", "/"]) {
    const [get, head] = [
      await call(service.origin, path, browser),
      await call(service.origin, path, { method: "HEAD", ...browser }),
    ];
    assertEquals(head.status, get.status, path);
    assertEquals(head.text, "", path);
    assertEquals(
      get.headers.get("content-length"),
      String(new TextEncoder().encode(get.text).length),
    );
    assertEquals(head.headers.get("content-length"), get.headers.get("content-length"), path);
  }
  // Compressed, HEAD says the encoding GET is sent in, and no length.
  const compressed = { headers: { Accept: "text/html", "Accept-Encoding": "gzip" } };
  const [get, head] = [
    await call(service.origin, "/", compressed),
    await call(service.origin, "/", { method: "HEAD", ...compressed }),
  ];
  assertEquals(head.text, "");
  for (const name of ["content-encoding", "content-length", "vary"]) {
    assertEquals(head.headers.get(name), get.headers.get(name), name);
  }
  // An answer without a body (a redirect, first read or not) says 0 to HEAD as to GET.
  const fresh = await call(service.origin, "/api/create", {
    json: { url: "example.com/fresh", slug: "fresh" },
  });
  assertEquals(fresh.status, 201);
  for (const path of ["/fresh", "/links/"]) {
    const head = await call(service.origin, path, { method: "HEAD" });
    const get = await call(service.origin, path);
    assertEquals([head.status, get.status], [path === "/fresh" ? 302 : 301, head.status], path);
    assertEquals(head.headers.get("content-length"), "0", path);
    assertEquals(get.headers.get("content-length"), "0", path);
  }
  // A JSON answer's length is not set by its route: HEAD leaves it unsaid rather than say 0
  // (to a client that takes no encoding; to one that does, a small answer is read whole to
  // know whether to compress it, and HEAD then says its true length, as GET does).
  for (const path of ["/api/version", "/api/check?slug=wire", "/api/unshorten?slug=wire"]) {
    for (const encoding of ["identity", "gzip"]) {
      const headers = { "Accept-Encoding": encoding };
      const head = await call(service.origin, path, { method: "HEAD", headers });
      assertEquals(head.status, 200, path);
      assertEquals(head.text, "", path);
      assertEquals(head.headers.get("content-type"), "application/json", path);
      const get = await call(service.origin, path, { headers });
      const length = encoding === "identity"
        ? null
        : String(new TextEncoder().encode(get.text).byteLength);
      assertEquals(head.headers.get("content-length"), length, `${path} ${encoding}`);
    }
  }
  const status = await service.stop("SIGTERM");
  assertEquals(status.code, 0, service.output());
  assert((await Deno.stat(kvPath)).isFile);
});

Deno.test("links survive a restart on the same KV file", async () => {
  await using dir = await tempDir("lapse-server-");
  const env = { KV_PATH: `${dir.path}/links.kv` };
  {
    await using first = await startService({ env });
    const made = await call(first.origin, "/api/create", {
      json: { url: "example.com/kept", slug: "kept" },
    });
    assertEquals(made.status, 201);
    assertEquals((await first.stop()).code, 0);
  }
  await using second = await startService({ env });
  const redirect = await call(second.origin, "/kept");
  assertEquals(redirect.headers.get("location"), "https://example.com/kept");
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

Deno.test("a busy port or an unresolvable HOSTNAME stops start-up with one line", async () => {
  await using dir = await tempDir("lapse-start-");
  const port = freePort();
  using held = Deno.listen({ hostname: "127.0.0.1", port });
  const base = { PORT: String(port), HOSTNAME: "127.0.0.1", KV_PATH: `${dir.path}/links.kv` };
  const cases: [Record<string, string>, RegExp][] = [
    [{}, new RegExp(`^PORT: ${port} is already in use on 127\\.0\\.0\\.1; .*PORT to another$`)],
    [
      { PORT: "0", HOSTNAME: "no-such-host.invalid" },
      /^HOSTNAME: no-such-host\.invalid does not resolve to an address \(.+\)$/,
    ],
  ];
  for (const [env, line] of cases) {
    const exited = await runUntilExit({ ...base, ...env });
    const where = `${JSON.stringify(env)}:\n${exited.stderr}${exited.stdout}`;
    assertEquals(exited.code, 1, where);
    const lines = exited.stderr.trimEnd().split("\n");
    assertEquals(lines.length, 1, where);
    assert(line.test(lines[0]!), where);
    assert(!/\bat .+:\d+:\d+/.test(exited.stderr + exited.stdout), `a stack trace: ${where}`);
    assert(!exited.stdout.includes("listening on"), where);
  }
  assert(held.addr.transport === "tcp");
  // The README quotes these lines as the service writes them.
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  assert(/^PORT: 8000 is already in use on 0\.0\.0\.0; .*PORT to another$/m.test(readme));
  assert(/^HOSTNAME: no-such-host\.invalid does not resolve to an address \(.+\)$/m.test(readme));
});

const README = await Deno.readTextFile(new URL("../README.md", import.meta.url));

/** The JSON log lines of `output` whose `msg` starts with `start`. */
function linesSaying(output: string, start: string): Record<string, unknown>[] {
  return output.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line))
    .filter((line) => typeof line.msg === "string" && line.msg.startsWith(start));
}

/** The lines {@linkcode linesSaying} finds in `service`'s output, once there are some (5 s at most). */
async function linesSoon(
  service: { output(): string },
  start: string,
): Promise<Record<string, unknown>[]> {
  await within(5_000, () => Promise.resolve(linesSaying(service.output(), start).length > 0));
  return linesSaying(service.output(), start);
}

Deno.test("an unusable KV_PATH leaves the service up and answering, and it recovers without a restart once the store can be made", async () => {
  await using dir = await tempDir("lapse-unusable-");
  await using locked = await unwritableFolder();
  const cases = [
    // A regular file where the store's folder should be, then moved out of the way.
    {
      path: `${dir.path}/a-file/links.kv`,
      cause: /a-file\/ is not a folder/,
      block: () => Deno.writeTextFile(`${dir.path}/a-file`, ""),
      mend: () => Deno.remove(`${dir.path}/a-file`),
    },
    // A folder it may not write, then made writable.
    {
      path: `${locked.path}/store/links.kv`,
      cause: /permission denied|read-only file system/,
      block: () => Promise.resolve(),
      mend: async () => {
        await new Deno.Command("umount", { args: ["-l", locked.path] }).output().catch(() => {});
        await Deno.chmod(locked.path, 0o755);
      },
    },
  ];
  for (const { path, cause, block, mend } of cases) {
    await block();
    await using service = await startService({ env: { KV_PATH: path } });
    for (const page of ["/api/version", "/api/changelog", "/", "/about", "/docs"]) {
      assertEquals((await call(service.origin, page)).status, 200, page);
    }
    const health = await call(service.origin, "/api/health");
    assertEquals([health.status, health.json<{ store: string }>().store], [503, "down"]);
    for (
      const [path, init] of [
        ["/api/create", { json: { url: "example.com/x" } }],
        ["/api/links", {}],
        ["/api/stats", {}],
        ["/api/unshorten?slug=abc", {}],
      ] as const
    ) {
      const answer = await call(service.origin, path, init);
      assertEquals(answer.status, 503, path);
      assertEquals(answer.headers.get("content-type"), "application/json", path);
      assertEquals(answer.json(), { error: "storage is unavailable, try again shortly" }, path);
    }
    const said = await linesSoon(service, "KV_PATH: the store cannot be opened");
    assertStringIncludes(README, `"msg":"${said[0]?.msg}"`);
    assertEquals(said.length, 1, service.output());
    assertEquals([said[0]!.level, said[0]!.kvPath], ["error", path]);
    assert(cause.test(String(said[0]!.cause)), String(said[0]!.cause));

    await mend();
    // Health answers 200 once the store is open (tried again at most 4 s apart).
    const healthy = await within(
      10_000,
      async () => (await call(service.origin, "/api/health")).status === 200,
    );
    assert(healthy !== null, "not recovered 10 s after the store could be made");
    const made = await call(service.origin, "/api/create", { json: { url: "example.com/y" } });
    assertEquals(made.status, 201, made.text);
    const slug = made.json<{ slug: string }>().slug;
    assertEquals((await call(service.origin, `/${slug}`)).status, 302);
    assertEquals((await call(service.origin, "/api/health")).status, 200);
    assertEquals((await service.stop()).code, 0);
    const output = service.output();
    const opened = await linesSoon(service, "KV_PATH: the store is open");
    assertEquals(opened.length, 1, output);
    assertStringIncludes(README, `"msg":"${opened[0]!.msg}"`);
    // Nothing waited while the store was down: no flush failure was worth a line.
    assertEquals(linesSaying(output, "click flush").length, 0, output);
  }
});

Deno.test("shutdown says in one line that every click is written", async () => {
  await using dir = await tempDir("lapse-stop-");
  await using service = await startService({ env: { KV_PATH: `${dir.path}/links.kv` } });
  await call(service.origin, "/api/create", { json: { url: "example.com", slug: "said" } });
  for (let i = 0; i < 5; i++) {
    await call(service.origin, "/said", { headers: { "User-Agent": DESKTOP_UA } });
  }
  assertEquals((await service.stop("SIGTERM")).code, 0);
  const stopped = service.output().split("\n").filter((line) => line.includes('"stopped: '));
  assertEquals(stopped.length, 1, service.output().slice(-2000));
  const line = JSON.parse(stopped[0]!);
  assertEquals([line.level, line.msg, line.waiting], [
    "info",
    "stopped: every recorded click is written",
    0,
  ]);
  assertStringIncludes(
    README,
    `\`${JSON.stringify({ level: "info", msg: line.msg, waiting: 0 })}\``,
  );
  // It is the last thing said.
  assertEquals(service.output().trimEnd().split("\n").at(-1), stopped[0]);
});

Deno.test("deno task import loads legacy links, and deno task sweep dates them", async () => {
  await using dir = await tempDir("lapse-import-");
  const file = `${dir.path}/legacy.json`;
  await Deno.writeTextFile(
    file,
    JSON.stringify({
      legacy: "example.com/legacy",
      counted: { url: "example.com/c", title: "C", clicks: "oops" },
      docs: "example.com/reserved",
    }),
  );
  const env = { KV_PATH: `${dir.path}/links.kv`, BASE_URL: "http://sho.rt" };
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
  // A click counted by a process that stopped before ranking its referrer: the task places it.
  const kv = await Deno.openKv(env.KV_PATH);
  await kv.atomic().sum(tallyKey(REFERRER_TALLY, "x.example"), 1n).commit();
  kv.close();
  const swept = await run(["sweep"]);
  assertEquals(swept.code, 0);
  assertEquals(JSON.parse(new TextDecoder().decode(swept.stdout)), {
    stamped: 2,
    swept: 0,
    slugs: [],
    reranked: 1,
  });
  const missing = await run(["import"]);
  assertEquals(missing.code, 2);
});

Deno.test("SIGTERM right after 100 visits loses none of them", async () => {
  await using dir = await tempDir("lapse-server-");
  const env = { KV_PATH: `${dir.path}/links.kv` };
  {
    await using first = await startService({ env });
    const made = await call(first.origin, "/api/create", {
      json: { url: "example.com/counted", slug: "counted" },
    });
    assertEquals(made.status, 201);
    const visits = await Promise.all(
      Array.from(
        { length: 100 },
        () => call(first.origin, "/counted", { headers: { "User-Agent": DESKTOP_UA } }),
      ),
    );
    assertEquals(visits.filter((visit) => visit.status === 302).length, 100);
    assertEquals((await first.stop("SIGTERM")).code, 0);
  }
  await using second = await startService({ env });
  const [entry] = (await call(second.origin, "/api/links")).json<{ clicks: number }[]>();
  assertEquals(entry?.clicks, 100);
});
