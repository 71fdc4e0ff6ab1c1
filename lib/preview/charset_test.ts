import { assertEquals } from "../../tests/_helpers/assert.ts";
import { charsetOfContentType, chooseDecoder, mimeTypeOf, sniffMetaCharset } from "./charset.ts";

const ascii = (text: string) => new TextEncoder().encode(text);

Deno.test("charsetOfContentType reads plain and quoted charset parameters", () => {
  assertEquals(charsetOfContentType("text/html; charset=ISO-8859-1"), "ISO-8859-1");
  assertEquals(charsetOfContentType('text/html;charset="shift_jis"; x=y'), "shift_jis");
  assertEquals(charsetOfContentType("text/html"), null);
  assertEquals(charsetOfContentType("text/html; charset="), null);
});

Deno.test("mimeTypeOf drops parameters and case", () => {
  assertEquals(mimeTypeOf(" Text/HTML ; charset=utf-8"), "text/html");
  assertEquals(mimeTypeOf(""), "");
});

Deno.test("sniffMetaCharset finds <meta charset> and http-equiv, but not in comments", () => {
  assertEquals(sniffMetaCharset(ascii('<meta charset="windows-1252">')), "windows-1252");
  assertEquals(sniffMetaCharset(ascii("<META CHARSET=koi8-r>")), "koi8-r");
  assertEquals(
    sniffMetaCharset(
      ascii('<meta http-equiv="Content-Type" content="text/html; charset=euc-jp">'),
    ),
    "euc-jp",
  );
  assertEquals(sniffMetaCharset(ascii('<!-- <meta charset="gbk"> --><title>x</title>')), null);
  assertEquals(sniffMetaCharset(ascii(`${" ".repeat(5000)}<meta charset="gbk">`)), null);
});

Deno.test("chooseDecoder prefers the BOM, then the header, then <meta>, then UTF-8", () => {
  const meta = ascii('<meta charset="windows-1252">');
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...meta]);
  assertEquals(chooseDecoder("shift_jis", bom).encoding, "utf-8");
  assertEquals(chooseDecoder("shift_jis", meta).encoding, "shift_jis");
  assertEquals(chooseDecoder(null, meta).encoding, "windows-1252");
  assertEquals(chooseDecoder("no-such-charset", meta).encoding, "windows-1252");
  assertEquals(chooseDecoder(null, ascii('<meta charset="utf-16">')).encoding, "utf-8");
  assertEquals(chooseDecoder(null, ascii("<title>x</title>")).encoding, "utf-8");
});
