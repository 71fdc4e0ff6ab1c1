import fc from "fast-check";
import ipaddr from "ipaddr.js";
import { assertEquals } from "../../tests/_helpers/assert.ts";
import {
  addressGroup,
  bareHostName,
  canonicalAddress,
  plainAddress,
  readPlainAddress,
} from "./mod.ts";

Deno.test("bareHostName drops brackets, trailing dots and case", () => {
  assertEquals(bareHostName("[::1]"), "::1");
  assertEquals(bareHostName("Example.COM.."), "example.com");
});

Deno.test("an address has one spelling, and anything else is none", () => {
  const cases: [string, string | null][] = [
    ["203.0.113.5", "203.0.113.5"],
    ["2130706433", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["2001:DB8:0::1", "2001:db8::1"],
    ["[2001:db8::1]", "2001:db8::1"],
    ["::ffff:203.0.113.5", "::ffff:cb00:7105"],
    ["fe80::1%eth0", null],
    [`fe80::1%${"a".repeat(3000)}`, null],
    ["1".repeat(3000), null],
    ["203.0.113.5:443", null],
    ["unknown", null],
    ["", null],
    ["evil@203.0.113.5", null],
    ["203.0.113.5/x", null],
    ["1.2.3.4?x", null],
    ["%31.2.3.4", null],
    ["\uff11.\uff12.\uff13.\uff14", null],
  ];
  for (const [input, expected] of cases) {
    assertEquals(canonicalAddress(input), expected, input.slice(0, 40));
  }
});

Deno.test("an IPv4-mapped IPv6 address is the IPv4 address it names", () => {
  assertEquals(plainAddress("::ffff:203.0.113.5"), "203.0.113.5");
  assertEquals(plainAddress("[::ffff:cb00:7105]"), "203.0.113.5");
  assertEquals(plainAddress("2001:db8::1"), "2001:db8::1");
  assertEquals(plainAddress("::203.0.113.5"), "::cb00:7105"); // IPv4-compatible, not mapped
  assertEquals(plainAddress("not an address"), null);
});

Deno.test("guesses are grouped by an IPv4 address, or by the /64 of an IPv6 one", () => {
  assertEquals(addressGroup("203.0.113.5"), "203.0.113.5");
  assertEquals(addressGroup("::ffff:203.0.113.5"), "203.0.113.5");
  assertEquals(addressGroup("2001:db8:1:2::1"), "2001:db8:1:2::/64");
  assertEquals(addressGroup("2001:db8:1:2:ffff::c7"), "2001:db8:1:2::/64");
  assertEquals(addressGroup("2001:db8:1:3::1"), "2001:db8:1:3::/64");
  assertEquals(addressGroup("unknown"), "unknown");
});

Deno.test("readPlainAddress reads plain IPv4 and IPv6 literals into their pieces", () => {
  const pieces = new Uint16Array(8);
  const read = (text: string) => {
    pieces.fill(7);
    const kind = readPlainAddress(text, pieces);
    return [kind, [...pieces].map((piece) => piece.toString(16)).join(":")];
  };
  assertEquals(read("203.0.113.5"), [4, "0:0:0:0:0:ffff:cb00:7105"]);
  assertEquals(read("0.0.0.0"), [4, "0:0:0:0:0:ffff:0:0"]);
  assertEquals(read("255.255.255.255"), [4, "0:0:0:0:0:ffff:ffff:ffff"]);
  assertEquals(read("[203.0.113.5]"), [4, "0:0:0:0:0:ffff:cb00:7105"]);
  assertEquals(read("2001:DB8::1"), [6, "2001:db8:0:0:0:0:0:1"]);
  assertEquals(read("[2001:db8:0:0:1:0:0:1]"), [6, "2001:db8:0:0:1:0:0:1"]);
  assertEquals(read("::"), [6, "0:0:0:0:0:0:0:0"]);
  assertEquals(read("::1"), [6, "0:0:0:0:0:0:0:1"]);
  assertEquals(read("1::"), [6, "1:0:0:0:0:0:0:0"]);
  assertEquals(read("1:2:3:4:5:6:7::"), [6, "1:2:3:4:5:6:7:0"]);
  assertEquals(read("::2:3:4:5:6:7:8"), [6, "0:2:3:4:5:6:7:8"]);
  assertEquals(read("::ffff:203.0.113.5"), [4, "0:0:0:0:0:ffff:cb00:7105"]);
  assertEquals(read("::FFFF:cb00:7105"), [4, "0:0:0:0:0:ffff:cb00:7105"]);
  assertEquals(read("::203.0.113.5"), [6, "0:0:0:0:0:0:cb00:7105"]);
  assertEquals(read("64:ff9b::203.0.113.5"), [6, "64:ff9b:0:0:0:0:cb00:7105"]);
  // Not plain: other spellings (left to the URL parser), zones, ports, half brackets, garbage.
  for (
    const text of [
      "",
      "unknown",
      "2130706433",
      "0x7f.1",
      "01.2.3.4",
      "1.2.3",
      "1.2.3.4.5",
      "1.2.3.4.",
      "256.1.1.1",
      "1.2.3.4:443",
      "[2001:db8::1]:443",
      "[2001:db8::1",
      "2001:db8::1]",
      "fe80::1%eth0",
      "1:2:3:4:5:6:7:8:9",
      "1::2:3:4:5:6:7:8",
      "1:2:3:4:5:6::1.2.3.4",
      "1::2::3",
      ":::",
      ":1",
      "1:",
      "12345::",
      "::1.2.3",
      "::01.2.3.4",
      "g::1",
      " 1.2.3.4",
      "1".repeat(3000),
    ]
  ) {
    assertEquals(readPlainAddress(text, pieces), 0, text.slice(0, 40));
  }
});

// What plainAddress answered before plain literals were read directly: the URL parser's
// spelling, an IPv4-mapped address as its IPv4 address.
function throughUrlParser(address: string): string | null {
  const canonical = canonicalAddress(address);
  if (canonical === null || !canonical.includes(":")) return canonical;
  const parsed = ipaddr.IPv6.parse(canonical);
  return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : canonical;
}

// Addresses in every spelling fast-check writes, then changed a little: brackets, case, a
// character dropped, doubled or put in.
const spellings = fc.oneof(
  fc.ipV4(),
  fc.ipV4Extended(),
  fc.ipV6(),
  fc.ipV6().map((address) => address.toUpperCase()),
  fc.oneof(fc.ipV4(), fc.ipV6()).map((address) => `[${address}]`),
  fc.tuple(fc.ipV6(), fc.ipV4()).map(([v6, v4]) => `${v6.replace(/:[^:]*$/, "")}:${v4}`),
  fc.ipV4().map((v4) => `::ffff:${v4}`),
  fc.tuple(fc.oneof(fc.ipV4(), fc.ipV6()), fc.nat(), fc.constantFrom("", ".", ":", "::", "0", "%"))
    .map(
      ([address, at, extra]) => {
        const i = at % (address.length + 1);
        return address.slice(0, i) + extra + address.slice(extra === "" ? i + 1 : i);
      },
    ),
  fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEFxX.:[]%"), maxLength: 45 }),
  fc.string({ maxLength: 50 }),
);

Deno.test("plainAddress answers as the URL parser does, for every spelling", () => {
  fc.assert(
    fc.property(spellings, (address) => {
      assertEquals(plainAddress(address), throughUrlParser(address), address);
    }),
    { numRuns: 20_000, seed: 35 },
  );
});

Deno.test("addressGroup answers as it did through ipaddr.js", () => {
  fc.assert(
    fc.property(spellings, (address) => {
      const plain = throughUrlParser(address);
      const expected = plain === null
        ? address
        : !plain.includes(":")
        ? plain
        : `${ipaddr.IPv6.parse(plain).parts.slice(0, 4).map((p) => p.toString(16)).join(":")}::/64`;
      assertEquals(addressGroup(address), expected, address);
    }),
    { numRuns: 5_000, seed: 35 },
  );
});
