import { assert, assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import { until } from "../../tests/_helpers/wait.ts";
import { StoreUnavailableError } from "../errors.ts";
import { openInto } from "./file_watch.ts";
import { MOST_REOPEN_MS, openStore } from "./store.ts";

Deno.test("a store whose file vanishes answers unavailable, and recovers when a file is back", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lapse-vanish-" });
  const path = `${dir}/store/links.kv`;
  const told: boolean[] = [];
  const store = await openStore(path, { watchIntervalMs: 20, onFileChange: (up) => told.push(up) });
  try {
    await store.kv.set(["before"], 1);
    await Deno.remove(`${dir}/store`, { recursive: true });
    assert(await until(() => told.length === 1), "the file's loss was not noticed");
    assertEquals(told, [false]);
    await assertRejects(() => store.kv.get(["before"]), StoreUnavailableError);
    await assertRejects(() => store.kv.set(["during"], 1), StoreUnavailableError);
    await assertRejects(() => store.kv.atomic().set(["during"], 1).commit(), StoreUnavailableError);
    await assertRejects(async () => {
      for await (const _ of store.kv.list({ prefix: [] })) break;
    }, StoreUnavailableError);
    // The store comes back (restored, or made anew): it is opened and used.
    await Deno.mkdir(`${dir}/store`);
    (await Deno.openKv(path)).close();
    assert(await until(() => told.length === 2), "the file back was not opened");
    assertEquals(told, [false, true]);
    await store.kv.set(["after"], 2);
    assertEquals((await store.kv.get(["after"])).value, 2);
  } finally {
    store.kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a store whose folder is moved away and back recovers, the same file under the same inode", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lapse-moved-" });
  const path = `${dir}/store/links.kv`;
  const told: boolean[] = [];
  const store = await openStore(path, { watchIntervalMs: 20, onFileChange: (up) => told.push(up) });
  try {
    await store.kv.set(["before"], 1);
    const inode = (await Deno.stat(path)).ino;
    await Deno.rename(`${dir}/store`, `${dir}/away`);
    assert(await until(() => told.length === 1), "the file's loss was not noticed");
    assertEquals(told, [false]);
    await assertRejects(() => store.kv.get(["before"]), StoreUnavailableError);
    await Deno.rename(`${dir}/away`, `${dir}/store`);
    assertEquals((await Deno.stat(path)).ino, inode);
    assert(await until(() => told.length === 2), "the file back was not opened");
    assertEquals(told, [false, true]);
    assertEquals((await store.kv.get(["before"])).value, 1);
    await store.kv.set(["after"], 2);
    assertEquals((await store.kv.get(["after"])).value, 2);
  } finally {
    store.kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a store that cannot be opened is down when told so, and opens once it can", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lapse-unopened-" });
  const path = `${dir}/links.kv`;
  await Deno.mkdir(path); // a folder in the file's place
  await assertRejects(() => openStore(path), Error); // not told: an error
  const told: Error[] = [];
  let opened = 0;
  const changes: boolean[] = [];
  const store = await openStore(path, {
    watchIntervalMs: 20,
    onUnavailable: (e) => told.push(e),
    onOpened: () => opened++,
    onFileChange: (up) => changes.push(up),
  });
  try {
    assertEquals(told.length, 1);
    await assertRejects(() => store.kv.get(["k"]), StoreUnavailableError);
    await Deno.remove(path);
    // Tried again with backoff: within the longest wait between tries, and a little.
    await until(() => opened > 0, MOST_REOPEN_MS + 1_000);
    assertEquals(opened, 1);
    await store.kv.set(["k"], 1);
    assertEquals((await store.kv.get(["k"])).value, 1);
    // Once open, the file is watched as usual.
    await Deno.remove(path);
    assert(await until(() => changes.length === 1), "the file's loss was not noticed");
    assertEquals(changes, [false]);
    await assertRejects(() => store.kv.get(["k"]), StoreUnavailableError);
  } finally {
    store.kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a store that opens after its slot was closed is closed, not put in the slot", async () => {
  const standIn = await Deno.openKv(":memory:");
  const slot = { kv: standIn, down: new Error("down") as Error | null };
  let opened: Deno.Kv | undefined;
  const open = async () => opened = await Deno.openKv(":memory:");
  assertEquals(await openInto(slot, open, () => true), false);
  assertEquals(slot.kv, standIn);
  await assertRejects(() => opened!.get(["k"]), Error); // closed
  assertEquals(await openInto(slot, open, () => false), true);
  assertEquals([slot.kv, slot.down], [opened, null]);
  await assertRejects(() => standIn.get(["k"]), Error); // the one replaced is closed
  opened!.close();
});

Deno.test("a store under a folder it may not write is down, not an error, when told so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lapse-unwritable-" });
  await Deno.writeTextFile(`${dir}/a-file`, "");
  const path = `${dir}/a-file/links.kv`;
  const told: Error[] = [];
  const store = await openStore(path, { onUnavailable: (e) => told.push(e) });
  try {
    assertEquals(told.map((e) => e.message), [
      `cannot write the store at ${path}: ${dir}/a-file/ is not a folder`,
    ]);
    await assertRejects(() => store.kv.get(["k"]), StoreUnavailableError);
  } finally {
    store.kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
