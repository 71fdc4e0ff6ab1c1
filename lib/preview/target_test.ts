import { assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import { PreviewRefusedError } from "../errors.ts";
import { checkTarget, resolveWithDns } from "./target.ts";

const signal = new AbortController().signal;

function checking(answers: Record<string, string[]>) {
  const lookups: string[] = [];
  return {
    lookups,
    options: {
      serviceHost: "sho.rt",
      signal,
      resolve: (hostname: string) => {
        lookups.push(hostname);
        return Promise.resolve(answers[hostname] ?? []);
      },
    },
  };
}

Deno.test("checkTarget gives the checked addresses, IPv4 first, with port and TLS", async () => {
  const { options } = checking({ "example.com": ["2606:2800:220:1::1", "93.184.216.34"] });
  assertEquals(await checkTarget(new URL("https://Example.com./a"), options), {
    hostname: "example.com",
    port: 443,
    tls: true,
    addresses: ["93.184.216.34", "2606:2800:220:1::1"],
  });
});

Deno.test("checkTarget refuses by name before any lookup, then by port, then by address", async () => {
  const { options, lookups } = checking({ "example.com": ["10.0.0.1"] });
  const reason = async (url: string) =>
    (await assertRejects(() => checkTarget(new URL(url), options), PreviewRefusedError)).reason;
  assertEquals(await reason("http://localhost:8080/"), "host");
  assertEquals(await reason("http://127.0.0.1:8080/"), "private");
  assertEquals(await reason("http://example.com:8080/"), "port");
  assertEquals(lookups, []);
  assertEquals(await reason("http://example.com/"), "private");
  assertEquals(lookups, ["example.com"]);
});

Deno.test("checkTarget allows ports 80 and 443 under either scheme", async () => {
  const { options } = checking({ "example.com": ["93.184.216.34"] });
  assertEquals((await checkTarget(new URL("http://example.com:443/"), options))?.port, 443);
  assertEquals((await checkTarget(new URL("https://example.com:80/"), options))?.port, 80);
});

Deno.test("checkTarget answers null for a name without addresses", async () => {
  const { options } = checking({});
  assertEquals(await checkTarget(new URL("http://nowhere.example/"), options), null);
});

Deno.test("resolveWithDns asks for A and AAAA apart and counts a missing type as none", async () => {
  const asked: string[] = [];
  const original = Deno.resolveDns;
  const fake = (name: string, type: string) => {
    asked.push(`${name} ${type}`);
    if (type === "A") return Promise.resolve(["93.184.216.34"]);
    return Promise.reject(new Deno.errors.NotFound("no AAAA record"));
  };
  Object.defineProperty(Deno, "resolveDns", { value: fake, configurable: true, writable: true });
  try {
    assertEquals(await resolveWithDns("example.com", { signal }), ["93.184.216.34"]);
    assertEquals(asked.sort(), ["example.com A", "example.com AAAA"]);
  } finally {
    Object.defineProperty(Deno, "resolveDns", {
      value: original,
      configurable: true,
      writable: true,
    });
  }
});
