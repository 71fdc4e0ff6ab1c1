/**
 * Clicks: classified and counted in memory on the redirect, written by the flush.
 * @module
 */
export * from "./buffer.ts";
export * from "./classify.ts";
export type { VisitedLink } from "./batch.ts";
export type { ClickBufferOptions } from "./options.ts";
export type { FlushOutcome } from "./visits.ts";
