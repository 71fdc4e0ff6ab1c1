/**
 * QR codes of short URLs, as SVG.
 * @module
 */
// The QR library is loaded on first use: it costs some 12 MB of memory a process that never
// draws a code should not carry.
type QrLibrary = typeof import("./qrcode.d.ts");
let library: Promise<QrLibrary> | null = null;

function loadLibrary(): Promise<QrLibrary> {
  // @deno-types="./qrcode.d.ts"
  return library ??= import("qrcode");
}

/** Options of {@linkcode renderQrSvg}. */
export interface QrOptions {
  /** Error correction level; default `M` (15 % of the code may be damaged). */
  errorCorrection?: "L" | "M" | "Q" | "H";
  /** Quiet zone around the code, in modules; default 4, as the QR standard asks. */
  margin?: number;
}

/** An SVG image of a QR code holding `text`, with a white background and black modules. */
export async function renderQrSvg(text: string, options: QrOptions = {}): Promise<string> {
  const QRCode = (await loadLibrary()).default;
  return await QRCode.toString(text, {
    type: "svg",
    errorCorrectionLevel: options.errorCorrection ?? "M",
    margin: options.margin ?? 4,
    color: { dark: "#000000", light: "#ffffff" },
  });
}
