import { assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import {
  CountryTable,
  IPV4_RECORD,
  IPV6_RECORD,
  loadCountryTable,
  loadGeoipLookup,
  packageLookup,
} from "./geoip.ts";

const dataFile = (name: string) => new URL(`../data/${name}`, import.meta.resolve("geoip-country"));

Deno.test("the country table answers as the package's lookup, at the edges of ranges throughout", async () => {
  const table = await loadCountryTable();
  const before = await packageLookup();
  const ipv4 = await Deno.readFile(dataFile("geoip-country.dat"));
  const ipv6 = await Deno.readFile(dataFile("geoip-country6.dat"));
  assertEquals(table.size, {
    ipv4: ipv4.length / IPV4_RECORD,
    ipv6: ipv6.length / IPV6_RECORD,
  });
  const v4 = new DataView(ipv4.buffer);
  const dotted = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
  let compared = 0;
  for (let at = 0; at < ipv4.length; at += IPV4_RECORD * 7) {
    const first = v4.getUint32(at);
    const last = v4.getUint32(at + 4);
    for (const n of [first - 1, first, (first + last) >>> 1, last, last + 1]) {
      if (n < 0 || n > 0xffffffff) continue;
      assertEquals(table.lookup(dotted(n)), before(dotted(n)), dotted(n));
      compared++;
    }
  }
  const v6 = new DataView(ipv6.buffer);
  const hex = (high: number, low: number) =>
    [high >>> 16, high & 0xffff, low >>> 16, low & 0xffff].map((p) => p.toString(16)).join(":");
  for (let at = 0; at < ipv6.length; at += IPV6_RECORD * 5) {
    const first = hex(v6.getUint32(at), v6.getUint32(at + 4));
    const last = hex(v6.getUint32(at + 8), v6.getUint32(at + 12));
    for (const address of [`${first}::`, `${first}::1`, `${last}:ffff:ffff:ffff:ffff`]) {
      assertEquals(table.lookup(address), before(address), address);
      compared++;
    }
  }
  assertEquals(compared > 200_000, true);
});

Deno.test("the country table reads plain literals only, an IPv4-mapped one as its IPv4", async () => {
  const table = await loadCountryTable();
  assertEquals(table.lookup("81.2.69.160"), "GB");
  assertEquals(table.lookup("::ffff:81.2.69.160"), "GB");
  assertEquals(table.lookup("::ffff:5102:45a0"), "GB");
  assertEquals(table.lookup("[2a00:1450:4001:81b::200e]"), "DE");
  assertEquals(table.lookup("2A00:1450:4001:81B::200E"), "DE");
  for (const address of ["127.0.0.1", "10.1.2.3", "::1", "fe80::1", "unknown", "", "1.2.3.4.5"]) {
    assertEquals(table.lookup(address), null, address);
  }
});

Deno.test("a database of another layout is refused, never misread", async () => {
  const range = (first: number, last: number, code: string) => {
    const bytes = new Uint8Array(IPV4_RECORD);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, first);
    view.setUint32(4, last);
    bytes.set(new TextEncoder().encode(code), 8);
    return bytes;
  };
  const ipv6 = new Uint8Array(IPV6_RECORD);
  ipv6.set(new TextEncoder().encode("DE"), 16);
  const good = await CountryTable.read(range(10, 20, "GB"), ipv6);
  assertEquals(good.lookup("0.0.0.15"), "GB");
  assertEquals(good.lookup("0.0.0.21"), null);
  assertEquals(good.lookup("::1"), "DE");
  const join = (...parts: Uint8Array[]) => {
    const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    parts.reduce((at, part) => (bytes.set(part, at), at + part.length), 0);
    return bytes;
  };
  const refused = (ipv4: Uint8Array, ipv6: Uint8Array) =>
    assertRejects(() => CountryTable.read(ipv4, ipv6), Error);
  await refused(range(10, 20, "GB").slice(1), ipv6);
  await refused(new Uint8Array(0), ipv6);
  await refused(range(20, 10, "GB"), ipv6);
  await refused(join(range(10, 20, "GB"), range(15, 30, "FR")), ipv6);
  await refused(range(10, 20, "gb"), ipv6);
  await refused(range(10, 20, "G1"), ipv6);
  await refused(range(10, 20, "GB"), ipv6.slice(2));
});

Deno.test("the lookup the buffer loads answers from the database", async () => {
  const lookup = await loadGeoipLookup();
  assertEquals(lookup("81.2.69.160"), "GB");
  assertEquals(lookup("2a00:1450:4001:81b::200e"), "DE");
  assertEquals(lookup("192.168.1.1"), null);
  assertEquals(await loadGeoipLookup(), lookup, "loaded once");
});
