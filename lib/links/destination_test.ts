import { assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import { InvalidInputError } from "../errors.ts";
import { normalizeDestination } from "./destination.ts";

const host = "sho.rt";

Deno.test("a destination without a scheme gets https://", () => {
  assertEquals(normalizeDestination("example.com", host), "https://example.com");
  assertEquals(normalizeDestination("  example.com/a?b=c  ", host), "https://example.com/a?b=c");
  assertEquals(normalizeDestination("example.com:8080/x", host), "https://example.com:8080/x");
});

Deno.test("a destination keeps its scheme, path and trailing slash", () => {
  assertEquals(normalizeDestination("http://example.com", host), "http://example.com");
  assertEquals(normalizeDestination("https://example.com/", host), "https://example.com/");
  assertEquals(normalizeDestination("HTTPS://Example.COM/Path", host), "https://example.com/Path");
  assertEquals(normalizeDestination("https://example.com?q=1", host), "https://example.com/?q=1");
  assertEquals(normalizeDestination("http://93.184.216.34/x", host), "http://93.184.216.34/x");
  assertEquals(normalizeDestination("http://[2001:db8::1]/", host), "http://[2001:db8::1]/");
  assertEquals(normalizeDestination("a-b.9c.example.com.", host), "https://a-b.9c.example.com.");
  assertEquals(normalizeDestination("tel.example:8080", host), "https://tel.example:8080");
  assertEquals(
    normalizeDestination("localhost.example:3000", host),
    "https://localhost.example:3000",
  );
  assertEquals(normalizeDestination("example.com:443?q", host), "https://example.com/?q");
  const longest = `${"a".repeat(63)}.example.com`;
  assertEquals(normalizeDestination(longest, host), `https://${longest}`);
});

Deno.test("a destination is stored encoded", () => {
  assertEquals(
    normalizeDestination("https://bücher.example/straße?q=ü", host),
    "https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%BC",
  );
});

Deno.test("a service served on an IP address is reached under no other spelling of it", async () => {
  const loops = [
    "http://127.0.0.1:8000/x",
    "http://2130706433/x",
    "http://0x7f.1/x",
    "http://[::ffff:127.0.0.1]/x",
    "http://[::ffff:7f00:1]:8000/x",
  ];
  for (const input of loops) {
    await assertRejects(
      () => Promise.resolve().then(() => normalizeDestination(input, "127.0.0.1")),
      InvalidInputError,
      "back to this service",
    );
  }
  assertEquals(
    normalizeDestination("http://[::ffff:127.0.0.2]/x", "127.0.0.1"),
    "http://[::ffff:7f00:2]/x",
  );
  await assertRejects(
    () => Promise.resolve().then(() => normalizeDestination("http://[0:0:0:0:0:0:0:1]/", "[::1]")),
    InvalidInputError,
    "back to this service",
  );
});

Deno.test("bad destinations are refused with a sentence", async () => {
  const cases: [string, string][] = [
    ["", "must not be empty"],
    ["   ", "must not be empty"],
    ["javascript:alert(1)", "http or https"],
    ["mailto:someone@example.com", "http or https"],
    ["TEL:+15551234567", "http or https"],
    ["tel:123", "http or https"],
    ["javascript:1", "http or https"],
    ["sms:", "http or https"],
    ["localhost:8080/x", "host name with a domain"],
    ["ssh:git@example.com", "http or https"],
    ["user:secret@example.com/", "user name or password"],
    ["http:example.com/x", "not a valid address"],
    ["HTTPS:/example.com/x", "not a valid address"],
    ["bitcoin:1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "http or https"],
    ["https://-bad-.example.com/", "valid host name"],
    ["https://exa_mple.com/", "valid host name"],
    ["https://exa$mple.com/", "valid host name"],
    [`https://${"a".repeat(64)}.example.com/`, "valid host name"],
    [`https://${"abcdefghi.".repeat(26)}com/`, "valid host name"],
    ["ftp://example.com/file", "http or https"],
    ["file:///etc/passwd", "http or https"],
    ["data://text/html,hi", "http or https"],
    ["https://", "not a valid address"],
    ["https://localhost/", "host name with a domain"],
    ["intranet", "host name with a domain"],
    ["https://exa mple.com", "spaces or control"],
    ["https://example.com/\nLocation: x", "spaces or control"],
    ["https://user:pw@example.com/", "user name or password"],
    ["https://sho.rt/abc", "back to this service"],
    ["https://www.sho.rt/abc", "back to this service"],
    ["sho.rt.", "back to this service"],
    [`https://example.com/${"a".repeat(4100)}`, "at most 4096 characters"],
    [`https://example.com/${"é".repeat(2000)}`, "at most 4096 characters once encoded"],
  ];
  for (const [input, message] of cases) {
    await assertRejects(
      () => Promise.resolve().then(() => normalizeDestination(input, host)),
      InvalidInputError,
      message,
    );
  }
});

Deno.test("a legacy destination may keep a host name URL takes but a new link may not", async () => {
  const loose = { strictHost: false };
  assertEquals(
    normalizeDestination("https://foo.bar_baz.example/x", host, loose),
    "https://foo.bar_baz.example/x",
  );
  await assertRejects(
    () => Promise.resolve().then(() => normalizeDestination("https://foo.bar_baz.example/", host)),
    InvalidInputError,
    "valid host name",
  );
});

Deno.test("a destination reaching this service by its host, listening address or loopback on its port is refused", async () => {
  const listening = { hostname: "0.0.0.0", port: 8301 };
  const loops = [
    "http://localhost:8301/hello",
    "localhost:8301/hello",
    "http://127.0.0.1:8301/hello",
    "http://127.1.2.3:8301/",
    "http://[::1]:8301/x",
    "http://[::ffff:127.0.0.1]:8301/x",
    "http://app.localhost:8301/",
    "http://0.0.0.0:8301/",
    "http://localhost/anything", // the service host, whatever the port
  ];
  for (const input of loops) {
    const error = await assertRejects(
      () => Promise.resolve().then(() => normalizeDestination(input, "localhost", { listening })),
      InvalidInputError,
    );
    assertEquals(error.message, "url must not point back to this service", input);
  }
  const onItsAddress = { hostname: "203.0.113.7", port: 8301 };
  await assertRejects(
    () =>
      Promise.resolve().then(() =>
        normalizeDestination("http://203.0.113.7:8301/x", "sho.rt", { listening: onItsAddress })
      ),
    InvalidInputError,
    "point back",
  );
  // Another port of the same machine is another service.
  assertEquals(
    normalizeDestination("http://203.0.113.7:8302/x", "sho.rt", { listening: onItsAddress }),
    "http://203.0.113.7:8302/x",
  );
  assertEquals(
    normalizeDestination("http://127.0.0.1:9999/x", "sho.rt", { listening }),
    "http://127.0.0.1:9999/x",
  );
});

Deno.test("a destination on a blocked host is refused with the blocklist's sentence", async () => {
  const blocked = (hostname: string) => hostname.endsWith("evil.example");
  await assertRejects(
    () =>
      Promise.resolve().then(() =>
        normalizeDestination("https://a.evil.example/x", "sho.rt", { blocked })
      ),
    InvalidInputError,
    "destination host is blocked by this service",
  );
  assertEquals(
    normalizeDestination("https://good.example/x", "sho.rt", { blocked }),
    "https://good.example/x",
  );
});
