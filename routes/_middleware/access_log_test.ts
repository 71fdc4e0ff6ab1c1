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
  };
  const fromJson = JSON.parse(accessJson(fields));
  const line = accessLine(fields);
  assertEquals(Object.keys(fromJson), Object.keys(line));
  assertEquals({ ...fromJson, time: "" }, { ...line, time: "" });
  assertEquals(new Date(fromJson.time).toISOString(), fromJson.time);
});
