import type { ComponentType } from "preact";

/** The browser entry that hydrates islands; a page with islands loads it. */
export const ISLANDS_SCRIPT = "/static/build/_client.js";

/** Props of {@linkcode Island}. */
export interface IslandProps<P> {
  /** The island: a default export of a module in `islands/`, named as its file. */
  component: ComponentType<P>;
  /** Its props; serializable, since they travel to the browser as JSON. */
  props: P;
}

/**
 * Renders an island on the server inside a wrapper that names it and carries its props in
 * `data-props` (an attribute, escaped like any other), where `islands/_client.ts` finds them
 * to hydrate it.
 */
export function Island<P extends object>({ component, props }: IslandProps<P>) {
  const name = component.displayName ?? component.name;
  if (!name) throw new Error("an island must be a named function");
  const Component = component as ComponentType<object>;
  return (
    <div class="island" data-island={name} data-props={JSON.stringify(props)}>
      <Component {...props} />
    </div>
  );
}
