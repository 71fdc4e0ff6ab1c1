/**
 * The browser entry: hydrates every island the server rendered, with the props it wrote in the
 * island's `data-props`. Each island is its own chunk, so a page loads only the islands it has;
 * an island inside a closed `<details>` (bulk, on the start page) loads when that opens, as its
 * plain form works meanwhile.
 * @module
 */
import { type ComponentType, h, hydrate } from "preact";

// deno-lint-ignore no-explicit-any
type IslandModule = { default: ComponentType<any> };

/** Every island, by the name `components/Island.tsx` writes in `data-island`. */
export const ISLANDS: Readonly<Record<string, () => Promise<IslandModule>>> = {
  BulkForm: () => import("./BulkForm.tsx"),
  CopyLink: () => import("./CopyLink.tsx"),
  CreateForm: () => import("./CreateForm.tsx"),
  DeleteLink: () => import("./DeleteLink.tsx"),
  LinkFilter: () => import("./LinkFilter.tsx"),
  RecentLinks: () => import("./RecentLinks.tsx"),
  UnlockForm: () => import("./UnlockForm.tsx"),
};

/**
 * Hydrates each island under `root`, then marks its wrapper `data-hydrated`; those inside a
 * closed `<details>` once it first opens.
 */
export async function hydrateIslands(root: ParentNode): Promise<void> {
  const wrappers = [...root.querySelectorAll<HTMLElement>("[data-island]")];
  const now: HTMLElement[] = [];
  for (const wrapper of wrappers) {
    const closed = wrapper.closest<HTMLDetailsElement>("details:not([open])");
    if (closed === null) now.push(wrapper);
    else closed.addEventListener("toggle", () => hydrateEach([wrapper]), { once: true });
  }
  await hydrateEach(now);
}

async function hydrateEach(wrappers: HTMLElement[]): Promise<void> {
  const names = [...new Set(wrappers.map((wrapper) => wrapper.dataset.island ?? ""))];
  const loaded = await Promise.all(
    names.map(async (name) => [name, (await ISLANDS[name]?.())?.default] as const),
  );
  const components = new Map(loaded);
  for (const wrapper of wrappers) {
    const component = components.get(wrapper.dataset.island ?? "");
    if (!component || "hydrated" in wrapper.dataset) continue;
    hydrate(h(component, JSON.parse(wrapper.dataset.props ?? "{}")), wrapper);
    wrapper.dataset.hydrated = "";
  }
}

if (typeof document !== "undefined") hydrateIslands(document);
