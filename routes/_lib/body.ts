/**
 * Reading a request body: JSON, or the fields of a plain HTML form.
 * @module
 */
import type { Context } from "hono";
import type { AppEnv } from "./env.ts";
import { HTTPException } from "hono/http-exception";
import { InvalidInputError } from "../../lib/errors.ts";

/**
 * Whether the request carries an HTML form rather than JSON: once the body is read, whether it
 * was read as one (a form-typed body that is a JSON object is read as JSON); before, whether
 * its declared type is a form's.
 */
export function isFormPost(c: Context<AppEnv>): boolean {
  return c.get("formBody") ?? declaresForm(c);
}

/** Whether the declared `Content-Type` is a form's (urlencoded or multipart). */
function declaresForm(c: Context): boolean {
  return isUrlEncoded(c) || contentTypeOf(c).startsWith("multipart/form-data");
}

function isUrlEncoded(c: Context): boolean {
  return contentTypeOf(c).startsWith("application/x-www-form-urlencoded");
}

function contentTypeOf(c: Context): string {
  return c.req.header("content-type")?.toLowerCase() ?? "";
}

/**
 * A form's text fields, each as the list of its values; uploaded files are left out. An
 * urlencoded body is read as text first (see {@linkcode readBody}), so it is parsed from that
 * text, as a browser's form encoding is.
 */
export async function readFormTexts(c: Context<AppEnv>): Promise<Record<string, string[]>> {
  if (!isUrlEncoded(c)) return formTexts(await c.req.parseBody({ all: true }));
  const fields: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(await c.req.text())) {
    (fields[name] ??= []).push(value);
  }
  return fields;
}

/**
 * Throws the refusal of a body that `bodyLimit` marks rather than answers (over the limit, or
 * unreadable), so that the request is counted against its rate limit first. A handler of a
 * method that may carry a body calls this before it acts: {@linkcode readBody} does, and a
 * handler that reads no body (a `DELETE`) calls it first.
 */
export function refuseMarkedBody(c: Context<AppEnv>): void {
  const refused = c.get("bodyRefused");
  if (refused) throw refused;
}

/** Options of {@linkcode readBody}. */
export interface ReadBodyOptions {
  /**
   * Whether an HTML form's fields are read (default true). An endpoint that no page of the
   * service posts a form to reads JSON only, so no other site's page can post it a form.
   */
  forms?: boolean;
}

/**
 * The body's fields: a form's as strings (a repeated field as the list of its values), or parsed
 * JSON; an empty body reads as `{}`. An urlencoded body that parses as a JSON object is JSON, as
 * `curl -d` sends it (docs/decisions/2026-11-28-form-bodies-and-json.md). Records which it was
 * in `formBody`.
 */
export async function readBody(
  c: Context<AppEnv>,
  options: ReadBodyOptions = {},
): Promise<unknown> {
  refuseMarkedBody(c);
  const forms = options.forms ?? true;
  if (forms && declaresForm(c) && !(isUrlEncoded(c) && isJsonObject(await readText(c)))) {
    let form: Record<string, string[]>;
    try {
      form = await readFormTexts(c);
    } catch (error) {
      if (error instanceof HTTPException) throw error; // the body limit
      throw new InvalidInputError("request body is not a valid form");
    }
    c.set("formBody", true);
    return formFields(form);
  }
  c.set("formBody", false);
  const text = await readText(c);
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InvalidInputError(
      declaresForm(c)
        ? "request body must be JSON, sent with Content-Type: application/json"
        : "request body is not valid JSON",
    );
  }
  // No input is more than a few levels deep; a deeper one would only be echoed or walked by
  // recursive code (the bulk answer repeats a bad row) until the stack runs out.
  if (isNestedDeeperThan(body, MAX_BODY_DEPTH)) {
    throw new InvalidInputError(
      `request body must be nested at most ${MAX_BODY_DEPTH} levels deep`,
    );
  }
  return body;
}

/** The body as text; a failure on the wire is a 400 (see {@linkcode throwUnreadable}). */
async function readText(c: Context<AppEnv>): Promise<string> {
  try {
    return await c.req.text();
  } catch (error) {
    throwUnreadable(error);
  }
}

/** Whether `text` is a JSON object. */
function isJsonObject(text: string): boolean {
  if (!text.trimStart().startsWith("{")) return false;
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * A form's text fields: one value as a string, several as the list of them, so that no value is
 * dropped unseen (the last of two passwords, say).
 */
function formFields(form: Record<string, string[]>): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const [name, texts] of Object.entries(form)) {
    fields[name] = texts.length === 1 ? texts[0]! : texts;
  }
  return fields;
}

/**
 * Each text field of a form parsed with `parseBody({ all: true })`, as the list of its values;
 * uploaded files are left out, and a field with nothing else with them.
 */
export function formTexts(form: Record<string, unknown>): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(form)) {
    const texts = [value].flat().filter((item) => typeof item === "string");
    if (texts.length > 0) fields[name] = texts;
  }
  return fields;
}

/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_BODY_DEPTH = 32;

/** Whether `value` holds arrays or objects nested more than `max` levels; walks without recursion. */
export function isNestedDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== "object" || item === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * Throws what reading a request body failed with: the body limit's 413 and faults of our own (a
 * body read twice, a `TypeError`) as they are; a failure on the wire, where the client went away
 * before sending all of it or framed it wrongly (a chunk size that is not a number, say), as a
 * 400.
 */
export function throwUnreadable(error: unknown): never {
  throw unreadableBody(error);
}

/**
 * The 400 of a body that failed on the wire; the body limit's 413 and faults of our own are
 * thrown as they are (see {@linkcode throwUnreadable}).
 */
export function unreadableBody(error: unknown): InvalidInputError {
  if (error instanceof HTTPException || error instanceof TypeError) throw error;
  return new InvalidInputError(
    isCutOff(error) ? "request body was cut off" : "request body could not be read",
  );
}

/** Whether reading a body failed because the client went away before sending all of it. */
function isCutOff(error: unknown): boolean {
  return error instanceof Deno.errors.BadResource || error instanceof Deno.errors.Interrupted ||
    error instanceof Deno.errors.ConnectionReset || error instanceof Deno.errors.UnexpectedEof ||
    error instanceof Deno.errors.BrokenPipe;
}

/** The body's fields as an object; any other JSON value is refused. */
export async function readObjectBody(
  c: Context<AppEnv>,
  options: ReadBodyOptions = {},
): Promise<Record<string, unknown>> {
  const body = await readBody(c, options);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new InvalidInputError("request body must be a JSON object");
  }
  return body as Record<string, unknown>;
}

/**
 * A form's list field as its non-blank lines, trimmed: a textarea sends one item a line, and a
 * field given more than once sends the lines of each value in turn. Anything else (no field) is
 * returned as it is, for the schema to name.
 */
export function formLines(value: unknown): unknown {
  if (typeof value === "string") return textLines(value);
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return value.flatMap(textLines);
  }
  return value;
}

function textLines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");
}
