import { z } from "zod";
import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { errorBody } from "../../lib/error_bodies.ts";
import { documentAs, errorResponseSpec, jsonResponseSpec, type RouteSpec } from "./catalogue.ts";
import { buildOpenApiDocument, jsonSchemaOf, openApiPath } from "./document.ts";

const blankIsAbsent = (value: unknown) => (value === "" ? undefined : value);

const thingInput = z.object({
  name: z.string().min(1).describe("The name"),
  note: z.preprocess(blankIsAbsent, z.string().max(10).optional()).describe("A note"),
});

const thing = z.object({ name: z.string(), made: z.boolean() });

const SPEC: RouteSpec = {
  post: {
    tag: "Things",
    summary: "Make a thing",
    body: { schema: thingInput, example: { name: "a" }, form: true },
    responses: {
      201: jsonResponseSpec("Made", { schema: thing, example: { name: "a", made: true } }),
      400: errorResponseSpec("Bad input", "name is required"),
    },
    rateLimit: { name: "things", limit: 3, windowMs: 60_000 },
  },
};

const OPTIONS = { baseUrl: "https://lapse.example", version: "9.9.9" };

Deno.test("a preprocessed optional field is optional in the input schema", () => {
  const json = jsonSchemaOf(thingInput, "input");
  assertEquals(json.required, ["name"]);
  assertEquals(json.$schema, undefined);
  assertEquals((json.properties as Record<string, unknown>).note, {
    description: "A note",
    type: "string",
    maxLength: 10,
  });
});

Deno.test("a part given to documentAs is shown as the schema it is parsed with later", () => {
  const taken = z.unknown();
  documentAs(taken, z.union([z.string(), z.object({ url: z.string() })]));
  const json = jsonSchemaOf(z.object({ rows: z.array(taken) }), "input");
  const rows = (json.properties as Record<string, Record<string, unknown>>).rows!;
  assertEquals(rows.items, {
    anyOf: [
      { type: "string" },
      { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
    ],
  });
});

Deno.test("an operation gets its body, responses, limit and the shared error responses", () => {
  const document = buildOpenApiDocument({ "/api/things": SPEC }, OPTIONS);
  assertEquals(document.openapi, "3.1.0");
  assertEquals(document.servers, [{ url: "https://lapse.example", description: "This service" }]);
  const operation = document.paths["/api/things"]!.post!;
  assertEquals(operation.operationId, "postThings");
  assertEquals(Object.keys(operation.requestBody!.content), [
    "application/json",
    "application/x-www-form-urlencoded",
  ]);
  assertEquals(Object.keys(operation.responses), ["201", "400", "403", "405", "413", "429", "503"]);
  assertEquals(operation.responses["403"], { $ref: "#/components/responses/CrossSiteRefused" });
  assertEquals(operation["x-rate-limit"], { name: "things", limit: 3, windowSeconds: 60 });
  const made = operation.responses["201"]!;
  assert(!("$ref" in made));
  assertEquals(Object.keys(made.headers!), [
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
  ]);
  const bad = operation.responses["400"]!;
  assert(!("$ref" in bad));
  assertEquals(bad.content!["application/json"]!.schema, { $ref: "#/components/schemas/Error" });
  assertEquals(document.components.schemas.Error, jsonSchemaOf(errorBody, "output"));
});

Deno.test("path parameters are written the OpenAPI way and are required", () => {
  assertEquals(openApiPath("/:slug"), "/{slug}");
  const document = buildOpenApiDocument({
    "/:slug": {
      get: {
        tag: "Redirect",
        summary: "Go",
        path: z.object({ slug: z.string().describe("The slug") }),
        parameterExample: { slug: "abc" },
        responses: { 302: { description: "On" } },
        store: false,
      },
    },
  }, OPTIONS);
  const operation = document.paths["/{slug}"]!.get!;
  assertEquals(operation.parameters, [{
    name: "slug",
    in: "path",
    required: true,
    schema: { type: "string" },
    description: "The slug",
    example: "abc",
  }]);
  assertEquals(
    Object.keys(operation.responses),
    ["302", "405"],
    "a method it does not serve is a 405 on every path",
  );
});
