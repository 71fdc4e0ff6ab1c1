import { DOMParser } from "linkedom";
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { HTTP_METHODS, type OpenApiDocument } from "../../routes/_openapi/mod.ts";

Deno.test("GET /docs shows every operation of the document with its parameters, answers and an example", async () => {
  await using t = await testApp();
  const document: OpenApiDocument = await (await t.request("/api/openapi.json")).json();
  const res = await t.request("/docs");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8");
  assertStringIncludes(res.headers.get("content-security-policy") ?? "", "script-src 'self'");
  const html = await res.text();
  const page = new DOMParser().parseFromString(html, "text/html");
  assertEquals(page.querySelector("title")?.textContent, "API · lapse");
  assert(page.querySelector("header.site-header nav"), "the shared layout");
  assertEquals(page.querySelectorAll("script").length, 0);
  let seen = 0;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      seen++;
      const article = page.getElementById(operation.operationId);
      assert(article, `${method} ${path} has no section`);
      const text = article.textContent ?? "";
      assertStringIncludes(text, method.toUpperCase());
      assertStringIncludes(text, path);
      assertStringIncludes(text, operation.summary);
      assertStringIncludes(text, "curl ");
      for (const parameter of operation.parameters ?? []) {
        assertStringIncludes(text, `${parameter.name} (${parameter.in})`);
      }
      for (const status of Object.keys(operation.responses)) assertStringIncludes(text, status);
      assert(page.querySelector(`a[href="#${operation.operationId}"]`), "listed on top");
    }
  }
  assert(seen >= 20, `only ${seen} operations`);
  // The keyboard stops only at what scrolls sideways, and knows what it stopped at.
  for (const stop of page.querySelectorAll("[tabindex]")) {
    assertEquals(stop.getAttribute("class"), "api-table");
    assertEquals(stop.getAttribute("role"), "region");
    assert(stop.getAttribute("aria-label"), "a named region");
  }
  assertEquals(page.querySelectorAll("pre[tabindex]").length, 0, "examples wrap instead");
});

Deno.test("GET /docs shows the body fields and example JSON of POST /api/create", async () => {
  await using t = await testApp();
  const page = new DOMParser().parseFromString(
    await (await t.request("/docs")).text(),
    "text/html",
  );
  const create = page.getElementById("postCreate")!;
  const fields = [...create.querySelectorAll("table")[0]!.querySelectorAll("tbody tr")]
    .map((row) => row.querySelector("td code")?.textContent);
  assertEquals(fields, ["url", "title", "note", "slug", "maxVisits", "pass"]);
  const examples = [...create.querySelectorAll("pre")].map((pre) => pre.textContent ?? "");
  assertStringIncludes(examples[0]!, "curl -X POST 'http://sho.rt/api/create'");
  assertEquals(JSON.parse(examples[1]!).url, "example.com/a/long/path");
  assertEquals(JSON.parse(examples[2]!).shortUrl, "https://lapse.example/hello");
});

Deno.test("GET /docs shows markup from the document as text, never as elements", async () => {
  await using t = await testApp();
  const html = await (await t.request("/docs")).text();
  const page = new DOMParser().parseFromString(html, "text/html");
  // The QR code's example answer is SVG markup: it must appear escaped.
  assertStringIncludes(page.getElementById("getQr")!.textContent ?? "", "<svg xmlns=");
  assertStringIncludes(html, "&lt;svg xmlns=");
  assertEquals(page.querySelectorAll("main svg").length, 0);
});
