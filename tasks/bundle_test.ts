import { assert, assertEquals } from "../tests/_helpers/assert.ts";
import { buildIslands, readManifest, sourcesFingerprint } from "./bundle.ts";

Deno.test("a build with unchanged sources is skipped, and the manifest names the files in place", async () => {
  await buildIslands({ log: () => {} });
  const again = await buildIslands({ log: () => {} });
  assertEquals(again.built, false);
  const manifest = await readManifest();
  assertEquals(manifest, again.manifest);
  assertEquals(manifest?.fingerprint, await sourcesFingerprint());
  assert(manifest?.files.includes("_client.js"));
  for (const island of ["CreateForm", "UnlockForm", "DeleteLink"]) {
    assert(manifest?.files.some((file) => file.startsWith(`${island}-`)), island);
  }
  for (const file of manifest?.files ?? []) {
    const text = await Deno.readTextFile(new URL(`../static/build/${file}`, import.meta.url));
    // Built for browsers: nothing of Deno's, and no source left unminified.
    assert(!text.includes("Deno."), file);
    assert(text.split("\n").length < 5, file);
  }
});
