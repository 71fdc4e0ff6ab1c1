/**
 * Builds the OpenAPI 3.1 document from the route catalogue: every schema in it is generated from
 * the zod schema the route parses or answers with (`z.toJSONSchema`), never written by hand.
 * @module
 */
import { z } from "zod";
import { errorBody } from "../../lib/error_bodies.ts";
import { CROSS_SITE_SIMPLE } from "../_lib/cross_site.ts";
import {
  type ApiCatalogue,
  documentedAs,
  HTTP_METHODS,
  JSON_TYPE,
  type MediaSpec,
  type OperationSpec,
  type ResponseSpec,
} from "./catalogue.ts";
import type {
  HeaderObject,
  MediaTypeObject,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  PathItemObject,
  RefObject,
  ResponseObject,
  SchemaObject,
} from "../../components/openapi/types.ts";

export type {
  HeaderObject,
  MediaTypeObject,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  PathItemObject,
  RateLimitExtension,
  RefObject,
  RequestBodyObject,
  ResponseObject,
  SchemaObject,
} from "../../components/openapi/types.ts";

/** Options of {@linkcode buildOpenApiDocument}. */
export interface OpenApiOptions {
  /** The public origin: the document's server. */
  baseUrl: string;
  /** The running release. */
  version: string;
  /** What each tag groups, by tag. */
  tags?: Readonly<Record<string, string>>;
}

const ERROR_REF: RefObject = { $ref: "#/components/schemas/Error" };
const FORMATS_WITH_PATTERNS: ReadonlySet<string> = new Set(["date-time", "date"]);
const RATE_LIMIT_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

// The methods the cross-site rule applies to, as the document spells them.
const STATE_CHANGING = ["post", "put", "patch", "delete"];

/** The OpenAPI 3.1 document of every operation in `catalogue`. */
export function buildOpenApiDocument(
  catalogue: ApiCatalogue,
  options: OpenApiOptions,
): OpenApiDocument {
  const paths: Record<string, PathItemObject> = {};
  const tagNames: string[] = [];
  for (const [path, route] of Object.entries(catalogue)) {
    const item: PathItemObject = {};
    for (const method of HTTP_METHODS) {
      const operation = route[method];
      if (!operation) continue;
      if (!tagNames.includes(operation.tag)) tagNames.push(operation.tag);
      item[method] = buildOperation(path, method, operation);
    }
    paths[openApiPath(path)] = item;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "lapse",
      version: options.version,
      description: "Short links that live seven days. Every response carries " +
        "`Access-Control-Allow-Origin: *` and `Access-Control-Expose-Headers` naming " +
        "`RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id, " +
        "Location`; every `/api/*` path answers an `OPTIONS` preflight, " +
        "and a method it does not answer with 405 and `Allow`. Every error is JSON " +
        '`{"error": "<sentence>"}`. Rate limits are per client address, in fixed one-minute ' +
        "windows shared by every instance; every request counts, refused ones included. " +
        "A POST, PUT, PATCH or DELETE that a page of another site sends without a CORS " +
        "preflight (a form, text/plain or no body) is refused with 403 and changes and counts " +
        "nothing; `POST /api/unlock` from another site is refused whatever its body.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: options.baseUrl, description: "This service" }],
    tags: orderTags(tagNames, Object.keys(options.tags ?? {})).map((name) => {
      const description = options.tags?.[name];
      return description ? { name, description } : { name };
    }),
    paths,
    components: sharedComponents(),
  };
}

