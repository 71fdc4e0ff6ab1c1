/**
 * The route catalogue: what each operation takes and answers, described with the very zod
 * schemas the routes parse with. The OpenAPI document is built from it.
 * @module
 */
import type { z } from "zod";
import { errorBody } from "../../lib/error_bodies.ts";
import type { RateLimit } from "../../lib/rate_limit/mod.ts";
import type { HttpMethod } from "../../components/openapi/types.ts";

const shownAs = new WeakMap<z.core.$ZodType, z.ZodType>();

/**
 * Shows `taken` in the document as `parsedLater`: for a value taken as it comes and parsed in a
 * later step of its own (a bulk row is taken as unknown, then parsed as one link's input, so a
 * bad row fails alone).
 */
export function documentAs(taken: z.core.$ZodType, parsedLater: z.ZodType): void {
  shownAs.set(taken, parsedLater);
}

/** The schema `schema` is shown as, when {@linkcode documentAs} said so. */
export function documentedAs(schema: z.core.$ZodType): z.ZodType | undefined {
  return shownAs.get(schema);
}

export type { HttpMethod } from "../../components/openapi/types.ts";

/** Every {@linkcode HttpMethod}, in the order the document lists them. */
export const HTTP_METHODS: readonly HttpMethod[] = ["get", "put", "post", "delete", "patch"];

/** The JSON media type. */
export const JSON_TYPE = "application/json";

/** A body of one media type: its schema and an example that the schema accepts. */
export interface MediaSpec {
  schema: z.ZodType;
  example?: unknown;
}

/** A response header. */
export interface HeaderSpec {
  description: string;
  example?: string;
}

/** One response of an operation. */
export interface ResponseSpec {
  description: string;
  /** Bodies by media type; none for an empty body. */
  content?: Readonly<Record<string, MediaSpec>>;
  headers?: Readonly<Record<string, HeaderSpec>>;
}

/** The body an operation takes. */
export interface BodySpec {
  /** The schema the route parses the body with. */
  schema: z.ZodType;
  /** An example the schema accepts. */
  example: unknown;
  /** Whether an HTML form (`application/x-www-form-urlencoded`) is taken as well as JSON. */
  form?: boolean;
}

/** One operation: a method on a path. */
export interface OperationSpec {
  /** The group it is listed under. */
  tag: string;
  /** What it does, in a line. */
  summary: string;
  /** More, in Markdown. */
  description?: string;
  /** The schema the route parses its path parameters with (an object). */
  path?: z.ZodType;
  /** The schema the route parses its query with (an object, maybe refined or transformed). */
  query?: z.ZodType;
  /** Example values of the path and query parameters, by name. */
  parameterExample?: Readonly<Record<string, string>>;
  body?: BodySpec;
  /** Its own responses, by status; shared error responses are added by the document. */
  responses: Readonly<Record<number, ResponseSpec>>;
  /** The per-client limit the route enforces; none when it is unlimited. */
  rateLimit?: RateLimit;
  /** Whether it needs the store, and so may answer 503; default true. */
  store?: boolean;
  /** Whether an unlock cookie changes the answer (it reveals a protected destination). */
  readsUnlockCookie?: boolean;
}

/** The operations of one path, by method. */
export type RouteSpec = Readonly<Partial<Record<HttpMethod, OperationSpec>>>;

/** Every documented path (as the app mounts it, `:name` for a parameter) and its operations. */
export type ApiCatalogue = Readonly<Record<string, RouteSpec>>;

/** A JSON response of `schema`, with an example. */
export function jsonResponseSpec(
  description: string,
  body: MediaSpec & { headers?: Readonly<Record<string, HeaderSpec>> },
): ResponseSpec {
  const { headers, ...media } = body;
  return { description, content: { [JSON_TYPE]: media }, ...(headers ? { headers } : {}) };
}

/** An error response: `{error}` JSON, with `example` as the sentence. */
export function errorResponseSpec(description: string, example: string): ResponseSpec {
  return jsonResponseSpec(description, { schema: errorBody, example: { error: example } });
}
