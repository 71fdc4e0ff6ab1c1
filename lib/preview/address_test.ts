import { assertEquals } from "../../tests/_helpers/assert.ts";
import { isAddressLiteral, isInnerHostName, publicAddress } from "./address.ts";

Deno.test("publicAddress accepts public unicast addresses and says what to dial", () => {
  assertEquals(publicAddress("93.184.216.34"), "93.184.216.34");
  assertEquals(publicAddress("8.8.8.8"), "8.8.8.8");
  assertEquals(publicAddress("2606:4700:4700::1111"), "2606:4700:4700::1111");
  assertEquals(publicAddress("[2a00:1450:4001:800::200e]"), "2a00:1450:4001:800::200e");
  // An IPv4-mapped public address is dialled as plain IPv4; NAT64 keeps its IPv6 form.
  assertEquals(publicAddress("::ffff:8.8.8.8"), "8.8.8.8");
  assertEquals(publicAddress("64:ff9b::8.8.8.8"), "64:ff9b::808:808");
});

Deno.test("publicAddress refuses every inner, special or malformed address", () => {
  const inner = [
    "127.0.0.1",
    "127.8.9.10",
    "0.0.0.0",
    "0.1.2.3",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.0.1",
    "192.168.0.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "224.0.0.251",
    "239.255.255.250",
    "255.255.255.255",
    "192.0.0.8",
    "192.0.2.1",
    "198.51.100.1",
    "203.0.113.1",
    "198.18.0.1",
    "240.0.0.1",
    "::",
    "::1",
    "::127.0.0.1",
    "::8.8.8.8",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:0:8.8.8.8",
    "64:ff9b::127.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::8.8.8.8",
    "fe80::1",
    "fe80::1%eth0",
    "fc00::1",
    "fdff::1",
    "fec0::1",
    "ff02::1",
    "2001:db8::1",
    "2001::1",
    "2002:7f00:1::",
    "2002:808:808::1",
    "100::1",
    "5f00::1",
    "not an address",
    "",
  ];
  for (const address of inner) assertEquals(publicAddress(address), null, address);
});

Deno.test("isInnerHostName refuses local names, single labels and the service host", () => {
  const refused = [
    "localhost",
    "localhost.",
    "LOCALHOST",
    "a.b.localhost",
    "intranet",
    "printer.local",
    "db.internal",
    "router.home.arpa",
    "x.test",
    "x.invalid",
    "a..b",
    "sho.rt",
    "www.sho.rt",
    "sho.rt.",
  ];
  for (const name of refused) assertEquals(isInnerHostName(name, "sho.rt"), true, name);
  const allowed = ["example.com", "www.example.com", "api.sho.rt", "localhost.example", "1.2.3.4"];
  for (const name of allowed) assertEquals(isInnerHostName(name, "sho.rt"), false, name);
});

Deno.test("isInnerHostName leaves an address literal to the address check, even the service's", () => {
  for (const address of ["127.0.0.1", "[::1]", "::1"]) {
    assertEquals(isInnerHostName(address, address), false, address);
  }
  assertEquals(isInnerHostName("localhost", "127.0.0.1"), true);
});

Deno.test("publicAddress refuses cloud metadata services in public space", () => {
  for (const address of ["168.63.129.16", "::ffff:168.63.129.16", "64:ff9b::a83f:8110"]) {
    assertEquals(publicAddress(address), null, address);
  }
  assertEquals(publicAddress("168.63.129.17"), "168.63.129.17");
});

Deno.test("isAddressLiteral tells addresses from names", () => {
  assertEquals(isAddressLiteral("127.0.0.1"), true);
  assertEquals(isAddressLiteral("[::1]"), true);
  assertEquals(isAddressLiteral("example.com"), false);
  assertEquals(isAddressLiteral("1.2.3.4.example"), false);
});
