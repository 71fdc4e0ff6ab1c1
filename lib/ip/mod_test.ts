import { assertEquals } from "../../tests/_helpers/assert.ts";
import { addressGroup, bareHostName, canonicalAddress, plainAddress } from "./mod.ts";

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

Deno.test("plainAddress answers the same from its kept answers, past a full cache too", () => {
  const spellings = ["::ffff:81.2.69.160", "81.2.69.160", "1.2.3.4.5", "[2A00:1450::1]"];
  const first = spellings.map(plainAddress);
  assertEquals(first, ["81.2.69.160", "81.2.69.160", null, "2a00:1450::1"]);
  assertEquals(spellings.map(plainAddress), first);
  for (let i = 0; i < 10_050; i++) plainAddress(`10.0.${i >> 8 & 255}.${i & 255}`);
  assertEquals(spellings.map(plainAddress), first);
  assertEquals(plainAddress(`1.${"2".repeat(100)}`), null, "a long spelling is read, not kept");
});
