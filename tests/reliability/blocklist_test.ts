import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { call, runUntilExit, startService, tempDir } from "../../testing/server.ts";
import { within } from "../_helpers/wait.ts";

const BLOCKED = "destination host is blocked by this service";

Deno.test("a host added to BLOCKED_HOSTS_FILE while two instances serve stops its links on both within 10 s, and removed, frees them", async () => {
  await using dir = await tempDir("lapse-blocklist-");
  const file = `${dir.path}/blocked-hosts.txt`;
  await Deno.writeTextFile(file, "# blocked destinations\nalready.example\n");
  const env = { KV_PATH: `${dir.path}/links.kv`, BLOCKED_HOSTS_FILE: file };
  await using a = await startService({ env });
  await using b = await startService({ env });

  // Blocked from the start: refused on both.
  for (const service of [a, b]) {
    const refused = await call(service.origin, "/api/create", {
      json: { url: "https://www.already.example/" },
    });
    assertEquals([refused.status, refused.json()], [400, { error: BLOCKED }]);
  }
  const made = await call(a.origin, "/api/create", {
    json: { url: "https://login.phish.example/account", slug: "phish" },
  });
  assertEquals(made.status, 201);
  // Both follow it, and hold it in their caches.
  for (const service of [a, b]) {
    for (let i = 0; i < 2; i++) assertEquals((await call(service.origin, "/phish")).status, 302);
  }

  // The operator blocks the host while both serve.
  await Deno.writeTextFile(file, "# blocked destinations\nalready.example\nphish.example\n");
  for (const service of [a, b]) {
    const took = await within(
      10_000,
      async () => (await call(service.origin, "/phish")).status === 410,
    );
    assert(took !== null, `${service.origin} still redirects 10 s after the block`);
    const page = await call(service.origin, "/phish", { headers: { Accept: "text/html" } });
    assertEquals([page.status, page.headers.get("location")], [410, null]);
    assertStringIncludes(page.text, "The operator of this service disabled");
    assert(!page.text.includes("login.phish.example"));
    const unshorten = await call(service.origin, "/api/unshorten?slug=phish");
    assertEquals(unshorten.status, 410);
    assertEquals(unshorten.json<{ blocked: boolean; slug: string }>().blocked, true);
    const preview = await call(service.origin, "/api/preview?url=phish.example");
    assertEquals([preview.status, preview.json<{ reason: string }>().reason], [400, "host"]);
    const bulk = await call(service.origin, "/api/bulk", {
      json: { urls: ["fine.example/x", "https://phish.example/y"] },
    });
    const rows = bulk.json<{ ok: boolean; error?: string }[]>();
    assertEquals(rows.map((row) => [row.ok, row.error]), [[true, undefined], [false, BLOCKED]]);
  }

  // Unblocked: the link redirects again on both.
  await Deno.writeTextFile(file, "already.example\n");
  for (const service of [a, b]) {
    const took = await within(
      10_000,
      async () => (await call(service.origin, "/phish")).status === 302,
    );
    assert(took !== null, `${service.origin} still refuses 10 s after the host was unblocked`);
  }
  for (const service of [a, b]) assertEquals((await service.stop()).code, 0);
  assertStringIncludes(a.output(), '"msg":"BLOCKED_HOSTS_FILE: read"');
});

Deno.test("a BLOCKED_HOSTS_FILE that cannot be read stops start-up with one line", async () => {
  await using dir = await tempDir("lapse-blocklist-");
  const exited = await runUntilExit({
    PORT: "0",
    KV_PATH: `${dir.path}/links.kv`,
    BLOCKED_HOSTS_FILE: `${dir.path}/missing.txt`,
  });
  assertEquals(exited.code, 1, exited.stderr);
  assertEquals(
    exited.stderr.trimEnd(),
    `BLOCKED_HOSTS_FILE: cannot read ${dir.path}/missing.txt: no such file or directory`,
  );
  // The README quotes the line as the service writes it.
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  assert(/^BLOCKED_HOSTS_FILE: cannot read \S+: no such file or directory$/m.test(readme));
});
