import { assertEquals, assertRejects } from "./tests/_helpers/assert.ts";
import { ConfigError, loadConfig } from "./fresh.config.ts";

Deno.test("loadConfig gives the contract's defaults", () => {
  const config = loadConfig({});
  assertEquals(config.port, 8000);
  assertEquals(config.hostname, "0.0.0.0");
  assertEquals(config.baseUrl, "http://localhost:8000");
  assertEquals(config.serviceHost, "localhost");
  assertEquals(config.kvPath, "./data/links.kv");
  assertEquals(config.linkTtlMs, 604_800_000);
  assertEquals(config.trustProxy, false);
  assertEquals(config.cookieSecret, undefined);
  assertEquals(config.statsLagMs, 60_000);
  assertEquals(config.logRedirects, false);
});

Deno.test("loadConfig reads every variable", () => {
  const config = loadConfig({
    PORT: "9000",
    HOSTNAME: "127.0.0.1",
    BASE_URL: "https://www.Lapse.example/",
    KV_PATH: ":memory:",
    LINK_TTL_SECONDS: "60",
    TRUST_PROXY: "1",
    COOKIE_SECRET: "x".repeat(32),
    STATS_LAG_SECONDS: "1",
    LOG_REDIRECTS: "1",
  });
  assertEquals(config.port, 9000);
  assertEquals(config.baseUrl, "https://www.lapse.example");
  assertEquals(config.serviceHost, "lapse.example");
  assertEquals(config.kvPath, ":memory:");
  assertEquals(config.linkTtlMs, 60_000);
  assertEquals(config.trustProxy, true);
  assertEquals(config.cookieSecret, "x".repeat(32));
  assertEquals(config.statsLagMs, 1000);
  assertEquals(config.logRedirects, true);
});

Deno.test("loadConfig uses the platform store on Deno Deploy", () => {
  assertEquals(loadConfig({ DENO_DEPLOYMENT_ID: "abc" }).kvPath, undefined);
});

Deno.test("loadConfig reads an empty variable as unset", () => {
  assertEquals(loadConfig({ PORT: "", TRUST_PROXY: "" }).port, 8000);
});

Deno.test("loadConfig stops on a bad value and names it", async () => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ BASE_URL: "not a url" }, "BASE_URL"],
    [{ BASE_URL: "ftp://x.example" }, "BASE_URL"],
    [{ BASE_URL: "https://x.example/path" }, "BASE_URL"],
    [{ LINK_TTL_SECONDS: "0" }, "LINK_TTL_SECONDS"],
    [{ LINK_TTL_SECONDS: "1.5" }, "LINK_TTL_SECONDS"],
    [{ LINK_TTL_SECONDS: String(366 * 24 * 3600) }, "LINK_TTL_SECONDS"],
    [{ TRUST_PROXY: "yes" }, "TRUST_PROXY"],
    [{ COOKIE_SECRET: "short" }, "COOKIE_SECRET"],
    [{ STATS_LAG_SECONDS: "0" }, "STATS_LAG_SECONDS"],
    [{ STATS_LAG_SECONDS: "301" }, "STATS_LAG_SECONDS"],
    [{ LOG_REDIRECTS: "yes" }, "LOG_REDIRECTS"],
  ];
  for (const [env, name] of cases) {
    const error = await assertRejects(
      () => Promise.resolve().then(() => loadConfig(env)),
      ConfigError,
    );
    assertEquals(error.message.includes(name), true, `${JSON.stringify(env)}: ${error.message}`);
  }
});

Deno.test("a boolean takes 1, 0, true and false, and its error names all four", async () => {
  for (const name of ["TRUST_PROXY", "LOG_REDIRECTS"] as const) {
    const read = (value: string) => {
      const config = loadConfig({ [name]: value });
      return name === "TRUST_PROXY" ? config.trustProxy : config.logRedirects;
    };
    assertEquals(["1", "true", "0", "false"].map(read), [true, true, false, false]);
    const error = await assertRejects(
      () => Promise.resolve().then(() => loadConfig({ [name]: "yes" })),
      ConfigError,
    );
    assertEquals(error.problems, [`${name}: must be 1, 0, true or false`]);
  }
});
