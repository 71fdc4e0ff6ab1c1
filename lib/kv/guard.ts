/**
 * Turns every failure of the store into a {@linkcode StoreUnavailableError}, so the edge can
 * tell "the store is down" (503) from a fault in the service's own code (500).
 * @module
 */
import { StoreUnavailableError } from "../errors.ts";

/** Wraps `kv` so that every rejected call, commit and list step throws `StoreUnavailableError`. */
export function guardKv(kv: Deno.Kv): Deno.Kv {
  return guardObject(kv);
}

function guardObject<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object);
      if (typeof value !== "function") return value;
      return function (this: unknown, ...args: unknown[]) {
        let result: unknown;
        try {
          result = value.apply(object, args);
        } catch (error) {
          throw toStoreError(error);
        }
        if (result === object) return this; // chained atomic builders keep the guard
        return guardResult(result);
      };
    },
  });
}

function guardResult(result: unknown): unknown {
  if (result instanceof Promise) {
    return result.catch((error) => Promise.reject(toStoreError(error)));
  }
  if (result instanceof Deno.AtomicOperation || result instanceof Deno.KvListIterator) {
    return guardObject(result);
  }
  return result;
}

function toStoreError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  // Invalid keys or values are the caller's fault, not the store's.
  if (error instanceof TypeError && /key|value|must be|Invalid/i.test(error.message)) return error;
  return new StoreUnavailableError(error);
}
