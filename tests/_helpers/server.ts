/**
 * The service-process helpers, now in `testing/server.ts`; this path stays for the code still
 * naming it.
 * @module
 */
export * from "../../testing/server.ts";
