/**
 * The whole URL space, top to bottom: every route is mounted here and nowhere else.
 * @module
 */
import { Hono } from "hono";
import type { ApiCatalogue, RouteSpec } from "./_openapi/mod.ts";
import type { AppDeps, AppEnv } from "./_lib/env.ts";
import { accessLog } from "./_middleware/access_log.ts";
import { bodyLimit } from "./_middleware/body_limit.ts";
import { compress } from "./_middleware/compress.ts";
import { cors } from "./_middleware/cors.ts";
import { crossSite } from "./_middleware/cross_site.ts";
import { handleErrors } from "./_middleware/errors.tsx";
import { plainHost } from "./_middleware/host.ts";
import { countRequests } from "./_middleware/metrics.ts";
import { nosniff } from "./_middleware/nosniff.ts";
import { requestId } from "./_middleware/request_id.ts";
import { staticFiles } from "./_middleware/static_files.ts";
import { noteHeadLengths, withoutFalseLength } from "./_lib/head_method.ts";
import { withoutTrailingSlash } from "./_lib/redirect.ts";
import { methodNotAllowed, notFound } from "./_404.tsx";
import * as slug from "./[slug].tsx";
import * as docs from "./docs.tsx";
import * as metricsRoute from "./metrics.ts";
import * as aboutPage from "./about.tsx";
import * as changelogPage from "./changelog.tsx";
import * as homePage from "./index.tsx";
import * as linksPage from "./links.tsx";
import * as statsPage from "./stats.tsx";
import * as bulk from "./api/bulk.ts";
import * as changelogApi from "./api/changelog.ts";
import * as check from "./api/check.ts";
import * as create from "./api/create.ts";
import * as exportApi from "./api/export.ts";
import * as health from "./api/health.ts";
import * as links from "./api/links.ts";
import * as openapi from "./api/openapi.ts";
import * as preview from "./api/preview.ts";
import * as qr from "./api/qr.ts";
import * as remove from "./api/remove.ts";
import * as stats from "./api/stats.ts";
import * as sweep from "./api/sweep.ts";
import * as unlock from "./api/unlock.tsx";
import * as unshorten from "./api/unshorten.ts";
import * as version from "./api/version.ts";

/** A route module: a factory of a small Hono app, and what its operations take and answer. */
interface RouteModule {
  makeRoute(deps: AppDeps, catalogue: ApiCatalogue): Hono<AppEnv>;
  /** Its operations, for the API document. */
  spec?: RouteSpec;
}

/** The API, path by path. */
const API: Readonly<Record<string, RouteModule>> = {
  "/api/create": create,
  "/api/bulk": bulk,
  "/api/unlock": unlock,
  "/api/check": check,
  "/api/remove": remove,
  "/api/unshorten": unshorten,
  "/api/preview": preview,
  "/api/links": links,
  "/api/stats": stats,
  "/api/export": exportApi,
  "/api/version": version,
  "/api/changelog": changelogApi,
  "/api/sweep": sweep,
  "/api/qr": qr,
  "/api/health": health,
  "/api/openapi.json": openapi,
};

/** Every documented operation, by the path the app mounts it on: the API, metrics, redirect. */
export function apiCatalogue(): ApiCatalogue {
  const catalogue: Record<string, RouteSpec> = {};
  for (const [path, module] of Object.entries(API)) {
    if (module.spec) catalogue[path] = module.spec;
  }
  catalogue["/metrics"] = metricsRoute.spec;
  catalogue["/:slug"] = slug.spec;
  return catalogue;
}

/** A page module: a factory of a small Hono app. */
interface PageModule {
  makeRoute(deps: AppDeps): Hono<AppEnv>;
}

/** The pages, path by path; mounted before the redirect so no slug shadows them. */
const PAGES: Readonly<Record<string, PageModule>> = {
  "/": homePage,
  "/links": linksPage,
  "/stats": statsPage,
  "/about": aboutPage,
  "/changelog": changelogPage,
};

/** Builds the service's HTTP app over `deps`. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const methods = new Map<string, string[]>();
  const catalogue = apiCatalogue();
  app.onError(handleErrors({ log: deps.log }));
  app.notFound((c) => wrongMethod(c.req.path, methods) ?? notFound(c, deps));
  app.use(noteHeadLengths());
  app.use(requestId());
  app.use(accessLog({ log: deps.log, logRedirects: deps.config.logRedirects }));
  app.use(countRequests({ metrics: deps.metrics }));
  app.use(cors({ methodsOf: (path) => methods.get(path) }));
  app.use(nosniff());
  app.use(plainHost());
  // Before the body is read and before any route counts, takes or records anything.
  app.use(crossSite({ baseOrigin: deps.config.baseUrl }));
  app.use(bodyLimit());
  app.use(compress());
  for (const [path, module] of Object.entries(API)) {
    app.route(path, module.makeRoute(deps, catalogue));
  }
  app.route("/metrics", metricsRoute.makeRoute(deps));
  app.use("/static/*", staticFiles({ root: "./", log: deps.log }));
  app.route("/docs", docs.makeRoute(deps, catalogue));
  for (const [path, module] of Object.entries(PAGES)) app.route(path, module.makeRoute(deps));
  for (const path of ["/docs", ...Object.keys(PAGES)]) {
    // A page asked for with a trailing slash (a short link's is the slug route's; an API path
    // with one is a 404).
    if (path !== "/") app.get(`${path}/`, (c) => withoutTrailingSlash(c, path));
  }
  app.route("/", slug.makeRoute(deps));
  collectMethods(app, methods);
  app.all("/api/*", (c) => wrongMethod(c.req.path, methods) ?? notFound(c, deps));
  // The redirect of a cached link skips the router: it is most of the traffic. A Host header
  // with a `/` in it (see `plainHost`) only makes it miss, leaving the request to the router.
  const fast = slug.fastRedirect(deps);
  const route = app.fetch;
  app.fetch = (request, connection, context) => {
    const fastAnswer = fast(request, connection);
    if (fastAnswer !== null) return fastAnswer;
    const answer = route(request, connection, context);
    if (request.method !== "HEAD") return answer;
    return Promise.resolve(answer).then((response) => withoutFalseLength(request, response));
  };
  return app;
}

/** The top-level path segments the app serves; each is a reserved word. */
export function topLevelSegments(app: Hono<AppEnv>): string[] {
  const segments = app.routes
    .map((route) => route.path.split("/")[1] ?? "")
    .filter((segment) => segment !== "" && !segment.startsWith(":") && segment !== "*");
  return [...new Set(segments)];
}

// Each path the app routes (one without parameters or wildcards) and the methods it answers.
function collectMethods(app: Hono<AppEnv>, methods: Map<string, string[]>): void {
  for (const route of app.routes) {
    if (route.method === "ALL" || /[:*]/.test(route.path)) continue;
    const list = methods.get(route.path) ?? [];
    if (!list.includes(route.method)) list.push(route.method);
    if (route.method === "GET" && !list.includes("HEAD")) list.push("HEAD");
    methods.set(route.path, list);
  }
}

// 405 for a path routed for other methods; an API path answers OPTIONS too (the preflight).
function wrongMethod(path: string, methods: Map<string, string[]>): Response | null {
  const allowed = methods.get(path);
  if (!allowed) return null;
  const api = path.startsWith("/api/");
  return methodNotAllowed(path, api ? [...allowed, "OPTIONS"] : allowed);
}
