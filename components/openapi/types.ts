/**
 * The shape of the OpenAPI 3.1 document the service publishes: what the document builder
 * (`routes/_openapi/document.ts`) writes and the `/docs` page reads.
 * @module
 */

/** A JSON Schema (2020-12), as OpenAPI 3.1 embeds it. */
export type SchemaObject = { [keyword: string]: unknown };

/** A reference to a shared component. */
export interface RefObject {
  $ref: string;
}

/** A parameter of an operation. */
export interface ParameterObject {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required: boolean;
  description?: string;
  schema: SchemaObject;
  example?: unknown;
}

/** A body of one media type. */
export interface MediaTypeObject {
  schema: SchemaObject | RefObject;
  example?: unknown;
}

/** A response header. */
export interface HeaderObject {
  description: string;
  schema: SchemaObject;
  example?: string;
}

/** A response. */
export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | RefObject>;
  content?: Record<string, MediaTypeObject>;
}

/** The request body of an operation. */
export interface RequestBodyObject {
  required: boolean;
  content: Record<string, MediaTypeObject>;
}

/** How the document states a per-client rate limit (an extension field). */
export interface RateLimitExtension {
  /** The allowance's name; operations with the same name share it. */
  name: string;
  /** Requests allowed per window. */
  limit: number;
  /** The window, in seconds. */
  windowSeconds: number;
}

/** One operation. */
export interface OperationObject {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject | RefObject>;
  security?: Record<string, string[]>[];
  "x-rate-limit"?: RateLimitExtension;
}

/** The operations of one path. */
export type PathItemObject = Partial<Record<HttpMethod, OperationObject>>;

/** A method an operation may have, lower case as the document writes it. */
export type HttpMethod = "get" | "put" | "post" | "delete" | "patch";

/** The OpenAPI 3.1 document the service publishes. */
export interface OpenApiDocument {
  openapi: "3.1.0";
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: { url: string; description: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, SchemaObject>;
    headers: Record<string, HeaderObject>;
    responses: Record<string, ResponseObject>;
    securitySchemes: Record<string, SchemaObject>;
  };
}
