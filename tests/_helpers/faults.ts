/**
 * A KV that fails on demand, for tests of store faults, and tells how many commits and reads
 * of many keys it runs at once.
 * @module
 */

/** Switches of {@linkcode faultyKv}; change them while the test runs. */
export interface Faults {
  /** Commits still to fail; each failure counts down. */
  commits: number;
  /** Commits to let through before those start failing (default 0); each counts down. */
  passing?: number;
  /**
   * Commits that land and then fail all the same, as when a remote store's answer is lost
   * (default 0); each counts down.
   */
  landing?: number;
  /**
   * Commits that land and then answer that their check failed, as a retry of a commit that had
   * landed does (default 0); each counts down.
   */
  landingRefused?: number;
  /**
   * Commits that answer that their check failed without landing, as when another writer moved
   * first (default 0); each counts down.
   */
  refusing?: number;
  /** While true, every read and write fails. */
  down: boolean;
  /** When given, kept up to date: commits under way now, and the most there were at once. */
  committing?: { now: number; most: number };
  /** When given, kept up to date: `getMany` reads under way now, and the most at once. */
  reading?: { now: number; most: number };
  /** When given, called as each commit starts, before it reaches the store. */
  onCommit?: () => void;
  /** When given, called as each write starts: every commit, `set` and `delete`. */
  onWrite?: () => void;
}

function fail(): Promise<never> {
  return Promise.reject(new Error("simulated store failure"));
}

/** Wraps `kv` so that commits, or everything, fail as `faults` says. */
export function faultyKv(kv: Deno.Kv, faults: Faults): Deno.Kv {
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "atomic") return () => faultyAtomic(target.atomic(), faults);
      if (property === "list") {
        return (...args: unknown[]) =>
          faults.down
            ? {
              cursor: "",
              next: fail,
              [Symbol.asyncIterator]() {
                return this; // as the store's own iterator does
              },
            }
            : value.apply(target, args);
      }
      if (property === "close") return value.bind(target);
      if (property === "getMany") {
        return (...args: unknown[]) =>
          watched(faults.reading, () => faults.down ? fail() : value.apply(target, args));
      }
      const write = property === "set" || property === "delete";
      return (...args: unknown[]) => {
        if (write) faults.onWrite?.();
        return faults.down ? fail() : value.apply(target, args);
      };
    },
  });
}

function faultyAtomic(atomic: Deno.AtomicOperation, faults: Faults): Deno.AtomicOperation {
  const proxy: Deno.AtomicOperation = new Proxy(atomic, {
    get(op, name) {
      if (name === "commit") {
        return () =>
          watched(faults.committing, () => {
            faults.onCommit?.();
            faults.onWrite?.();
            const refused = { ok: false } as Deno.KvCommitError;
            if (take(faults, "refusing")) return Promise.resolve(refused);
            if (take(faults, "landingRefused")) return op.commit().then(() => refused);
            if (take(faults, "landing")) return op.commit().then(fail);
            if (!faults.down && faults.commits <= 0) return op.commit();
            if (take(faults, "passing")) return op.commit();
            faults.commits = Math.max(0, faults.commits - 1);
            return fail();
          });
      }
      const member = Reflect.get(op, name, op);
      if (typeof member !== "function") return member;
      return (...args: unknown[]) => {
        const result = member.apply(op, args);
        return result === op ? proxy : result;
      };
    },
  });
  return proxy;
}

/** Takes one of the commits counted down under `name`, when the store is up and one is left. */
function take(
  faults: Faults,
  name: "refusing" | "landingRefused" | "landing" | "passing",
): boolean {
  if (faults.down || (faults[name] ?? 0) <= 0) return false;
  faults[name] = faults[name]! - 1;
  return true;
}

/** Runs `op`, counted in `under` (when given) while it is under way. */
async function watched<T>(
  under: { now: number; most: number } | undefined,
  op: () => Promise<T>,
): Promise<T> {
  if (under === undefined) return op();
  under.now++;
  under.most = Math.max(under.most, under.now);
  try {
    return await op();
  } finally {
    under.now--;
  }
}

/** A call an atomic operation was built with: the method's name and its arguments. */
export interface AtomicCall {
  name: string | symbol;
  args: unknown[];
}

/**
 * Wraps `kv` so that a commit fails, as when the store does not answer, whenever `fails` says
 * so of the calls its atomic operation was built with; every other commit goes through.
 */
export function kvFailingCommits(kv: Deno.Kv, fails: (calls: AtomicCall[]) => boolean): Deno.Kv {
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "atomic") return typeof value === "function" ? value.bind(target) : value;
      return () => {
        const calls: AtomicCall[] = [];
        const proxy: Deno.AtomicOperation = new Proxy(target.atomic(), {
          get(op, name) {
            if (name === "commit") return () => fails(calls) ? fail() : op.commit();
            const member = Reflect.get(op, name, op);
            if (typeof member !== "function") return member;
            return (...args: unknown[]) => {
              calls.push({ name, args });
              const result = member.apply(op, args);
              return result === op ? proxy : result;
            };
          },
        });
        return proxy;
      };
    },
  });
}
