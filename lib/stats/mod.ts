/**
 * Stats: service-wide figures over live links, read from aggregates.
 * @module
 */
export * from "./read.ts";
export * from "./types.ts";
// One link's own figures (clicks, last use, days, referrers, devices, countries), in one read.
export {
  readLinkFigures,
  readOneLinkFigures,
  type StoredLinkFigures,
} from "../tallies/link_figures.ts";
