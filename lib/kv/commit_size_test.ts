import { assertEquals } from "../../tests/_helpers/assert.ts";
import { type CommitCost, groupsWithin } from "./commit_size.ts";

const limits: CommitCost = { checks: 4, mutations: 10, keyBytes: 100 };
const costs = (...list: [number, number, number][]) =>
  list.map(([checks, mutations, keyBytes]) => ({ checks, mutations, keyBytes }));
const grouped = (
  items: CommitCost[],
  maxItems?: number,
) => [...groupsWithin(items.keys(), (i) => items[i]!, limits, maxItems)];

Deno.test("groups keep within every limit, in order", () => {
  assertEquals(grouped(costs([2, 1, 1], [2, 1, 1], [1, 1, 1])), [[0, 1], [2]]);
  assertEquals(grouped(costs([1, 6, 1], [1, 4, 1], [1, 1, 1])), [[0, 1], [2]]);
  assertEquals(grouped(costs([1, 1, 60], [1, 1, 60], [1, 1, 40])), [[0], [1, 2]]);
});

Deno.test("groups hold at most maxItems", () => {
  assertEquals(grouped(costs([0, 0, 0], [0, 0, 0], [0, 0, 0]), 2), [[0, 1], [2]]);
});

Deno.test("an item over the limits alone is a group of its own", () => {
  assertEquals(grouped(costs([1, 1, 1], [1, 11, 1], [1, 1, 1])), [[0], [1], [2]]);
});
