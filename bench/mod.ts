/**
 * `deno task bench [section...]`: the service's benchmarks, figures printed, nothing asserted.
 * Sections: redirect, stats, passwords.
 * @module
 */
import { benchPasswords } from "./passwords.ts";
import { benchRedirect } from "./redirect.ts";
import { benchStats } from "./stats.ts";

const SECTIONS: Record<string, () => Promise<unknown>> = {
  redirect: () => benchRedirect(),
  passwords: () => benchPasswords(),
  stats: () => benchStats(),
};

const chosen = Deno.args.length > 0 ? Deno.args : Object.keys(SECTIONS);
console.log(
  `# lapse benchmarks — ${new Date().toISOString()}, ${navigator.hardwareConcurrency} cores, ` +
    `${Math.round(Deno.systemMemoryInfo().total / 2 ** 30)} GiB, Deno ${Deno.version.deno}`,
);
for (const name of chosen) {
  const section = SECTIONS[name];
  if (!section) {
    console.error(`unknown section ${name}; sections: ${Object.keys(SECTIONS).join(", ")}`);
    Deno.exit(2);
  }
  await section();
}
