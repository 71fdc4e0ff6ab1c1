/**
 * Parsing untrusted input with zod, with one sentence for a person when it fails.
 * @module
 */
import { z } from "zod";
import { InvalidInputError } from "./errors.ts";

// How zod's own English messages begin; any other message was written in a schema.
const ZOD_DEFAULT_MESSAGE = /^(Invalid|Too (big|small)|Unrecognized|Expected)/;

/** Parses `data` with `schema`, or throws {@linkcode InvalidInputError} naming the first problem and its field. */
export function parseInput<T extends z.ZodType>(schema: T, data: unknown): z.output<T> {
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path[0];
  throw new InvalidInputError(describeIssue(issue), {
    field: typeof field === "string" ? field : undefined,
  });
}

/** A sentence describing one zod issue, naming the field it is about. */
export function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "invalid input";
  // Messages written in the schemas are already sentences about their field.
  if (!ZOD_DEFAULT_MESSAGE.test(issue.message)) return issue.message;
  const field = issue.path.length > 0 ? issue.path.join(".") : "request body";
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return `${field} is required`;
      // A list where one value belongs: a JSON array, or a form field given more than once.
      if (issue.expected === "string" && Array.isArray(issue.input)) {
        return `${field} must be one string, not a list`;
      }
      return `${field} must be ${article(issue.expected)}`;
    case "too_big":
      return issue.origin === "string"
        ? `${field} must be at most ${issue.maximum} characters`
        : issue.origin === "array"
        ? `${field} must have at most ${issue.maximum} entries`
        : `${field} must be at most ${issue.maximum}`;
    case "too_small":
      return issue.origin === "string"
        ? (issue.minimum === 1
          ? `${field} must not be empty`
          : `${field} must be at least ${issue.minimum} characters`)
        : issue.origin === "array"
        ? `${field} must have at least ${issue.minimum} entries`
        : `${field} must be at least ${issue.minimum}`;
    default:
      return `${field} is invalid`;
  }
}

function article(type: string): string {
  if (type === "object") return "an object";
  if (type === "array") return "an array";
  return `a ${type}`;
}
