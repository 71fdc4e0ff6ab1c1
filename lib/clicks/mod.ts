/**
 * Clicks: recorded in memory on the redirect, classified and written at flush time.
 * @module
 */
export * from "./buffer.ts";
export * from "./classify.ts";
export type { FlushOutcome } from "./flush.ts";
