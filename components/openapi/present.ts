/**
 * Reading the OpenAPI document for a person: field tables, type names, rules and a curl
 * command per operation. The `/docs` page is rendered from these.
 * @module
 */
import type {
  MediaTypeObject,
  OpenApiDocument,
  OperationObject,
  RefObject,
  ResponseObject,
  SchemaObject,
} from "./types.ts";

/** One field of a body, as a table row. */
export interface FieldRow {
  name: string;
  /** The type, as a person reads it: `string`, `string or null`, `object[]`, `"text" | "csv"`. */
  type: string;
  required: boolean;
  /** Bounds and formats: `1 to 4096 characters`, ``pattern `^…$` ``, ``default `"text"` ``. */
  rules: string;
  description: string;
}

/** Whether `value` is a reference to a component. */
export function isRef(value: unknown): value is RefObject {
  return typeof value === "object" && value !== null && "$ref" in value;
}

/** The response `response` stands for, following a reference into the components. */
export function resolveResponse(
  document: OpenApiDocument,
  response: ResponseObject | RefObject,
): ResponseObject {
  if (!isRef(response)) return response;
  const name = response.$ref.replace("#/components/responses/", "");
  return document.components.responses[name] ?? { description: response.$ref };
}

/** The type of `schema` as a person reads it. */
export function typeOf(schema: SchemaObject | RefObject | undefined): string {
  if (schema === undefined) return "any";
  if (isRef(schema)) return schema.$ref.split("/").at(-1) ?? "object";
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as SchemaObject[]).map(typeOf).join(" or ");
  if (Array.isArray(schema.type)) return schema.type.join(" or ");
  if (schema.type === "array") return `${typeOf(schema.items as SchemaObject | undefined)}[]`;
  if (typeof schema.type === "string") return schema.type;
  return "any";
}

/**
 * The bounds and formats `schema` sets, in words, with a pattern and a default in backticks as
 * code; `""` when none.
 */
export function rulesOf(schema: SchemaObject | RefObject | undefined): string {
  if (schema === undefined || isRef(schema)) return "";
  const rules: string[] = [];
  const { minLength, maxLength, minItems, maxItems, pattern } = schema;
  if (typeof minLength === "number" && typeof maxLength === "number") {
    rules.push(`${minLength} to ${maxLength} characters`);
  } else if (typeof maxLength === "number") rules.push(`at most ${maxLength} characters`);
  else if (typeof minLength === "number") rules.push(`at least ${minLength} characters`);
  if (typeof minItems === "number" && minItems > 0) rules.push(`at least ${minItems} items`);
  if (typeof maxItems === "number") rules.push(`at most ${maxItems} items`);
  if (typeof pattern === "string") rules.push(`pattern \`${pattern}\``);
  if ("default" in schema) rules.push(`default \`${JSON.stringify(schema.default)}\``);
  return rules.join("; ");
}

/**
 * The fields of a body of `schema`, one level deep: an object's properties; an array's items'
 * properties; each branch's properties of a union (a field in every branch is required only
 * when every branch requires it). A body that is no object gives no rows.
 */
export function fieldsOf(schema: SchemaObject | RefObject | undefined): FieldRow[] {
  if (schema === undefined || isRef(schema)) return [];
  if (schema.type === "array") return fieldsOf(schema.items as SchemaObject | undefined);
  if (Array.isArray(schema.anyOf)) {
    const branches = (schema.anyOf as SchemaObject[]).map(fieldsOf);
    const rows = new Map<string, FieldRow>();
    for (const row of branches.flat()) {
      const seen = rows.get(row.name);
      if (seen) seen.required &&= row.required;
      else rows.set(row.name, { ...row });
    }
    for (const row of rows.values()) {
      row.required &&= branches.every((branch) => branch.some((r) => r.name === row.name));
    }
    return [...rows.values()];
  }
  const properties = schema.properties as Record<string, SchemaObject> | undefined;
  if (!properties) return [];
  const required = (schema.required ?? []) as string[];
  return Object.entries(properties).map(([name, property]) => ({
    name,
    type: typeOf(property),
    required: required.includes(name),
    rules: rulesOf(property),
    description: typeof property.description === "string" ? property.description : "",
  }));
}

/** The first successful response of `operation` with an example body, and its status and type. */
export function exampleResponse(
  operation: OperationObject,
): { status: string; type: string; media: MediaTypeObject } | null {
  for (const [status, response] of Object.entries(operation.responses)) {
    if (isRef(response) || !status.startsWith("2")) continue;
    for (const [type, media] of Object.entries(response.content ?? {})) {
      if (media.example !== undefined) return { status, type, media };
    }
  }
  return null;
}

/** Options of {@linkcode curlCommand}. */
export interface CurlOptions {
  /** The path as the document writes it (`/{slug}`). */
  path: string;
  /** The method, lower case. */
  method: string;
  operation: OperationObject;
}

/** A curl command that sends `operation`'s example request to the document's server. */
export function curlCommand(document: OpenApiDocument, options: CurlOptions): string {
  const { operation, method } = options;
  const query = new URLSearchParams();
  let path = options.path;
  for (const parameter of operation.parameters ?? []) {
    if (parameter.example === undefined) continue;
    const value = String(parameter.example);
    if (parameter.in === "path") {
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
    }
    if (parameter.in === "query") query.set(parameter.name, value);
  }
  const search = query.size > 0 ? `?${query}` : "";
  const url = `${document.servers[0]?.url ?? ""}${path}${search}`;
  const parts = ["curl"];
  if (method !== "get") parts.push(`-X ${method.toUpperCase()}`);
  // Show the status and headers of a redirect, which is all it answers.
  if ("302" in operation.responses) parts.push("-i");
  parts.push(shellQuote(url));
  const body = operation.requestBody?.content["application/json"]?.example;
  if (body !== undefined) {
    parts.push("\\\n  -H 'Content-Type: application/json'");
    parts.push(`\\\n  -d ${shellQuote(JSON.stringify(body))}`);
  }
  return parts.join(" ");
}

/** `value` in single quotes for a POSIX shell. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}
