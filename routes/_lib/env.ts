/**
 * What every route is built with, and the Hono environment they share.
 * @module
 */
import type { Config } from "../../fresh.config.ts";
import type { ClickBuffer } from "../../lib/clicks/mod.ts";
import type { Store } from "../../lib/kv/store.ts";
import type { PreviewOptions } from "../../lib/preview/mod.ts";

/** The service's dependencies, handed to every route factory. */
export interface AppDeps {
  /** The validated configuration. */
  config: Config;
  /** The store handle. */
  store: Store;
  /** HMAC key of unlock cookies. */
  unlockKey: CryptoKey;
  /** Where the redirect records visits; flushed to the store off the request path. */
  clicks: ClickBuffer;
  /** The network previews use; production leaves it out and gets DNS and `Deno.connect`. */
  preview?: PreviewOptions;
}

/** The connection facts `Deno.serve` passes as the second argument of `fetch`. */
export interface ConnectionInfo {
  remoteAddr?: { hostname?: string };
}

/** The Hono environment of the app: bindings are the connection info. */
export interface AppEnv {
  Bindings: ConnectionInfo;
}
