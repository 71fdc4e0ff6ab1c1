/**
 * A small disk of its own (a tmpfs) that a test can fill up and free again, for real store
 * faults: SQLite then fails its writes with "database or disk is full". Mounting needs root's
 * `CAP_SYS_ADMIN`; where it is not allowed, {@linkcode mountSmallDisk} says so with `null`.
 * @module
 */

/** A mounted small disk. */
export interface SmallDisk extends AsyncDisposable {
  /** Where it is mounted. */
  path: string;
  /** Fills every free byte with a filler file; returns the bytes written. */
  fill(): Promise<number>;
  /** Removes the filler file. */
  free(): Promise<void>;
}

async function run(command: string, args: string[]): Promise<boolean> {
  try {
    const output = await new Deno.Command(command, { args, stdout: "null", stderr: "null" })
      .output();
    return output.success;
  } catch {
    return false; // no such command
  }
}

/** Mounts a tmpfs of `mebibytes` on a fresh temporary folder, or returns `null` if not allowed. */
export async function mountSmallDisk(mebibytes: number): Promise<SmallDisk | null> {
  if (Deno.build.os !== "linux") return null;
  const path = await Deno.makeTempDir({ prefix: "lapse-disk-" });
  const mounted = await run("mount", ["-t", "tmpfs", "-o", `size=${mebibytes}m`, "lapse", path]);
  if (!mounted) {
    await Deno.remove(path, { recursive: true });
    return null;
  }
  const filler = `${path}/filler`;
  return {
    path,
    async fill() {
      const chunk = new Uint8Array(64 * 1024);
      let written = 0;
      using file = await Deno.open(filler, { write: true, create: true, append: true });
      try {
        for (;;) written += await file.write(chunk);
      } catch (error) {
        if (!(error instanceof Error && /no space|os error 28/i.test(error.message))) throw error;
      }
      return written;
    },
    async free() {
      await Deno.remove(filler).catch(() => {});
    },
    async [Symbol.asyncDispose]() {
      if (!(await run("umount", [path]))) await run("umount", ["-l", path]);
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}
