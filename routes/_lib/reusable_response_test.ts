import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { ResponseReuse } from "./reusable_response.ts";

const HEADERS = { location: "https://example.com/a", "cache-control": "no-store" };

Deno.test("Deno.serve gets one shared response, each request with its own id", async () => {
  const reuse = new ResponseReuse();
  const redirect = reuse.build(302, HEADERS, "x-request-id");
  const answered = new Set<Response>();
  await using server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
    const response = redirect.answer(new URL(request.url).searchParams.get("id")!, true);
    answered.add(response);
    return response;
  });
  const ids = Array.from({ length: 300 }, (_, i) => `id-${i}`);
  const seen = await Promise.all(ids.map(async (id) => {
    const response = await fetch(`http://127.0.0.1:${server.addr.port}/a?id=${id}`, {
      redirect: "manual",
    });
    await response.body?.cancel();
    return [
      response.status,
      response.headers.get("x-request-id"),
      response.headers.get("location"),
    ];
  }));
  assertEquals(seen, ids.map((id) => [302, id, HEADERS.location]));
  // The pinned Deno writes a synchronous answer out before the next handler runs, so the
  // sharing stays on; if an upgrade changes that, answers are copies (slower, still right).
  assert(reuse.sharing, "this Deno no longer writes an answer out before the next request");
  assertEquals(answered.size, 1);
});

Deno.test("an answer not handed to Deno.serve is a copy of its own", async () => {
  const reuse = new ResponseReuse();
  const redirect = reuse.build(302, HEADERS, "x-request-id");
  const first = redirect.answer("one", false);
  const second = redirect.answer("two", false);
  assert(first !== second);
  assertEquals([first.status, first.headers.get("x-request-id")], [302, "one"]);
  assertEquals(Object.fromEntries(second.headers), { ...HEADERS, "x-request-id": "two" });
  assertEquals(await second.text(), "");
  assert(reuse.sharing);
});

Deno.test("a shared answer still unread when the next is asked for turns sharing off", () => {
  const reuse = new ResponseReuse();
  const redirect = reuse.build(302, HEADERS, "x-request-id");
  const other = reuse.build(302, { location: "https://example.com/b" }, "x-request-id");
  const first = redirect.answer("one", true);
  // Nothing has read `first`: the runtime is not writing answers out at once.
  const second = other.answer("two", true);
  assertEquals(reuse.sharing, false);
  assert(second !== first);
  assertEquals(first.headers.get("x-request-id"), "one");
  assertEquals(second.headers.get("x-request-id"), "two");
  const third = redirect.answer("three", true);
  assert(third !== first);
  assertEquals(first.headers.get("x-request-id"), "one");
  assertEquals(third.headers.get("x-request-id"), "three");
});

Deno.test("a shared answer that was read is handed out again", () => {
  const reuse = new ResponseReuse();
  const redirect = reuse.build(302, HEADERS, "x-request-id");
  const first = redirect.answer("one", true);
  assertEquals(first.headers.get("x-request-id"), "one"); // reading it, as the runtime does
  const second = redirect.answer("two", true);
  assert(second === first);
  assertEquals(second.headers.get("x-request-id"), "two");
  assertEquals(second.headers.get("location"), HEADERS.location);
  assert(reuse.sharing);
});
