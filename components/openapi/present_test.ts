import { assertEquals } from "../../tests/_helpers/assert.ts";
import type { OpenApiDocument, OperationObject } from "./types.ts";
import { curlCommand, fieldsOf, rulesOf, shellQuote, typeOf } from "./present.ts";

Deno.test("types read as a person would say them", () => {
  assertEquals(typeOf({ type: ["string", "null"] }), "string or null");
  assertEquals(typeOf({ type: "array", items: { type: "object" } }), "object[]");
  assertEquals(typeOf({ type: "string", enum: ["text", "csv"] }), '"text" | "csv"');
  assertEquals(typeOf({ const: true }), "true");
  assertEquals(typeOf({ anyOf: [{ type: "string" }, { type: "object" }] }), "string or object");
  assertEquals(typeOf({ $ref: "#/components/schemas/Error" }), "Error");
});

Deno.test("rules name bounds, patterns and defaults", () => {
  assertEquals(rulesOf({ type: "string", minLength: 1, maxLength: 9 }), "1 to 9 characters");
  assertEquals(
    rulesOf({ type: "array", minItems: 1, maxItems: 10 }),
    "at least 1 items; at most 10 items",
  );
  assertEquals(
    rulesOf({ type: "string", pattern: "^a$", default: "a" }),
    'pattern `^a$`; default `"a"`',
  );
});

Deno.test("fields of a union are required only when every branch requires them", () => {
  const rows = fieldsOf({
    type: "array",
    items: {
      anyOf: [
        {
          type: "object",
          properties: { ok: { const: true }, link: { type: "object" } },
          required: ["ok", "link"],
        },
        {
          type: "object",
          properties: { ok: { const: false }, error: { type: "string" } },
          required: ["ok", "error"],
        },
      ],
    },
  });
  assertEquals(rows.map((row) => [row.name, row.required]), [
    ["ok", true],
    ["link", false],
    ["error", false],
  ]);
});

Deno.test("a curl command sends the example request, quoted for the shell", () => {
  const document = { servers: [{ url: "https://lapse.example" }] } as OpenApiDocument;
  const post: OperationObject = {
    operationId: "postCreate",
    tags: [],
    summary: "",
    responses: {},
    requestBody: {
      required: true,
      content: { "application/json": { schema: {}, example: { title: "it's" } } },
    },
  };
  assertEquals(
    curlCommand(document, { path: "/api/create", method: "post", operation: post }),
    "curl -X POST 'https://lapse.example/api/create' \\\n  -H 'Content-Type: application/json' " +
      `\\\n  -d '{"title":"it'\\''s"}'`,
  );
  const get: OperationObject = {
    operationId: "getSlug",
    tags: [],
    summary: "",
    responses: { "302": { description: "" } },
    parameters: [{ name: "slug", in: "path", required: true, schema: {}, example: "a b" }],
  };
  assertEquals(
    curlCommand(document, { path: "/{slug}", method: "get", operation: get }),
    "curl -i 'https://lapse.example/a%20b'",
  );
  assertEquals(shellQuote("a'b"), "'a'\\''b'");
});
