/**
 * The OpenAPI description of `GET /metrics`, beside its handler.
 * @module
 */
import { z } from "zod";
import type { RouteSpec } from "./_openapi/mod.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Operations",
    summary: "Metrics",
    description: "Prometheus text exposition format 0.0.4. Requests by route pattern, method " +
      "and status; the redirect's latency; clicks recorded and flushed, and how long the " +
      "oldest unwritten visit has waited; rate-limit refusals by limit; sweeps and links " +
      "swept; live links read from the store at scrape time. " +
      "Always 200: when the store does not answer within 1 s, `lapse_live_links` is left out " +
      "and `lapse_store_up` is 0. Not rate limited.",
    responses: {
      200: {
        description: "The figures of this instance",
        content: {
          "text/plain; version=0.0.4": {
            schema: z.string(),
            example: "# HELP lapse_http_requests_total Requests answered, by matched route " +
              "pattern, method and status.\n# TYPE lapse_http_requests_total counter\n" +
              'lapse_http_requests_total{route="/:slug",method="GET",status="302"} 1027\n',
          },
        },
      },
    },
    store: false,
  },
};
