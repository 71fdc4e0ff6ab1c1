/**
 * `deno run -A bench/profile.ts [links] [pool|new|one]`: the service's CPU profile under browser
 * traffic (`bench/_traffic.ts`), taken through the inspector for 8 s after a 4 s warm-up, its
 * self time summed by function. The service runs pinned to core 0, wrk to core 1; the profile is
 * also written to `/tmp/lapse.cpuprofile` for a browser's tools.
 * @module
 */
import { pause } from "../lib/pause.ts";
import { freePort, startProcess } from "../testing/server.ts";
import { freshStore, seedLinksFast, spreadPaths } from "./_lib.ts";
import { type Clients, trafficScript } from "./_traffic.ts";
import { canPin, pinned, runWrk } from "./_wrk.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

/** A session with the inspector of the process listening at `inspector`. */
async function inspect(inspector: string) {
  const targets = await (await fetch(`http://${inspector}/json/list`)).json();
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve) => socket.onopen = resolve);
  const waiting = new Map<number, (result: unknown) => void>();
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    waiting.get(message.id)?.(message.result);
    waiting.delete(message.id);
  };
  let id = 0;
  return {
    send<T>(method: string, params?: unknown): Promise<T> {
      return new Promise((resolve) => {
        waiting.set(++id, resolve as (result: unknown) => void);
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    close: () => socket.close(),
  };
}

/** Self time by function, most first, as shares of the samples. */
function selfTimes(profile: Profile): [string, number][] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map<string, number>();
  for (const sample of profile.samples) {
    const frame = nodes.get(sample)!.callFrame;
    const where = frame.url.replace(/^.*\/(node_modules|npm|main)\//, "");
    const name = `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([name, n]) => [
    name,
    n / profile.samples.length,
  ]);
}

if (import.meta.main) {
  const links = Number(Deno.args[0] ?? 10_000);
  const clients = (Deno.args[1] ?? "pool") as Clients;
  const pin = await canPin();
  await using store = await freshStore();
  const slugs = await seedLinksFast(store, links);
  store.kv.close();
  const script = await trafficScript(spreadPaths(slugs, links), clients);
  const port = freePort();
  const inspector = `127.0.0.1:${freePort()}`;
  const command = [
    Deno.execPath(),
    "run",
    `--inspect=${inspector}`,
    "--v8-flags=--max-semi-space-size=4,--max-old-space-size=512,--heap-growing-percent=100",
    "-A",
    "main.ts",
  ];
  const env = { KV_PATH: store.path, TRUST_PROXY: "1", PORT: String(port) };
  await using _service = await startProcess(pinned(0, command, pin), { port, env });
  const origin = `http://127.0.0.1:${port}`;
  // The inspector's own line says "listening on" before the service does: wait for an answer.
  for (;;) {
    const answer = await fetch(`${origin}/api/version`).catch(() => null);
    if (answer !== null) {
      await answer.body?.cancel();
      break;
    }
    await pause(100);
  }
  const load = { script, connections: 50, pin, core: 1, ownHeaders: true };
  await runWrk(origin, { ...load, seconds: 4 });
  const session = await inspect(inspector);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 200 });
  await session.send("Profiler.start");
  const result = await runWrk(origin, { ...load, seconds: 8 });
  const { profile } = await session.send<{ profile: Profile }>("Profiler.stop");
  session.close();
  await Deno.writeTextFile("/tmp/lapse.cpuprofile", JSON.stringify(profile));
  console.log(
    `${links} links, clients ${clients}: ${Math.round(result.requestsPerSecond)} req/s ` +
      `under the inspector, ${profile.samples.length} samples\n`,
  );
  for (const [name, share] of selfTimes(profile).slice(0, 40)) {
    console.log(`${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
}
