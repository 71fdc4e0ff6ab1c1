import { assert, assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import { until } from "../../tests/_helpers/wait.ts";
import { BlocklistFileError, watchBlocklistFile } from "./file.ts";
import { HostBlocklist } from "./mod.ts";

Deno.test("a blocklist file is read at start and again when it changes, replaced or not", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lapse-blocklist-" });
  const path = `${dir}/blocked.txt`;
  await Deno.writeTextFile(path, "evil.example\n");
  const list = new HostBlocklist();
  const reads: number[] = [];
  const faults: (Error | null)[] = [];
  const stop = await watchBlocklistFile(list, path, {
    intervalMs: 20,
    onRead: ({ names }) => reads.push(names),
    onFault: (error) => faults.push(error),
  });
  try {
    assertEquals([list.blocks("www.evil.example"), reads], [true, [1]]);
    // Written in place.
    await Deno.writeTextFile(path, "evil.example\nworse.example\n");
    assert(await until(() => list.blocks("worse.example")), "an edit was not read");
    // Replaced by a rename, as editors and config tools do.
    await Deno.writeTextFile(`${dir}/next.txt`, "# nothing blocked now\n");
    await Deno.rename(`${dir}/next.txt`, path);
    assert(await until(() => list.size === 0), "a replaced file was not read");
    assertEquals(reads, [1, 2, 0]);
    // Gone: the last list holds, and the fault is told; back: read again.
    await Deno.writeTextFile(path, "gone.example\n");
    assert(await until(() => list.blocks("gone.example")));
    await Deno.remove(path);
    assert(await until(() => faults.length > 0), "a file gone was not told");
    assertEquals(list.blocks("gone.example"), true);
    await Deno.writeTextFile(path, "back.example\n");
    assert(await until(() => list.blocks("back.example")), "a file back was not read");
    assertEquals(faults.at(-1), null);
  } finally {
    stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a blocklist file that cannot be read at start is an error naming it", async () => {
  const error = await assertRejects(
    () => watchBlocklistFile(new HostBlocklist(), "/no/such/blocked.txt"),
    BlocklistFileError,
  );
  assertEquals(error.message, "cannot read /no/such/blocked.txt: no such file or directory");
});
