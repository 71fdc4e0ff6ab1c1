/**
 * Reading query parameters, with the zod schemas in `lib/` that also describe them in the
 * OpenAPI document.
 * @module
 */
import type { Context } from "hono";
import type { z } from "zod";
import { parseInput } from "../../lib/validation.ts";

/**
 * The query parsed with `schema` (the first value of each parameter); 400 with the schema's
 * sentence when it does not fit.
 */
export function parseQuery<T extends z.ZodType>(c: Context, schema: T): z.output<T> {
  return parseInput(schema, c.req.query());
}
