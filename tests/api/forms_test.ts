import { assert, assertEquals } from "../_helpers/assert.ts";
import { type TestApp, testApp } from "../_helpers/app.ts";

/**
 * Every endpoint that takes a POST, and for each a body it accepts, as a form's fields (made
 * anew for each request, so each succeeds); `forms: false` for one that reads JSON alone.
 */
const POST_ENDPOINTS: Record<
  string,
  { forms: boolean; fields(t: TestApp, n: number): Promise<Record<string, string>> }
> = {
  "/api/create": {
    forms: true,
    fields: (_t, n) => Promise.resolve({ url: `example.com/${n}`, slug: `made-${n}` }),
  },
  "/api/bulk": {
    forms: true,
    fields: (_t, n) => Promise.resolve({ urls: `example.com/a${n}\nexample.com/b${n}` }),
  },
  "/api/unlock": {
    forms: true,
    async fields(t, n) {
      await t.json("/api/create", { url: "example.com", slug: `locked-${n}`, pass: "sesame" });
      return { slug: `locked-${n}`, pass: "sesame" };
    },
  },
  "/links/remove": {
    forms: true,
    async fields(t, n) {
      await t.json("/api/create", { url: "example.com", slug: `gone-${n}` });
      return { slug: `gone-${n}`, confirm: "yes" };
    },
  },
  "/api/sweep": { forms: false, fields: () => Promise.resolve({ confirm: "sweep" }) },
};

const FORM = "application/x-www-form-urlencoded";
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** The ways a body reaches the service: a browser's form, curl's forms and JSON, fetch's JSON. */
const SENDS: {
  name: string;
  browser?: true;
  json?: true;
  headers: Record<string, string>;
  encode(fields: Record<string, string>): BodyInit;
}[] = [
  {
    name: "a browser's form post",
    browser: true,
    headers: { "Content-Type": FORM, Accept: BROWSER_ACCEPT },
    encode: (fields) => new URLSearchParams(fields).toString(),
  },
  {
    name: "curl -d 'a=b&c=d'",
    headers: { "Content-Type": FORM, Accept: "*/*" },
    encode: (fields) => new URLSearchParams(fields).toString(),
  },
  {
    name: "a form from a client that sends no Accept",
    headers: { "Content-Type": FORM },
    encode: (fields) => new URLSearchParams(fields).toString(),
  },
  {
    name: "curl -d '{...}' (JSON declared a form)",
    json: true,
    headers: { "Content-Type": FORM, Accept: "*/*" },
    encode: (fields) => JSON.stringify(asJson(fields)),
  },
  {
    name: "JSON with no Content-Type",
    json: true,
    headers: {},
    encode: (fields) => new TextEncoder().encode(JSON.stringify(asJson(fields))),
  },
  {
    name: "JSON asking for HTML",
    json: true,
    headers: { "Content-Type": "application/json", Accept: BROWSER_ACCEPT },
    encode: (fields) => JSON.stringify(asJson(fields)),
  },
];

// Bulk's lines as JSON's list.
function asJson(fields: Record<string, string>): Record<string, unknown> {
  return fields.urls === undefined ? fields : { ...fields, urls: fields.urls.split("\n") };
}

Deno.test("every form endpoint answers 303 to a browser's form post alone, JSON to any other request", async () => {
  await using t = await testApp();
  const posts = [...new Set(t.app.routes.filter((r) => r.method === "POST").map((r) => r.path))]
    // A link's own POST (its Open button) is no form endpoint: see the test below.
    .filter((path) => path !== "/:slug");
  assertEquals(posts.sort(), Object.keys(POST_ENDPOINTS).sort(), "a POST route is left out");
  let n = 0;
  for (const [path, endpoint] of Object.entries(POST_ENDPOINTS)) {
    for (const send of SENDS) {
      const where = `${path}, ${send.name}`;
      const res = await t.request(path, {
        method: "POST",
        headers: send.headers,
        body: send.encode(await endpoint.fields(t, ++n)),
      }, `198.51.100.${n}`);
      const type = res.headers.get("content-type") ?? "";
      const body = await res.text();
      if (!endpoint.forms && !send.json) {
        // JSON alone: the refusal names the type to send.
        assertEquals(res.status, 400, where);
        assertEquals(JSON.parse(body), {
          error: "request body must be JSON, sent with Content-Type: application/json",
        }, where);
      } else if (send.browser) {
        assertEquals(res.status, 303, where);
        assert(res.headers.get("location")?.startsWith("/"), where);
      } else {
        assert(res.status === 200 || res.status === 201, `${where}: ${res.status} ${body}`);
        assert(type.startsWith("application/json"), `${where}: ${type}`);
        JSON.parse(body);
      }
    }
  }
});

Deno.test("a link's POST (its Open button) answers 303 to the destination for every client", async () => {
  await using t = await testApp();
  const made = await t.json("/api/create", { url: "example.com/d", slug: "opens", maxVisits: 50 });
  assertEquals(made.status, 201);
  for (const send of SENDS) {
    const res = await t.request("/opens", {
      method: "POST",
      headers: send.headers,
      body: send.encode({ any: "thing" }),
    });
    assertEquals(
      [res.status, res.headers.get("location")],
      [303, "https://example.com/d"],
      send.name,
    );
  }
  const view = await (await t.request("/api/unshorten?slug=opens")).json();
  assertEquals(view.visitsLeft, 50 - SENDS.length);
});
