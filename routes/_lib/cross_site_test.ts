import { assertEquals } from "../../tests/_helpers/assert.ts";
import { crossSiteRefusal, type CrossSiteRequest } from "./cross_site.ts";

const BASE = "https://sho.rt";
const post = (extra: Partial<CrossSiteRequest>): CrossSiteRequest => ({
  method: "POST",
  path: "/api/create",
  host: "sho.rt",
  ...extra,
});

Deno.test("crossSiteRefusal refuses a simple body a page of another site sends", () => {
  for (const fetchSite of ["cross-site", "same-site", "Cross-Site"]) {
    for (
      const contentType of [
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "text/plain;charset=UTF-8",
        "TEXT/PLAIN",
        null,
        "",
      ]
    ) {
      assertEquals(
        crossSiteRefusal(post({ fetchSite, contentType }), BASE),
        "simple",
        `${fetchSite} ${contentType}`,
      );
    }
  }
});

Deno.test("crossSiteRefusal lets through a preflighted body, and a page of this origin", () => {
  const json = "application/json";
  assertEquals(crossSiteRefusal(post({ fetchSite: "cross-site", contentType: json }), BASE), null);
  for (const fetchSite of ["same-origin", "none"]) {
    assertEquals(crossSiteRefusal(post({ fetchSite, contentType: "text/plain" }), BASE), null);
  }
});

Deno.test("crossSiteRefusal refuses every state-changing method and no other", () => {
  const request = { fetchSite: "cross-site", contentType: "text/plain" };
  for (const method of ["POST", "PUT", "PATCH", "DELETE", "post"]) {
    assertEquals(crossSiteRefusal(post({ ...request, method }), BASE), "simple", method);
  }
  for (const method of ["GET", "HEAD", "OPTIONS"]) {
    assertEquals(crossSiteRefusal(post({ ...request, method }), BASE), null, method);
  }
});

Deno.test("crossSiteRefusal refuses an unlock from another site whatever its body", () => {
  for (const contentType of ["application/json", "text/plain", null]) {
    const request = post({ path: "/api/unlock", fetchSite: "cross-site", contentType });
    assertEquals(crossSiteRefusal(request, BASE), "unlock");
  }
  const own = post({ path: "/api/unlock", fetchSite: "same-origin", contentType: "text/plain" });
  assertEquals(crossSiteRefusal(own, BASE), null);
});

Deno.test("without Sec-Fetch-Site, crossSiteRefusal judges by Origin against Host and BASE_URL", () => {
  const form = "application/x-www-form-urlencoded";
  const cases: [origin: string | null, host: string, refused: boolean][] = [
    [null, "sho.rt", false], // curl, a server
    ["https://sho.rt", "sho.rt", false],
    ["https://SHO.RT", "sho.rt", false],
    ["https://sho.rt", "sho.rt:443", false],
    ["http://127.0.0.1:8000", "127.0.0.1:8000", false],
    ["https://sho.rt", "10.0.0.5:8000", false], // BASE_URL's origin behind a proxy
    ["https://evil.example", "sho.rt", true],
    ["https://sho.rt.evil.example", "sho.rt", true],
    ["http://127.0.0.1:9000", "127.0.0.1:8000", true],
    ["null", "sho.rt", true],
    ["", "sho.rt", true],
    ["https://evil.example", "", true],
  ];
  for (const [origin, host, refused] of cases) {
    const request = post({ origin, host, contentType: form });
    assertEquals(crossSiteRefusal(request, BASE), refused ? "simple" : null, `${origin} ${host}`);
  }
  // Sec-Fetch-Site, when sent, decides: a browser computes it itself.
  const stated = post({ fetchSite: "same-origin", origin: "https://evil.example" });
  assertEquals(crossSiteRefusal(stated, BASE), null);
});
