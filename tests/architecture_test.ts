/**
 * The directions imports may take. `lib/` is the domain: it imports no web framework,
 * no route, page or OpenAPI code. `lib/kv` is the store: it imports no other `lib/`
 * folder, only the dependency-free files at the top of `lib/` (such as `lib/errors.ts`).
 * `components/` and `islands/` are what routes render: they import nothing from `routes/`.
 * @module
 */
import { assertEquals } from "./_helpers/assert.ts";

const ROOT = new URL("../", import.meta.url);
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;
const FRAMEWORK = /^(?:npm:)?(?:hono|preact|@preact\/|preact-render-to-string)(?:$|\/|@)/;

async function* sourceFiles(root: URL, dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(new URL(dir, root))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sourceFiles(root, path);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) yield path;
  }
}

/** Each import specifier of `path`, with its repository-relative target when relative. */
async function importsOf(
  root: URL,
  path: string,
): Promise<{ specifier: string; target?: string }[]> {
  const text = await Deno.readTextFile(new URL(path, root));
  const found = [];
  for (const [, specifier] of text.matchAll(IMPORT)) {
    if (!specifier!.startsWith(".")) {
      found.push({ specifier: specifier! });
      continue;
    }
    const url = new URL(specifier!, new URL(path, root));
    found.push({ specifier: specifier!, target: url.href.slice(root.href.length) });
  }
  return found;
}

/** The top-level `lib/` files that import nothing from a `lib/` folder. */
async function leafFiles(root: URL): Promise<Set<string>> {
  const leaves = new Set<string>();
  for await (const entry of Deno.readDir(new URL("lib", root))) {
    if (!entry.isFile || !/\.tsx?$/.test(entry.name)) continue;
    const path = `lib/${entry.name}`;
    const imports = await importsOf(root, path);
    if (imports.every((i) => !i.target || /^lib\/[^/]+$/.test(i.target))) leaves.add(path);
  }
  return leaves;
}

/** Every import in `lib/` that goes against the directions above, as "file -> specifier". */
async function wrongDirections(root: URL): Promise<string[]> {
  const leaves = await leafFiles(root);
  const wrong: string[] = [];
  for await (const path of sourceFiles(root, "lib")) {
    for (const { specifier, target } of await importsOf(root, path)) {
      const edge = target !== undefined &&
        /^(?:routes|components|islands)\//.test(target);
      const openapi = /(?:^|\/)_?openapi(?:\/|\.tsx?$)/.test(target ?? specifier);
      if (FRAMEWORK.test(specifier) || edge || openapi) {
        wrong.push(`${path} -> ${specifier}`);
      } else if (
        path.startsWith("lib/kv/") && target !== undefined && !target.startsWith("lib/kv/") &&
        !leaves.has(target)
      ) {
        wrong.push(`${path} -> ${specifier}`);
      }
    }
  }
  return wrong.sort();
}

Deno.test("lib/ imports no framework, route, page or OpenAPI code", async () => {
  assertEquals(await wrongDirections(ROOT), []);
});

/** Every import in `components/` and `islands/` of a `routes/` module, as "file -> specifier". */
async function routeImports(root: URL): Promise<string[]> {
  const wrong: string[] = [];
  for (const dir of ["components", "islands"]) {
    for await (const path of sourceFiles(root, dir)) {
      for (const { specifier, target } of await importsOf(root, path)) {
        if (target?.startsWith("routes/")) wrong.push(`${path} -> ${specifier}`);
      }
    }
  }
  return wrong.sort();
}

Deno.test("components/ and islands/ import nothing from routes/", async () => {
  assertEquals(await routeImports(ROOT), []);
});

Deno.test("the import reader finds a page or island importing from routes/", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lapse-imports-" });
  try {
    const root = new URL(`file://${dir}/`);
    await Deno.mkdir(`${dir}/components/openapi`, { recursive: true });
    await Deno.mkdir(`${dir}/islands`, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/components/Page.tsx`,
      [
        `import type { OpenApiDocument } from "../routes/_openapi/mod.ts";`,
        `import { InlineCode } from "./InlineCode.tsx";`,
      ].join("\n"),
    );
    await Deno.writeTextFile(`${dir}/components/openapi/present.ts`, `import "./types.ts";`);
    await Deno.writeTextFile(
      `${dir}/islands/Form.tsx`,
      `const env = await import("../routes/_lib/env.ts");`,
    );
    assertEquals(await routeImports(root), [
      "components/Page.tsx -> ../routes/_openapi/mod.ts",
      "islands/Form.tsx -> ../routes/_lib/env.ts",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the import reader sees each form an import takes and each wrong direction", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lapse-imports-" });
  try {
    const root = new URL(`file://${dir}/`);
    await Deno.mkdir(`${dir}/lib/links`, { recursive: true });
    await Deno.mkdir(`${dir}/lib/kv`, { recursive: true });
    await Deno.writeTextFile(`${dir}/lib/errors.ts`, `export class Oops extends Error {}`);
    await Deno.writeTextFile(`${dir}/lib/mixed.ts`, `import "./links/cache.ts";`);
    await Deno.writeTextFile(
      `${dir}/lib/links/cache.ts`,
      [
        `import { Hono } from "hono";`,
        `import type { JSX } from "preact";`,
        `export { x } from "../../routes/_lib/env.ts";`,
        `const y = await import("../../components/Layout.tsx");`,
        `import { spec } from "../openapi/catalogue.ts";`,
        `import { Oops } from "../errors.ts";`,
      ].join("\n"),
    );
    await Deno.writeTextFile(
      `${dir}/lib/kv/store.ts`,
      [
        `import { Oops } from "../errors.ts";`,
        `import { k } from "./keys.ts";`,
        `import "../mixed.ts";`,
        `import type { LinkCache } from "../links/cache.ts";`,
      ].join("\n"),
    );
    assertEquals(await wrongDirections(root), [
      "lib/kv/store.ts -> ../links/cache.ts",
      "lib/kv/store.ts -> ../mixed.ts",
      "lib/links/cache.ts -> ../../components/Layout.tsx",
      "lib/links/cache.ts -> ../../routes/_lib/env.ts",
      "lib/links/cache.ts -> ../openapi/catalogue.ts",
      "lib/links/cache.ts -> hono",
      "lib/links/cache.ts -> preact",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
