/**
 * The API described as data, and the OpenAPI 3.1 document built from it.
 * @module
 */
export * from "./catalogue.ts";
export * from "./document.ts";
export * from "./responses.ts";
