/**
 * Turns every failure of the store into a {@linkcode StoreUnavailableError}, so the edge can
 * tell "the store is down" (503) from a fault in the service's own code (500). The guarded
 * database can also be marked down, and replaced by a fresh one, while the service runs.
 * @module
 */
import { StoreUnavailableError } from "../errors.ts";

/** What a guarded database is connected to, and whether it is usable. */
export interface KvSlot {
  /** The database every call goes to. */
  kv: Deno.Kv;
  /** Why the store is down, or `null` while it works. */
  down: Error | null;
  /** Called once when the guarded database is closed. */
  onClose?: () => void;
}

/** Wraps `kv` so that every rejected call, commit and list step throws `StoreUnavailableError`. */
export function guardKv(kv: Deno.Kv): Deno.Kv {
  return guardSlot({ kv, down: null });
}

/**
 * Wraps whatever database `slot` holds, as {@linkcode guardKv} does; while `slot.down` is set,
 * every call fails with `StoreUnavailableError` before it reaches the database.
 */
export function guardSlot(slot: KvSlot): Deno.Kv {
  return new Proxy(slot.kv, {
    get(_, property) {
      const kv = slot.kv;
      const value = Reflect.get(kv, property, kv);
      if (typeof value !== "function") return value;
      return function (this: unknown, ...args: unknown[]) {
        if (property === "close") {
          slot.onClose?.();
          return value.apply(kv, args);
        }
        if (slot.down) return refusal(property, slot.down);
        let result: unknown;
        try {
          result = value.apply(kv, args);
        } catch (error) {
          throw toStoreError(error);
        }
        // A list's steps are guarded whatever iterator the database gave.
        if (property === "list" && typeof result === "object" && result !== null) {
          return guardObject(result, slot);
        }
        return guardResult(result, slot);
      };
    },
  });
}

function guardObject<T extends object>(target: T, slot: KvSlot): T {
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object);
      if (typeof value !== "function") return value;
      return function (this: unknown, ...args: unknown[]) {
        if (slot.down && (property === "commit" || property === "next")) {
          return Promise.reject(new StoreUnavailableError(slot.down));
        }
        let result: unknown;
        try {
          result = value.apply(object, args);
        } catch (error) {
          throw toStoreError(error);
        }
        if (result === object) return this; // chained atomic builders keep the guard
        return guardResult(result, slot);
      };
    },
  });
}

function guardResult(result: unknown, slot: KvSlot): unknown {
  if (result instanceof Promise) {
    return result.catch((error) => Promise.reject(toStoreError(error)));
  }
  if (result instanceof Deno.AtomicOperation || result instanceof Deno.KvListIterator) {
    return guardObject(result, slot);
  }
  return result;
}

/** What a call on a store marked down gives: a failure of the call's own kind. */
function refusal(property: string | symbol, cause: Error): unknown {
  const error = new StoreUnavailableError(cause);
  if (property === "list") {
    return { cursor: "", next: () => Promise.reject(error), [Symbol.asyncIterator]: selfIterator };
  }
  if (property === "watch") {
    return new ReadableStream({ start: (controller) => controller.error(error) });
  }
  if (property === "atomic") {
    // Building an atomic touches nothing; only its commit fails.
    const refused: Record<string, unknown> = { commit: () => Promise.reject(error) };
    for (const name of ["check", "set", "delete", "sum", "min", "max", "enqueue", "mutate"]) {
      refused[name] = () => refused;
    }
    return refused;
  }
  return Promise.reject(error);
}

function selfIterator<T>(this: T): T {
  return this;
}

/**
 * Whether `error` is the store refusing a commit for its size: too many checks or mutations,
 * or keys or values too large in total. Such a commit never succeeds; a smaller one may.
 */
export function isTooLarge(error: unknown): boolean {
  return error instanceof TypeError && /too large|too many/i.test(error.message);
}

function toStoreError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  // Invalid keys or values, and a commit past the store's limits, are the caller's fault, not
  // the store's.
  if (isTooLarge(error)) return error;
  if (error instanceof TypeError && /key|value|must be|Invalid/i.test(error.message)) return error;
  return new StoreUnavailableError(error);
}
