/**
 * Removing a link on a request, with the operator told when an instance had not forgotten it by
 * the answer.
 * @module
 */
import { type LinkRecord, removeLink } from "../../lib/links/mod.ts";
import { logLine } from "../../lib/log/mod.ts";
import type { AppDeps } from "./env.ts";

/** {@linkcode removeLink}, logging a warning when not every instance confirmed it in time. */
export function removeLinkOf(deps: AppDeps, slug: string): Promise<LinkRecord> {
  return removeLink(deps.store, slug, {
    removals: deps.removals,
    onUnconfirmed: () =>
      deps.log(
        logLine("warn", "removal answered before every instance had forgotten the link", { slug }),
      ),
  });
}
