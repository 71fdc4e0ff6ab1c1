/**
 * The visit helpers, now in `testing/visits.ts`; this path stays for the tests still naming it.
 * @module
 */
export * from "../../testing/visits.ts";
