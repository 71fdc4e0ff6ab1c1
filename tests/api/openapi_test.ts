import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { TEST_BASE_URL, testApp } from "../_helpers/app.ts";
import {
  HTTP_METHODS,
  type OpenApiDocument,
  openApiPath,
  type OperationSpec,
} from "../../routes/_openapi/mod.ts";
import { apiCatalogue } from "../../routes/mod.ts";

/** Every operation of the catalogue, with its path and method. */
function operations(): { path: string; method: string; spec: OperationSpec }[] {
  return Object.entries(apiCatalogue()).flatMap(([path, route]) =>
    HTTP_METHODS.flatMap((method) => {
      const spec = route[method];
      return spec ? [{ path, method, spec }] : [];
    })
  );
}

Deno.test("GET /api/openapi.json is a valid OpenAPI 3.1 document served from BASE_URL", async () => {
  await using t = await testApp();
  const res = await t.request("/api/openapi.json");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/json");
  const text = await res.text();
  const document: OpenApiDocument = JSON.parse(text);
  const result = await new Validator().validate(JSON.parse(text));
  assert(result.valid, JSON.stringify(result.errors, null, 2));
  assertEquals(document.openapi, "3.1.0");
  assertEquals(document.servers[0]?.url, TEST_BASE_URL);
  assertEquals(document.info.version, "1.1.0");
});

Deno.test("every mounted API route is in the document with exactly the methods it answers", async () => {
  await using t = await testApp();
  const document: OpenApiDocument = await (await t.request("/api/openapi.json")).json();
  const mounted = new Map<string, Set<string>>();
  for (const route of t.app.routes) {
    if (route.method === "ALL" || !route.path.startsWith("/api/")) continue;
    const methods = mounted.get(route.path) ?? new Set();
    methods.add(route.method.toLowerCase());
    mounted.set(route.path, methods);
  }
  assert(mounted.size >= 15, `only ${mounted.size} API paths mounted`);
  for (const [path, methods] of mounted) {
    const documented = Object.keys(document.paths[path] ?? {}).sort();
    assertEquals(documented, [...methods].sort(), path);
  }
  // Documented but served by a module of its own, not mounted in every build.
  const unmounted = Object.keys(document.paths)
    .filter((path) => path.startsWith("/api/") && !mounted.has(path));
  assert(unmounted.every((path) => path === "/api/stats"), unmounted.join(", "));
  assertEquals(Object.keys(document.paths["/api/stats"] ?? {}), ["get"]);
  assertEquals(Object.keys(document.paths["/{slug}"] ?? {}), ["get", "post"]);
  assertEquals(Object.keys(document.paths["/metrics"] ?? {}), ["get"]);
});

Deno.test("every example in the catalogue is accepted by the schema it illustrates", () => {
  for (const { path, method, spec } of operations()) {
    const where = `${method} ${path}`;
    if (spec.body) {
      const parsed = spec.body.schema.safeParse(spec.body.example);
      assert(parsed.success, `${where} body: ${parsed.error?.message}`);
    }
    for (const schema of [spec.path, spec.query]) {
      if (!schema) continue;
      const parsed = schema.safeParse(spec.parameterExample ?? {});
      assert(parsed.success, `${where} parameters: ${parsed.error?.message}`);
    }
    for (const [status, response] of Object.entries(spec.responses)) {
      for (const [type, media] of Object.entries(response.content ?? {})) {
        assert(media.example !== undefined, `${where} ${status} ${type} has no example`);
        const parsed = media.schema.safeParse(media.example);
        assert(parsed.success, `${where} ${status} ${type}: ${parsed.error?.message}`);
      }
    }
  }
});

Deno.test("every operation documents the rate limit its route enforces, or none", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com", slug: "hello" });
  const mounted = new Set(t.app.routes.map((route) => `${route.method} ${route.path}`));
  for (const { path, method, spec } of operations()) {
    if (!mounted.has(`${method.toUpperCase()} ${path}`)) continue;
    const url = openApiPath(path).replace(/\{(\w+)\}/g, (_, name) => spec.parameterExample![name]!);
    const res = await t.request(url, { method: method.toUpperCase() });
    await res.body?.cancel();
    const expected = spec.rateLimit ? String(spec.rateLimit.limit) : null;
    assertEquals(res.headers.get("ratelimit-limit"), expected, `${method} ${path}`);
  }
});

