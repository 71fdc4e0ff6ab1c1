import { assertEquals } from "../../tests/_helpers/assert.ts";
import { accessJson, accessLine } from "./access_log.ts";

Deno.test("the hot path's access JSON is the access line, written by hand", () => {
  const fields = {
    method: "GET",
    route: "/:slug",
    path: "/abc-_1",
    status: 302,
    durationMs: 0.042,
    requestId: "1f0c9a2e-1a2b",
    at: Date.UTC(2026, 10, 23, 18, 0, 0, 5),
  };
  const fromJson = JSON.parse(accessJson(fields));
  const line = accessLine(fields, fields.at);
  assertEquals(Object.keys(fromJson), Object.keys(line));
  assertEquals(fromJson, line);
  assertEquals(fromJson.time, "2026-11-23T18:00:00.005Z");
});
