/**
 * The service's own figures, kept in memory per app and read by a Prometheus scrape.
 * @module
 */
export * from "./registry.ts";
export * from "./series.ts";
export * from "./exposition.ts";
export * from "./readings.ts";