/** `path` as OpenAPI writes it: `/:slug` becomes `/{slug}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/**
 * The JSON Schema of `schema` as data goes in (`input`) or comes out (`output`); a part
 * given to `documentAs` is shown as the schema it is parsed with later.
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): SchemaObject {
  const json = z.toJSONSchema(schema, {
    io,
    override(context) {
      // A time's or a date's format says it; the pattern zod adds beside it says no more, at
      // length.
      if (FORMATS_WITH_PATTERNS.has(context.jsonSchema.format as string)) {
        delete context.jsonSchema.pattern;
      }
      const shownAs = documentedAs(context.zodSchema);
      if (!shownAs) return;
      const replacement = jsonSchemaOf(shownAs, io);
      for (const key of Object.keys(context.jsonSchema)) delete context.jsonSchema[key];
      Object.assign(context.jsonSchema, replacement);
    },
  }) as SchemaObject;
  delete json.$schema;
  return json;
}

// Tags in the order the options list them, then any others in the order they first appear.
function orderTags(names: string[], preferred: string[]): string[] {
  const known = preferred.filter((name) => names.includes(name));
  return [...known, ...names.filter((name) => !known.includes(name))];
}

function buildOperation(path: string, method: string, spec: OperationSpec): OperationObject {
  const operation: OperationObject = {
    operationId: operationId(path, method),
    tags: [spec.tag],
    summary: spec.summary,
    responses: {},
  };
  if (spec.description) operation.description = spec.description;
  const parameters = [
    ...parametersOf(spec.path, "path", spec.parameterExample),
    ...parametersOf(spec.query, "query", spec.parameterExample),
  ];
  if (parameters.length > 0) operation.parameters = parameters;
  if (spec.body) {
    const media: MediaTypeObject = {
      schema: jsonSchemaOf(spec.body.schema, "input"),
      example: spec.body.example,
    };
    operation.requestBody = {
      required: true,
      content: spec.body.form
        ? { [JSON_TYPE]: media, "application/x-www-form-urlencoded": media }
        : { [JSON_TYPE]: media },
    };
  }
  const own = Object.entries(spec.responses).sort(([a], [b]) => Number(a) - Number(b));
  for (const [status, response] of own) {
    operation.responses[status] = buildResponse(response, spec.rateLimit !== undefined);
  }
  if (spec.body) operation.responses["413"] ??= { $ref: "#/components/responses/PayloadTooLarge" };
  // The cross-site rule covers every state-changing method (unlock states its own 403).
  if (STATE_CHANGING.includes(method)) {
    operation.responses["403"] ??= { $ref: "#/components/responses/CrossSiteRefused" };
  }
  if (spec.rateLimit) {
    operation.responses["429"] ??= { $ref: "#/components/responses/TooManyRequests" };
    operation["x-rate-limit"] = {
      name: spec.rateLimit.name,
      limit: spec.rateLimit.limit,
      windowSeconds: spec.rateLimit.windowMs / 1000,
    };
  }
  // Every path answers a method it does not serve with 405 and `Allow`: the API's, the metrics',
  // and a live link's.
  operation.responses["405"] ??= { $ref: "#/components/responses/MethodNotAllowed" };
  if (spec.store ?? true) {
    operation.responses["503"] ??= { $ref: "#/components/responses/StoreUnavailable" };
  }
  operation.responses = Object.fromEntries(
    Object.entries(operation.responses).sort(([a], [b]) => Number(a) - Number(b)),
  );
  // No operation needs a credential; where the unlock cookie changes the answer it is named,
  // as optional (`{}` first).
  operation.security = spec.readsUnlockCookie ? [{}, { unlockCookie: [] }] : [];
  return operation;
}

function buildResponse(response: ResponseSpec, rateLimited: boolean): ResponseObject {
  const built: ResponseObject = { description: response.description };
  const headers: Record<string, HeaderObject | RefObject> = {};
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    headers[name] = { ...header, schema: { type: "string" } };
  }
  if (rateLimited) {
    for (const name of RATE_LIMIT_HEADERS) headers[name] = { $ref: `#/components/headers/${name}` };
  }
  if (Object.keys(headers).length > 0) built.headers = headers;
  if (response.content) {
    built.content = {};
    for (const [type, media] of Object.entries(response.content)) {
      built.content[type] = buildMedia(media);
    }
  }
  return built;
}

function buildMedia(media: MediaSpec): MediaTypeObject {
  const schema = media.schema === errorBody ? ERROR_REF : jsonSchemaOf(media.schema, "output");
  return media.example === undefined ? { schema } : { schema, example: media.example };
}

function parametersOf(
  schema: z.ZodType | undefined,
  place: "path" | "query",
  examples: Readonly<Record<string, string>> = {},
): ParameterObject[] {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, "input");
  const properties = (json.properties ?? {}) as Record<string, SchemaObject>;
  const required = (json.required ?? []) as string[];
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    const parameter: ParameterObject = {
      name,
      in: place,
      required: place === "path" || required.includes(name),
      schema: rest,
    };
    if (typeof description === "string") parameter.description = description;
    if (examples[name] !== undefined) parameter.example = examples[name];
    return parameter;
  });
}

function operationId(path: string, method: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter((word) => word !== "" && word !== "api");
  return method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
}

function sharedComponents(): OpenApiDocument["components"] {
  const integer = { type: "integer", minimum: 0 };
  const errorContent = (example: string) => ({
    [JSON_TYPE]: { schema: ERROR_REF, example: { error: example } },
  });
  const rateHeaders = Object.fromEntries(
    RATE_LIMIT_HEADERS.map((name) => [name, { $ref: `#/components/headers/${name}` }]),
  );
  return {
    schemas: { Error: jsonSchemaOf(errorBody, "output") },
    headers: {
      "RateLimit-Limit": { description: "Requests allowed per window", schema: integer },
      "RateLimit-Remaining": {
        description: "Requests left in this window after this one",
        schema: integer,
      },
      "RateLimit-Reset": { description: "Seconds until the window ends", schema: integer },
      "Retry-After": { description: "Seconds until a request may succeed", schema: integer },
    },
    responses: {
      MethodNotAllowed: {
        description: "The path does not answer this method; `Allow` lists the ones it does",
        headers: {
          Allow: { description: "The methods the path answers", schema: { type: "string" } },
        },
        content: errorContent("method not allowed; /api/create answers POST, OPTIONS"),
      },
      CrossSiteRefused: {
        description: "Sent by a page of another site (`Sec-Fetch-Site: cross-site` or " +
          "`same-site`, or an `Origin` naming neither this host nor `BASE_URL`) without a " +
          "preflight (a form, `text/plain` or untyped body, or none): nothing is changed or " +
          "counted. A JSON body (`Content-Type: application/json`) is preflighted and taken.",
        content: errorContent(CROSS_SITE_SIMPLE),
      },
      PayloadTooLarge: {
        description: "The body is larger than 64 KiB",
        content: errorContent("request body must be at most 64 KiB"),
      },
      TooManyRequests: {
        description: "Over the client's rate limit for this operation",
        headers: { "Retry-After": { $ref: "#/components/headers/Retry-After" }, ...rateHeaders },
        content: errorContent("rate limit of 30 requests per minute reached, retry in 42 s"),
      },
      StoreUnavailable: {
        description: "The store did not answer (no `Retry-After`), or the service is busy: its " +
          "password hashing queue is full, or other instances keep winning a contended count " +
          "(with `Retry-After`)",
        headers: { "Retry-After": { $ref: "#/components/headers/Retry-After" } },
        content: errorContent("storage is unavailable, try again shortly"),
      },
    },
    securitySchemes: {
      unlockCookie: {
        type: "apiKey",
        in: "cookie",
        name: "unlock_{slug}",
        description: "Set by `POST /api/unlock` for one protected link: its name is `unlock_` " +
          "followed by that link's slug (so `unlock_{slug}` stands for a family of cookies), its " +
          "value an HMAC-signed token of the link and its deadline, never the password. " +
          "`HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` under https, kept until the link " +
          "expires. It lets the redirect proceed and reveals the link's destination in " +
          "unshorten, the list and the export; without it those still answer, withholding " +
          "the destination.",
      },
    },
  };
}
