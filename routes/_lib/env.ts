/**
 * What every route is built with, and the Hono environment they share.
 * @module
 */
import type { Config } from "../../fresh.config.ts";
import type { HostBlocklist } from "../../lib/blocklist/mod.ts";
import type { ListenAddress } from "../../lib/links/destination.ts";
import type { ClickBuffer } from "../../lib/clicks/mod.ts";
import type { LinkCache } from "../../lib/links/cache.ts";
import type { RemovalWatch } from "../../lib/links/removal_watch.ts";
import type { Store } from "../../lib/kv/store.ts";
import type { Logger } from "../../lib/log/mod.ts";
import type { Metrics } from "../../lib/metrics/mod.ts";
import type { PreviewOptions } from "../../lib/preview/mod.ts";

/** The service's dependencies, handed to every route factory. */
export interface AppDeps {
  /** The validated configuration. */
  config: Config;
  /** The store handle. */
  store: Store;
  /** Resolved links kept in this process for the redirect. */
  linkCache: LinkCache;
  /**
   * This process's following of every instance's removals, for `linkCache`; the server starts
   * it, and a removal waits through it for every instance to forget the link.
   */
  removals: RemovalWatch;
  /** HMAC key of unlock cookies, loaded from the store on first use. */
  unlockKey(): Promise<CryptoKey>;
  /** Where the redirect records visits; flushed to the store off the request path. */
  clicks: ClickBuffer;
  /** The network previews use; production leaves it out and gets DNS and `Deno.connect`. */
  preview?: PreviewOptions;
  /** Where log lines go: stdout in production, nowhere (or a test's list) in tests. */
  log: Logger;
  /** This app's own figures, scraped at `/metrics`. */
  metrics: Metrics;
  /** The operator's blocked destination hosts (`BLOCKED_HOSTS_FILE`), kept up to date. */
  blocklist: HostBlocklist;
  /**
   * Where the server listens, once it does (its port may have been picked for it): a
   * destination there points back to the service.
   */
  listening?: ListenAddress;
}

/** The connection facts `Deno.serve` passes as the second argument of `fetch`. */
export interface ConnectionInfo {
  remoteAddr?: { hostname?: string };
}

/** What the middleware leaves on a request's context for the handlers. */
export interface RequestVariables {
  /** The request's id, sent back as `X-Request-Id` and written on its log lines. */
  requestId: string;
  /**
   * Set when the body is refused as it arrives (over the limit, a 413; cut off, framed wrongly
   * or in too many pieces, a 400): the error thrown once the handler reads it, after the
   * request has been counted against its rate limit.
   */
  bodyRefused?: Error;
  /**
   * Set once the body is read: whether it was read as a form's fields (true) or as JSON (false).
   * A body sent as a form that parses as a JSON object is read as JSON (`curl -d '{...}'`).
   */
  formBody?: boolean;
  /**
   * Set by the redirect on its 302: sent without `X-Request-Id`, and access-logged only with
   * `LOG_REDIRECTS=1` (metrics count it all the same).
   */
  redirect?: boolean;
}

/** The Hono environment of the app: bindings are the connection info. */
export interface AppEnv {
  Bindings: ConnectionInfo;
  Variables: RequestVariables;
}
