import { z } from "zod";
import { assert, assertEquals } from "../tests/_helpers/assert.ts";
import {
  fieldOf,
  InvalidInputError,
  RateLimitedError,
  ReservedSlugError,
  SlugTakenError,
} from "./errors.ts";
import { normalizeDestination } from "./links/destination.ts";
import { createLinkInput } from "./links/input.ts";
import { parseInput } from "./validation.ts";

function refusal(fn: () => unknown): InvalidInputError {
  try {
    fn();
  } catch (error) {
    assert(error instanceof InvalidInputError, String(error));
    return error;
  }
  throw new Error("no error was thrown");
}

Deno.test("a refused input names the field it is about, for a form to mark it", () => {
  const title = refusal(() =>
    parseInput(createLinkInput, { url: "x.com", title: "t".repeat(201) })
  );
  assertEquals([title.message, fieldOf(title)], ["title must be at most 200 characters", "title"]);
  const slug = refusal(() => parseInput(createLinkInput, { url: "x.com", slug: "a!" }));
  assertEquals(fieldOf(slug), "slug");
  assertEquals(fieldOf(refusal(() => parseInput(createLinkInput, {}))), "url");
  assertEquals(fieldOf(refusal(() => normalizeDestination("ftp://x.com", "sho.rt"))), "url");
  assertEquals(fieldOf(new SlugTakenError("taken")), "slug");
  assertEquals(fieldOf(new ReservedSlugError("docs")), "slug");
});

Deno.test("a refusal about no field names none", () => {
  assertEquals(fieldOf(refusal(() => parseInput(z.string(), 3))), null);
  assertEquals(fieldOf(new InvalidInputError("request body is not valid JSON")), null);
  assertEquals(fieldOf(new RateLimitedError(30, 60_000, 5)), null);
});
