/**
 * Links: making, reading, listing, removing and sweeping them.
 * @module
 */
export * from "./create.ts";
export * from "./destination.ts";
export * from "./input.ts";
export * from "./legacy.ts";
export * from "./list.ts";
export * from "./read.ts";
export * from "./record.ts";
export * from "./remove.ts";
export * from "./slug.ts";
export * from "./sweep.ts";
export * from "./reference.ts";
export * from "./export.ts";
export * from "./bulk.ts";
export * from "./check.ts";
export * from "./views.ts";
export * from "./query.ts";
export * from "./cache.ts";
export * from "./removal_watch.ts";
export * from "./retire.ts";
export * from "./outcome.ts";
export * from "./visits.ts";
export * from "./open.ts";
