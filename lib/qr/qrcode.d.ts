/**
 * The part of the `qrcode` package the service uses. Its own types come as `@types/qrcode`,
 * which would bring Node's globals into every module; this declares only what is called.
 * @module
 */

/** Options of `toString`. */
export interface QRCodeToStringOptions {
  type: "svg" | "utf8" | "terminal";
  errorCorrectionLevel?: "L" | "M" | "Q" | "H";
  margin?: number;
  width?: number;
  color?: { dark?: string; light?: string };
}

/** Renders `text` as a QR code in the format `options.type` says. */
export function toString(text: string, options: QRCodeToStringOptions): Promise<string>;

/** The package's default export, holding `toString`. */
declare const QRCode: { toString: typeof toString };
export default QRCode;
