/**
 * Country of an address from the offline `geoip-country` database, loaded on first use so
 * start-up stays fast and a process that never flushes a click never pays its memory.
 * @module
 */
import type { CountryLookup } from "./classify.ts";

let database: Promise<{ lookup(address: string): { country: string } | null }> | null = null;

/** A lookup backed by `geoip-country`, loaded once. */
export async function loadGeoipLookup(): Promise<CountryLookup> {
  database ??= import("geoip-country").then((module) => module.default);
  const geoip = await database;
  return (address) => geoip.lookup(address)?.country ?? null;
}
