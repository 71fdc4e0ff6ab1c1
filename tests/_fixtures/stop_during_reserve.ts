/**
 * Run under a low file limit (`prlimit --nofile=256`): holds connections to its own service
 * until accepting fails, stops the service while it pauses before serving again, then tells
 * whether anything serves on the port after the stop. Prints one line of JSON.
 * Usage: `deno run -A tests/_fixtures/stop_during_reserve.ts PORT KV_PATH`.
 * @module
 */
import { loadConfig } from "../../fresh.config.ts";
import { beforeDeadline } from "../../lib/kv/deadline.ts";
import { pause } from "../../lib/pause.ts";
import type { LogLine } from "../../lib/log/mod.ts";
import { startServer } from "../../server.ts";

const [port, kvPath] = Deno.args as [string, string];
const held: Deno.TcpConn[] = [];
let acceptFailed = false;
// Settles once the service has stopped, in its pause before serving again.
const stopped = Promise.withResolvers<void>();
const server = await startServer(
  loadConfig({
    PORT: port,
    HOSTNAME: "127.0.0.1",
    BASE_URL: `http://127.0.0.1:${port}`,
    KV_PATH: kvPath,
  }),
  {
    cron: false,
    quiet: true,
    log: (line: LogLine) => {
      if (!line.msg.startsWith("the server stopped accepting connections") || acceptFailed) return;
      acceptFailed = true;
      // Free the descriptors, so that serving again would work, and stop within the pause.
      for (const conn of held.splice(0)) conn.close();
      pause(30).then(() => server.stop()).then(stopped.resolve, stopped.reject);
    },
  },
);
for (let i = 0; i < 400 && !acceptFailed; i++) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) }).catch(() => null);
  if (conn === null) await new Promise((resolve) => setTimeout(resolve, 10));
  else held.push(conn);
}
await beforeDeadline(stopped.promise, 2_000);
await new Promise((resolve) => setTimeout(resolve, 500)); // past the pause, several times
const after = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) }).catch(() => null);
after?.close();
for (const conn of held) conn.close();
console.log(JSON.stringify({ acceptFailed, servedAfterStop: after !== null }));
Deno.exit(0);
