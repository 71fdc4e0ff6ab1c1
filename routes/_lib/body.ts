/**
 * Reading a request body: JSON, or the fields of a plain HTML form.
 * @module
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { InvalidInputError } from "../../lib/errors.ts";

/** Whether the request carries an HTML form rather than JSON. */
export function isFormPost(c: Context): boolean {
  const type = c.req.header("content-type")?.toLowerCase() ?? "";
  return type.startsWith("application/x-www-form-urlencoded") ||
    type.startsWith("multipart/form-data");
}

/**
 * The body's fields: a form's fields as strings, or parsed JSON. An empty body reads as `{}`,
 * so the missing fields are named; anything else that is not JSON is refused.
 */
export async function readBody(c: Context): Promise<unknown> {
  if (isFormPost(c)) {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody({ all: false });
    } catch (error) {
      if (error instanceof HTTPException) throw error; // the body limit
      throw new InvalidInputError("request body is not a valid form");
    }
    return Object.fromEntries(
      Object.entries(form).filter(([, value]) => typeof value === "string"),
    );
  }
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidInputError("request body is not valid JSON");
  }
}

/** The body's fields as an object; any other JSON value is refused. */
export async function readObjectBody(c: Context): Promise<Record<string, unknown>> {
  const body = await readBody(c);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new InvalidInputError("request body must be a JSON object");
  }
  return body as Record<string, unknown>;
}

/** The non-blank lines of `text`, trimmed: how a form's textarea sends a list. */
export function textLines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");
}
