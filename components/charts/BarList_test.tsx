import { DOMParser } from "linkedom";
import { render } from "preact-render-to-string";
import { assertEquals, assertNotIncludes } from "../../tests/_helpers/assert.ts";
import { BarList } from "./BarList.tsx";

// deno-lint-ignore no-explicit-any
function parse(html: string): any {
  return new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
}

Deno.test("BarList draws a bar per row, scaled to the largest count", () => {
  const items = [
    { name: "direct", value: 8 },
    { name: "example.com", value: 4 },
    { name: "example.org", value: 1 },
  ];
  const doc = parse(render(<BarList label="Referrers" items={items} empty="None" />));
  assertEquals(doc.querySelector("ol").getAttribute("aria-label"), "Referrers");
  const rows = [...doc.querySelectorAll("li")];
  assertEquals(rows.map((row) => row.querySelector(".bar-name").textContent), [
    "direct",
    "example.com",
    "example.org",
  ]);
  assertEquals(rows.map((row) => row.querySelector(".bar-value").textContent), ["8", "4", "1"]);
  assertEquals(
    [...doc.querySelectorAll("rect.bar")].map((bar) => bar.getAttribute("width")),
    ["100", "50", "12.5"],
  );
  for (const svg of doc.querySelectorAll("svg")) {
    assertEquals(svg.getAttribute("aria-hidden"), "true");
  }
});

Deno.test("BarList says what is missing when there are no rows", () => {
  const doc = parse(render(<BarList label="Devices" items={[]} empty="No visits yet." />));
  assertEquals(doc.querySelector("p").textContent, "No visits yet.");
  assertEquals(doc.querySelectorAll("svg").length, 0);
});

Deno.test("BarList escapes names and links them only where told", () => {
  const hostile = '<img src=x onerror="alert(1)">';
  const items = [
    { name: hostile, value: 2, href: "http://sho.rt/a" },
    { name: "plain", value: 1 },
  ];
  const html = render(<BarList label="Top" items={items} empty="" />);
  assertNotIncludes(html, "<img");
  const doc = parse(html);
  assertEquals(doc.querySelector(".bar-name a").textContent, hostile);
  assertEquals(doc.querySelector(".bar-name a").getAttribute("href"), "http://sho.rt/a");
  assertEquals(doc.querySelectorAll(".bar-name a").length, 1);
  // Each name is isolated from the text around it, so a right-to-left override turns nothing else.
  assertEquals(doc.querySelectorAll("bdi.bar-name").length, 2);
});
