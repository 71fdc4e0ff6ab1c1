import { assertEquals } from "../../tests/_helpers/assert.ts";
import { HostBlocklist, parseBlocklist } from "./mod.ts";

Deno.test("a blocklist file is one host a line, with # comments and blank lines", () => {
  const parsed = parseBlocklist(
    [
      "# phishing, reported 2026-12-01",
      "Evil.Example.",
      "",
      "  *.bad.example   # and every subdomain anyway",
      "203.0.113.9",
      "[2001:db8::1]",
      "not a host",
      "https://with.scheme/path",
    ].join("\r\n"),
  );
  assertEquals(parsed.names, ["evil.example", "bad.example", "203.0.113.9", "2001:db8::1"]);
  assertEquals(parsed.unreadable, ["not a host", "https://with.scheme/path"]);
});

Deno.test("a blocked name blocks itself and every subdomain, nothing else", () => {
  const list = new HostBlocklist(["evil.example", "203.0.113.9", "2001:db8::1"]);
  const blocked = [
    "evil.example",
    "EVIL.example.",
    "www.evil.example",
    "a.b.evil.example",
    "203.0.113.9",
    "[2001:db8::1]",
  ];
  const open = ["notevil.example", "evil.example.org", "example", "113.9", "1.203.0.113.9x"];
  assertEquals(blocked.filter((host) => !list.blocks(host)), []);
  assertEquals(open.filter((host) => list.blocks(host)), []);
  // A parent of an address is no parent: `0.113.9` blocks no address ending so.
  assertEquals(new HostBlocklist(["0.113.9"]).blocks("203.0.113.9"), false);
});

Deno.test("a stored destination's host is read without parsing the URL", () => {
  const list = new HostBlocklist(["evil.example", "2001:db8::1"]);
  const cases: [string, boolean][] = [
    ["https://evil.example", true],
    ["https://login.evil.example:8443/a?b#c", true],
    ["http://evil.example?x=1", true],
    ["http://evil.example#top", true],
    ["http://[2001:db8::1]:8080/x", true],
    ["https://good.example/evil.example", false],
    ["https://good.example/?u=https://evil.example", false],
  ];
  assertEquals(cases.map(([url]) => [url, list.blocksUrl(url)]), cases);
  assertEquals(new HostBlocklist().blocksUrl("https://evil.example"), false);
});

Deno.test("a list replaced whole blocks only what the new one names", () => {
  const list = new HostBlocklist(["a.example"]);
  list.replace(["b.example"]);
  assertEquals([list.blocks("a.example"), list.blocks("b.example"), list.size], [false, true, 1]);
});
