/**
 * Stats: service-wide figures over live links, read from aggregates.
 * @module
 */
export * from "./read.ts";
export * from "./types.ts";
