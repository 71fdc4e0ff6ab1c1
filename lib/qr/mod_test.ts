import { assert, assertEquals, assertStringIncludes } from "../../tests/_helpers/assert.ts";
import { decodeQrSvg, parseQrSvg } from "../../tests/_helpers/qr.ts";
import { renderQrSvg } from "./mod.ts";

Deno.test("a QR code reads back as the text it was made of", async () => {
  for (const text of ["http://sho.rt/abc", "https://lapse.example/Some-Longer_slug-0123456789"]) {
    const svg = await renderQrSvg(text);
    assertStringIncludes(svg, "<svg");
    assertEquals(decodeQrSvg(svg), text);
  }
});

Deno.test("a QR code keeps a quiet zone of four modules", async () => {
  const { size, dark } = parseQrSvg(await renderQrSvg("http://sho.rt/abc"));
  for (let i = 0; i < size; i++) {
    for (const edge of [0, 1, 2, 3, size - 1, size - 2, size - 3, size - 4]) {
      assert(!dark[edge]![i] && !dark[i]![edge], `module ${i},${edge} is dark`);
    }
  }
  // The finder pattern starts right inside the quiet zone.
  assert(dark[4]![4]);
});
