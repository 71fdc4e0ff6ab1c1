/**
 * `deno task bench [section...]`: the service's benchmarks, figures printed, nothing asserted.
 * Sections: redirect, classify, clicks, flush, creates, stats, listing, sweep, startup, passwords,
 * flood; and, only when named, lighthouse (the pages' Lighthouse scores, which needs npm and
 * Chromium).
 * @module
 */
import { benchClassify } from "./classify.ts";
import { benchClickWait } from "./click_wait.ts";
import { benchCreates } from "./creates.ts";
import { benchFlush } from "./flush.ts";
import { benchHashingFlood } from "./hashing_flood.ts";
import { benchLighthouse } from "./lighthouse.ts";
import { benchListing } from "./listing.ts";
import { benchPasswords } from "./passwords.ts";
import { benchRedirect } from "./redirect.ts";
import { benchStartup } from "./startup.ts";
import { benchStats } from "./stats.ts";
import { benchSweep } from "./sweep.ts";

const SECTIONS: Record<string, () => Promise<unknown>> = {
  redirect: () => benchRedirect(),
  classify: () => benchClassify(),
  clicks: () => benchClickWait(),
  flush: () => benchFlush(),
  creates: () => benchCreates(),
  stats: () => benchStats(),
  listing: () => benchListing(),
  sweep: () => benchSweep(),
  startup: () => benchStartup(),
  passwords: () => benchPasswords(),
  flood: () => benchHashingFlood(),
  lighthouse: () => benchLighthouse(),
};

// Run only when named: it needs the npm registry and Chromium, and takes a minute.
const NAMED_ONLY = new Set(["lighthouse"]);

const chosen = Deno.args.length > 0
  ? Deno.args
  : Object.keys(SECTIONS).filter((name) => !NAMED_ONLY.has(name));
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
