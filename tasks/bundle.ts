/**
 * Building the island bundles: one browser entry (`islands/_client.ts`), split into chunks so a
 * page loads only its islands; a build whose sources' fingerprint is unchanged is skipped, and
 * concurrent builders take turns (docs/decisions/2026-11-22-island-bundles.md).
 * @module
 */

const ROOT = new URL("../", import.meta.url);

/** Where the bundles go (git-ignored). */
export const BUILD_DIR = new URL("static/build/", ROOT);

/** The browser entry that hydrates islands. */
export const CLIENT_ENTRY = new URL("islands/_client.ts", ROOT);

/** The files and folders whose contents decide the bundles, relative to the project root. */
export const BUNDLE_SOURCES: readonly string[] = [
  "islands/",
  "deno.json",
  "deno.lock",
  "tasks/bundle.ts",
];

/** What `static/build/manifest.json` records of a build. */
export interface BuildManifest {
  /** Fingerprint of the sources the build was made from. */
  fingerprint: string;
  /** The built files, names relative to the build folder. */
  files: string[];
}

/** Options of {@linkcode buildIslands}. */
export interface BuildOptions {
  /** Build even when the bundles are up to date. */
  force?: boolean;
  /** Where messages go; default `console.log`. */
  log?: (message: string) => void;
}

/** The outcome of {@linkcode buildIslands}. */
export interface BuildReport {
  /** Whether bundles were written (false: they were up to date). */
  built: boolean;
  /** The manifest now in place. */
  manifest: BuildManifest;
}

/** Builds the island bundles into {@linkcode BUILD_DIR} unless they are up to date. */
export async function buildIslands(options: BuildOptions = {}): Promise<BuildReport> {
  const log = options.log ?? console.log;
  await Deno.mkdir(BUILD_DIR, { recursive: true });
  using lock = await Deno.open(new URL(".lock", BUILD_DIR), { create: true, write: true });
  await lock.lock(true);
  try {
    const fingerprint = await sourcesFingerprint();
    const current = await readManifest();
    if (!options.force && current?.fingerprint === fingerprint && await allExist(current.files)) {
      return { built: false, manifest: current };
    }
    const started = performance.now();
    const manifest = await bundleInto(fingerprint);
    const took = Math.round(performance.now() - started);
    log(`islands: built ${manifest.files.length} files into static/build/ in ${took} ms`);
    return { built: true, manifest };
  } finally {
    await lock.unlock();
  }
}

/** The manifest of the bundles in place, or `null` when there is none. */
export async function readManifest(): Promise<BuildManifest | null> {
  try {
    const text = await Deno.readTextFile(new URL("manifest.json", BUILD_DIR));
    const manifest = JSON.parse(text) as BuildManifest;
    return typeof manifest.fingerprint === "string" && Array.isArray(manifest.files)
      ? manifest
      : null;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof SyntaxError) return null;
    throw error;
  }
}

/** SHA-256 over the path and contents of every file in {@linkcode BUNDLE_SOURCES}. */
export async function sourcesFingerprint(): Promise<string> {
  const paths: string[] = [];
  for (const source of BUNDLE_SOURCES) {
    if (source.endsWith("/")) paths.push(...await filesUnder(source));
    else paths.push(source);
  }
  const parts: Uint8Array[] = [];
  const encoder = new TextEncoder();
  for (const path of paths.sort()) {
    parts.push(encoder.encode(`${path}\0`), await Deno.readFile(new URL(path, ROOT)));
  }
  const total = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    total.set(part, offset);
    offset += part.length;
  }
  const digest = await crypto.subtle.digest("SHA-256", total);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function filesUnder(folder: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL(folder, ROOT))) {
    const path = `${folder}${entry.name}`;
    if (entry.isDirectory) files.push(...await filesUnder(`${path}/`));
    else if (entry.isFile && !entry.name.endsWith("_test.ts")) files.push(path);
  }
  return files;
}

async function allExist(files: string[]): Promise<boolean> {
  for (const file of files) {
    try {
      await Deno.stat(new URL(file, BUILD_DIR));
    } catch {
      return false;
    }
  }
  return true;
}

// Bundles into a private folder, then moves each file into place; the manifest goes last.
async function bundleInto(fingerprint: string): Promise<BuildManifest> {
  const work = await Deno.makeTempDir({ dir: BUILD_DIR.pathname, prefix: ".work-" });
  try {
    const config = `${work}/deno.client.json`;
    await Deno.writeTextFile(config, JSON.stringify(await clientConfig()));
    const out = `${work}/out`;
    const result = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--config",
        config,
        "--lock",
        new URL("deno.lock", ROOT).pathname,
        "--platform",
        "browser",
        "--format",
        "esm",
        "--code-splitting",
        "--minify",
        "--outdir",
        out,
        CLIENT_ENTRY.pathname,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!result.success) {
      const stderr = new TextDecoder().decode(result.stderr);
      throw new Error(`deno bundle failed:\n${stderr}`);
    }
    const files: string[] = [];
    for await (const entry of Deno.readDir(out)) {
      if (!entry.isFile) continue;
      await Deno.rename(`${out}/${entry.name}`, new URL(entry.name, BUILD_DIR));
      files.push(entry.name);
    }
    files.sort();
    await removeStale(files);
    const manifest: BuildManifest = { fingerprint, files };
    await Deno.writeTextFile(`${work}/manifest.json`, JSON.stringify(manifest, null, 2));
    await Deno.rename(`${work}/manifest.json`, new URL("manifest.json", BUILD_DIR));
    return manifest;
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

// The client configuration: the project's imports, JSX compiled for hydration in a browser.
async function clientConfig(): Promise<Record<string, unknown>> {
  const project = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  return {
    imports: project.imports,
    compilerOptions: {
      strict: true,
      jsx: "react-jsx",
      jsxImportSource: "preact",
      lib: ["dom", "dom.iterable", "esnext"],
    },
  };
}

async function removeStale(keep: string[]): Promise<void> {
  for await (const entry of Deno.readDir(BUILD_DIR)) {
    if (entry.isFile && entry.name.endsWith(".js") && !keep.includes(entry.name)) {
      await Deno.remove(new URL(entry.name, BUILD_DIR));
    }
  }
}