Deno.test("the document names the unlock cookie and the shared error answers", async () => {
  await using t = await testApp();
  const document: OpenApiDocument = await (await t.request("/api/openapi.json")).json();
  const scheme = document.components.securitySchemes.unlockCookie!;
  assertEquals([scheme.type, scheme.in, scheme.name], ["apiKey", "cookie", "unlock_{slug}"]);
  assertEquals(document.paths["/{slug}"]?.get?.security, [{}, { unlockCookie: [] }]);
  const tooMany = document.components.responses.TooManyRequests!;
  assertEquals(Object.keys(tooMany.headers ?? {}).sort(), [
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "Retry-After",
  ]);
  assertEquals(Object.keys(document.components.responses.MethodNotAllowed!.headers ?? {}), [
    "Allow",
  ]);
  const create = document.paths["/api/create"]!.post!;
  assertEquals(create.responses["405"], { $ref: "#/components/responses/MethodNotAllowed" });
  assertEquals(create.responses["429"], { $ref: "#/components/responses/TooManyRequests" });
  assertEquals(create["x-rate-limit"], { name: "create", limit: 30, windowSeconds: 60 });
  assertEquals(document.paths["/api/stats"]?.get?.["x-rate-limit"]?.limit, 60);
  assertEquals(document.paths["/api/check"]?.get?.["x-rate-limit"], undefined);
  // Paths outside the API answer a method they do not serve with 405 too, as documented.
  await t.json("/api/create", { url: "example.com", slug: "hello" });
  for (
    const [path, operation, sent, allow] of [
      ["/{slug}", "get", "/hello", "GET, HEAD, POST"],
      ["/{slug}", "post", "/hello", "GET, HEAD, POST"],
      ["/metrics", "get", "/metrics", "GET, HEAD"],
    ] as const
  ) {
    assertEquals(document.paths[path]?.[operation]?.responses["405"], {
      $ref: "#/components/responses/MethodNotAllowed",
    }, path);
    const res = await t.request(sent, { method: "DELETE" });
    assertEquals(res.status, 405, sent);
    assertEquals(res.headers.get("allow"), allow);
    await res.body?.cancel();
  }
});

Deno.test("Redocly's recommended rules find no error and no warning in the document", async () => {
  await using t = await testApp();
  const text = await (await t.request("/api/openapi.json")).text();
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({ source: text, absoluteRef: "/openapi.json", config });
  const found = problems.map((problem) =>
    `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`
  );
  // The short link's GET has a 2xx: the Open page of a link that opens a limited number of
  // times. Its POST has none by design: it opens the link, and answers 303 to the destination.
  const noSuccess =
    "warn operation-2xx-response #/paths/~1{slug}/post/responses: Operation must have at least one `2XX` response.";
  assertEquals(found.filter((problem) => problem !== noSuccess), []);
});

Deno.test("served on localhost, Redocly warns of its server on localhost too, as docs/api.md says", async () => {
  await using t = await testApp({ env: { BASE_URL: "http://localhost:8000" } });
  const text = await (await t.request("/api/openapi.json")).text();
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({ source: text, absoluteRef: "/openapi.json", config });
  assertEquals(problems.map((problem) => `${problem.severity} ${problem.ruleId}`), [
    "warn no-server-example.com",
    "warn operation-2xx-response",
  ]);
  const docs = (await Deno.readTextFile(new URL("../../docs/api.md", import.meta.url)))
    .replace(/\s+/g, " ");
  assertStringIncludes(docs, "their `no-server-example.com` rule warns");
  assertStringIncludes(docs, "`operation-2xx-response` on `POST /{slug}`");
});

