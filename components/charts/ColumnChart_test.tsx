import { DOMParser } from "linkedom";
import { render } from "preact-render-to-string";
import { assertEquals, assertNotIncludes } from "../../tests/_helpers/assert.ts";
import { ColumnChart } from "./ColumnChart.tsx";

// deno-lint-ignore no-explicit-any
function parse(html: string): any {
  return new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
}

const COLUMNS = [
  { label: "11/01", value: 0, detail: "none" },
  { label: "11/02", value: 5, detail: "half" },
  { label: "11/03", value: 10, detail: "all" },
];

Deno.test("ColumnChart draws one bar per column, the largest reaching the top", () => {
  const doc = parse(render(<ColumnChart id="c" title="Clicks" columns={COLUMNS} />));
  const bars = [...doc.querySelectorAll("rect.bar")];
  assertEquals(bars.length, 3);
  const heights = bars.map((bar) => Number(bar.getAttribute("height")));
  assertEquals(heights[0], 0);
  assertEquals(heights[2], 2 * heights[1]!);
  assertEquals(Number(bars[2].getAttribute("y")), 22);
  assertEquals(
    [...doc.querySelectorAll("text.label")].map((t) => t.textContent),
    ["11/01", "11/02", "11/03"],
  );
  assertEquals([...doc.querySelectorAll("text.value")].map((t) => t.textContent), ["0", "5", "10"]);
});

Deno.test("ColumnChart is a labelled image whose description lists every column", () => {
  const doc = parse(render(<ColumnChart id="c" title="Clicks" columns={COLUMNS} />));
  const svg = doc.querySelector("svg");
  assertEquals(svg.getAttribute("role"), "img");
  assertEquals(svg.getAttribute("aria-labelledby"), "c-title c-desc");
  assertEquals(doc.querySelector("#c-title").textContent, "Clicks");
  assertEquals(doc.querySelector("#c-desc").textContent, "none; half; all");
  assertEquals(doc.querySelectorAll("[style]").length, 0);
});

Deno.test("ColumnChart of nothing but zeros draws flat bars, not NaN", () => {
  const html = render(
    <ColumnChart id="z" title="Zero" columns={[{ label: "a", value: 0, detail: "a" }]} />,
  );
  assertNotIncludes(html, "NaN");
  assertEquals(parse(html).querySelector("rect.bar").getAttribute("height"), "0");
});

Deno.test("ColumnChart escapes its labels and details", () => {
  const hostile = "<script>alert(1)</script>";
  const html = render(
    <ColumnChart
      id="x"
      title={hostile}
      columns={[{ label: hostile, value: 1, detail: hostile }]}
    />,
  );
  assertNotIncludes(html, hostile);
  assertEquals(parse(html).querySelector("text.label").textContent, hostile);
});
