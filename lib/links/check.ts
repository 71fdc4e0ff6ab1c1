/**
 * What a name is worth as a custom slug: whether it is one at all, reserved, or taken.
 * @module
 */
import type { Store } from "../kv/store.ts";
import { getLiveLink } from "./read.ts";
import { CUSTOM_SLUG_PATTERN, isReservedSlug, isSlugLike } from "./slug.ts";
import type { CheckResult } from "./views.ts";

/**
 * Checks `slug` (any text): `exists` when a live link has it (a legacy link's shorter name
 * included; an expired link does not count), `reserved` for a reserved word in any case, `valid`
 * when it could be claimed as a custom slug (the custom-slug rules, and not reserved). One store
 * read at most, and none for a name no link could have.
 */
export async function checkSlug(store: Store, slug: string): Promise<CheckResult> {
  const reserved = isReservedSlug(slug);
  const exists = !reserved && isSlugLike(slug) && (await getLiveLink(store, slug)) !== null;
  const valid = !reserved && CUSTOM_SLUG_PATTERN.test(slug);
  return { slug, exists, reserved, valid };
}