Deno.test("the document gives times, dates and URLs their formats, a security for every operation, and its license", async () => {
  await using t = await testApp();
  const document: OpenApiDocument = await (await t.request("/api/openapi.json")).json();
  assertEquals(document.info.license, { name: "MIT", identifier: "MIT" });
  const schemaOf = (path: string, method: "get" | "post", status = "200") => {
    const response = document.paths[path]?.[method]?.responses[status] as {
      content: Record<string, { schema: Record<string, unknown> }>;
    };
    return JSON.stringify(response.content["application/json"]!.schema);
  };
  const list = JSON.parse(schemaOf("/api/links", "get")).items.properties;
  for (const name of ["createdAt", "expiresAt"]) {
    assertEquals(list[name], {
      type: "string",
      format: "date-time",
      description: list[name].description,
    });
  }
  assertEquals(list.lastUsedAt.anyOf[0].format, "date-time");
  assertEquals(list.shortUrl.format, "uri");
  assertEquals(list.url.anyOf[0].format, "uri");
  const create = JSON.parse(schemaOf("/api/create", "post", "201")).properties;
  assertEquals([create.shortUrl.format, create.expiresAt.format], ["uri", "date-time"]);
  assert(schemaOf("/api/unshorten", "get", "410").includes('"format":"date-time"'));
  assert(schemaOf("/api/stats", "get").includes('"format":"date"'));
  const preview = JSON.parse(schemaOf("/api/preview", "get")).properties;
  assertEquals(preview.url.format, "uri");
  assertEquals(preview.image.anyOf, [{ type: "string", format: "uri" }, {
    type: "string",
    const: "",
  }]);
  // Every operation says what it needs: nothing, or the unlock cookie where it is read.
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const expected = operations().find((o) => openApiPath(o.path) === path && o.method === method)
          ?.spec.readsUnlockCookie
        ? [{}, { unlockCookie: [] }]
        : [];
      assertEquals(operation.security, expected, `${method} ${path}`);
    }
  }
  assertEquals(document.paths["/api/unshorten"]?.get?.security, [{}, { unlockCookie: [] }]);
  assertEquals(document.paths["/api/create"]?.post?.security, []);
});

Deno.test("the repository is MIT licensed, and the README and the document say so", async () => {
  const root = new URL("../../", import.meta.url);
  const license = await Deno.readTextFile(new URL("LICENSE", root));
  assert(license.startsWith("MIT License\n"), license.slice(0, 40));
  assertStringIncludes(license, "Permission is hereby granted, free of charge");
  const readme = await Deno.readTextFile(new URL("README.md", root));
  assertStringIncludes(readme, "MIT: see [LICENSE](LICENSE)");
  await using t = await testApp();
  const document: OpenApiDocument = await (await t.request("/api/openapi.json")).json();
  assertEquals(document.info.license.identifier, "MIT");
});

Deno.test("every state-changing operation documents the cross-site 403 the service answers", async () => {
  await using t = await testApp();
  const document: OpenApiDocument = await (await t.request("/api/openapi.json")).json();
  const shared = document.components.responses.CrossSiteRefused!;
  const example = (shared.content!["application/json"]!.example as { error: string }).error;
  let seen = 0;
  for (const { path, method } of operations()) {
    if (method === "get") continue;
    seen++;
    const documented = document.paths[openApiPath(path)]![method as "post"]!.responses["403"];
    assert(documented, `${method} ${path} documents no 403`);
    const sent = path.replace(":slug", "hello");
    const res = await t.request(sent, {
      method: method.toUpperCase(),
      headers: { "Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain" },
      body: "{}",
    });
    assertEquals(res.status, 403, `${method} ${path}`);
    const { error } = await res.json();
    if (path === "/api/unlock") {
      assert(!("$ref" in documented));
      assertStringIncludes(documented.description, error);
    } else {
      assertEquals(documented, { $ref: "#/components/responses/CrossSiteRefused" });
      assertEquals(error, example);
    }
  }
  assert(seen >= 4, `only ${seen} state-changing operations`);
});
