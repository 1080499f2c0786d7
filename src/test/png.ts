// PNG files written byte by byte, for the tests of images judged by their
// header (a file may claim any size over little or no pixel data) and for
// real pictures to upload. Shared by the service tests and the HTTP/browser
// specs (imported by relative path there): no app imports.
import zlib from "node:zlib";
import { pngClaiming, rgbPng } from "../lib/png";

export { pngClaiming, rgbPng };

/** The reported decompression bomb: an 8000 × 8000 RGBA PNG of zeros, 249 KB that decode to 244 MiB (rows streamed through deflate). */
export async function bombPng(): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on("data", (c: Buffer) => parts.push(c));
  const ended = new Promise((resolve) => deflate.on("end", resolve));
  const row = Buffer.alloc(1 + 8000 * 4);
  for (let y = 0; y < 8000; y++) deflate.write(row);
  deflate.end();
  await ended;
  return pngClaiming(8000, 8000, { idat: Buffer.concat(parts) });
}
