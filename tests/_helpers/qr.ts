/**
 * Reading back a QR code the service drew: its SVG modules become pixels, and jsQR decodes them.
 * @module
 */
import jsqr, { type QRCode } from "jsqr";

type Decode = (data: Uint8ClampedArray, width: number, height: number) => QRCode | null;

// jsqr is CommonJS: its types name the function as the default export, which Deno's interop
// puts on `.default` of the module object it hands over.
const jsQR = (jsqr as unknown as { default: Decode }).default;

/** The dark modules of an SVG drawn by `qrcode`, as rows of booleans, and the image's size. */
export interface ModuleGrid {
  /** Modules per side, quiet zone included (the SVG's `viewBox`). */
  size: number;
  /** `dark[y][x]`: whether the module at column x, row y is dark. */
  dark: boolean[][];
}

/**
 * Parses the SVG `qrcode` writes: a `viewBox="0 0 N N"` and one stroked path of horizontal runs,
 * `M x y` (absolute move, y at the middle of a row), `m dx dy` (relative move) and `h n`
 * (a dark run of n modules).
 */
export function parseQrSvg(svg: string): ModuleGrid {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  if (!Number.isInteger(size) || size <= 0) throw new Error("no square viewBox in the SVG");
  const path = /<path[^>]*\bstroke="[^"]*"[^>]*\bd="([^"]+)"/.exec(svg)?.[1];
  if (path === undefined) throw new Error("no stroked path in the SVG");
  const dark = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  let x = 0;
  let y = 0;
  for (const [, command, args] of path.matchAll(/([MmHhVv])([^MmHhVv]*)/g)) {
    const numbers = args!.trim().split(/[\s,]+/).filter(Boolean).map(Number);
    if (command === "M") [x, y] = [numbers[0]!, numbers[1]!];
    else if (command === "m") [x, y] = [x + numbers[0]!, y + numbers[1]!];
    else if (command === "h") {
      const row = Math.floor(y);
      for (let i = 0; i < numbers[0]!; i++) dark[row]![x + i] = true;
      x += numbers[0]!;
    } else throw new Error(`unexpected path command ${command}`);
  }
  return { size, dark };
}

/**
 * Decodes a QR code SVG: draws its modules `scale` pixels wide, inside a further white border
 * of four modules, into an RGBA bitmap, and hands it to jsQR. Returns the text, or `null`.
 */
export function decodeQrSvg(svg: string, scale = 6): string | null {
  const { size, dark } = parseQrSvg(svg);
  const border = 4;
  const side = (size + 2 * border) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      if (!dark[row]![column]) continue;
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const px = (column + border) * scale + dx;
          const py = (row + border) * scale + dy;
          const at = (py * side + px) * 4;
          pixels[at] = pixels[at + 1] = pixels[at + 2] = 0;
        }
      }
    }
  }
  return jsQR(pixels, side, side)?.data ?? null;
}
