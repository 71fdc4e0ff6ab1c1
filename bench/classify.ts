/**
 * What classifying a visit costs on the request, from a repeated client address and from one
 * never seen: reading the address from `X-Forwarded-For`, the proxy's country headers, and the
 * classifier's device, referrer and country. Browser User-Agents and referrers as in
 * `_traffic.ts`; new addresses as the redirect bench's new clients. With `--compare=DIR`,
 * another checkout's classifier runs beside this one, passes alternating.
 * @module
 */
import { parseArgs } from "node:util";
import { fixed, printTable } from "./_lib.ts";
import { median } from "./_wrk.ts";
import { BROWSER_USER_AGENTS, FIXED_CLIENT, newClients, REFERRERS } from "./_traffic.ts";

/** Options of {@linkcode benchClassify}. */
export interface ClassifyBenchOptions {
  /** Another checkout to measure beside this one, as "before". */
  compareDir?: string;
  /** Measured passes of each kind; default 7. */
  passes?: number;
}

// Visits a pass; new addresses drawn, more than any cache of addresses the classifier held
// (50,000), so that every address of a pass is one it has not kept.
const VISITS = 100_000;
const NEW_ADDRESSES = 60_000;

interface HeaderReader {
  get(name: string): string | null;
}

/** The modules of one checkout the request path uses to classify a visit. */
interface Checkout {
  name: string;
  classify: {
    VisitClassifier: new (lookup: ((address: string) => string | null) | null) => {
      classify(facts: { userAgent: string; referer: string; client: string; country: string }): {
        country: string;
      };
    };
    proxyCountry(header: (name: string) => string | null): string;
  };
  geoip: { loadGeoipLookup(): Promise<(address: string) => string | null> };
  client: {
    clientOf(headers: HeaderReader, connection: undefined, trustProxy: boolean): string;
  };
}

async function loadCheckout(name: string, dir: string): Promise<Checkout> {
  const root = new URL(`${dir.replace(/\/?$/, "/")}`, `file://${Deno.cwd()}/`);
  return {
    name,
    classify: await import(new URL("lib/clicks/classify.ts", root).href),
    geoip: await import(new URL("lib/clicks/geoip.ts", root).href),
    client: await import(new URL("routes/_lib/client.ts", root).href),
  };
}

/** A function that classifies one visit as the redirect does, and its country. */
async function visitor(checkout: Checkout): Promise<(address: string, i: number) => string> {
  const classifier = new checkout.classify.VisitClassifier(await checkout.geoip.loadGeoipLookup());
  let userAgent = "";
  let referer = "";
  let forwarded = "";
  const headers: HeaderReader = {
    get(name) {
      if (name === "user-agent") return userAgent;
      if (name === "referer") return referer;
      if (name === "x-forwarded-for") return forwarded;
      return null;
    },
  };
  const header = (name: string) => headers.get(name);
  return (address, i) => {
    userAgent = BROWSER_USER_AGENTS[i % BROWSER_USER_AGENTS.length]!;
    referer = REFERRERS[i % REFERRERS.length]!;
    // A string of its own, as the runtime makes one for each request's header.
    forwarded = (" " + address).slice(1);
    return classifier.classify({
      userAgent,
      referer,
      client: checkout.client.clientOf(headers, undefined, true),
      country: checkout.classify.proxyCountry(header),
    }).country;
  };
}

/** Runs the passes and prints ns a visit, repeated and new, and their ratio. */
export async function benchClassify(options: ClassifyBenchOptions = {}): Promise<void> {
  const passes = options.passes ?? 7;
  const checkouts = [
    ...(options.compareDir ? [await loadCheckout("before", options.compareDir)] : []),
    await loadCheckout(options.compareDir ? "after" : "lapse", "."),
  ];
  const fresh = newClients(NEW_ADDRESSES);
  let next = 0;
  let sink = 0;
  const subjects = await Promise.all(checkouts.map(async (checkout) => ({
    checkout,
    visit: await visitor(checkout),
    repeated: [] as number[],
    newer: [] as number[],
  })));
  const pass = (visit: (address: string, i: number) => string, repeated: boolean) => {
    const start = performance.now();
    for (let i = 0; i < VISITS; i++) {
      const address = repeated ? FIXED_CLIENT : fresh[next++ % NEW_ADDRESSES]!;
      sink += visit(address, i).length;
    }
    return (performance.now() - start) * 1e6 / VISITS;
  };
  console.log(
    `\n## Classifying a visit: ${VISITS.toLocaleString("en")} visits a pass, ${passes} passes ` +
      "each, alternating; ns a visit, the median\n",
  );
  for (let round = -2; round < passes; round++) {
    for (const subject of subjects) {
      const repeated = pass(subject.visit, true);
      const newer = pass(subject.visit, false);
      if (round < 0) continue; // warm-up
      subject.repeated.push(repeated);
      subject.newer.push(newer);
    }
  }
  const rows = subjects.map(({ checkout, repeated, newer }) => {
    const same = median(repeated);
    const other = median(newer);
    return [
      checkout.name,
      fixed(same, 0),
      fixed(other, 0),
      fixed((other - same) / 1000, 2),
      fixed(other / same),
    ];
  });
  printTable(
    ["classifier", "repeated address ns", "new address ns", "new - repeated µs", "new / repeated"],
    rows,
  );
  if (subjects.length === 2) {
    const [before, after] = subjects;
    console.log(
      `\nnew address, after / before: ${
        fixed(median(after!.newer) / median(before!.newer))
      }; repeated, after / before: ${fixed(median(after!.repeated) / median(before!.repeated))}`,
    );
  }
  if (sink === 0) console.log("(no country answered)");
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { compare: { type: "string" }, passes: { type: "string" } },
  });
  await benchClassify({
    compareDir: values.compare,
    passes: values.passes ? Number(values.passes) : undefined,
  });
}
