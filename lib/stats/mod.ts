/**
 * Stats: service-wide figures over live links, read from aggregates.
 * @module
 */
export * from "./link.ts";
export * from "./read.ts";
export * from "./types.ts";
