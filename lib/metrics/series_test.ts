import { assertEquals } from "../../tests/_helpers/assert.ts";
import { Counter, Histogram, LabelledCounter, RequestCounter } from "./series.ts";

Deno.test("a counter only goes up", () => {
  const counter = new Counter();
  counter.inc();
  counter.inc(4);
  counter.inc(-3);
  counter.inc(NaN);
  assertEquals(counter.value, 5);
});

Deno.test("a labelled counter shows known labels at 0 and counts each label apart", () => {
  const counter = new LabelledCounter("limit", { known: ["create", "bulk"] });
  counter.inc("bulk");
  counter.inc("bulk", 2);
  counter.inc("unlock_link");
  assertEquals([...counter.entries()], [["create", 0], ["bulk", 3], ["unlock_link", 1]]);
  assertEquals(counter.get("nothing"), 0);
});

Deno.test("requests are counted by route, method and status, odd methods as OTHER", () => {
  const requests = new RequestCounter();
  requests.inc("/:slug", "GET", 302);
  requests.inc("/:slug", "GET", 302);
  requests.inc("/:slug", "HEAD", 302);
  requests.inc("/api/create", "POST", 201);
  requests.inc("/*", "PROPFIND", 404);
  assertEquals(requests.get("/:slug", "GET", 302), 2);
  assertEquals([...requests.series()], [
    { route: "/:slug", method: "GET", status: 302, count: 2 },
    { route: "/:slug", method: "HEAD", status: 302, count: 1 },
    { route: "/api/create", method: "POST", status: 201, count: 1 },
    { route: "/*", method: "OTHER", status: 404, count: 1 },
  ]);
});

Deno.test("a histogram's buckets are cumulative, with its sum and count", () => {
  const histogram = new Histogram([0.01, 0.001, 0.1]);
  for (const value of [0.0005, 0.001, 0.002, 0.05, 3, Infinity]) histogram.observe(value);
  const snapshot = histogram.snapshot();
  assertEquals(snapshot.bounds, [0.001, 0.01, 0.1]);
  assertEquals(snapshot.cumulative, [2, 3, 4]);
  assertEquals(snapshot.count, 5);
  assertEquals(Math.round(snapshot.sum * 10000), 30535);
});
