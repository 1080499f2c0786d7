// PNG files written byte by byte: a header claiming any size over the pixel
// data given (the tests of images judged by their header), and real RGB
// pictures (the sample data's claim photos, the tests' uploads). No app imports:
// the HTTP and browser specs import it by relative path too.
import zlib from "node:zlib";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(zlib.crc32(body), 8 + data.length);
  return out;
}

/**
 * A PNG whose header says `width` × `height` (colour type and bit depth as
 * given; 6 = RGBA) over the compressed pixel data `idat` — by default a few
 * bytes, for tests where only the header matters.
 */
export function pngClaiming(
  width: number,
  height: number,
  {
    colorType = 6,
    bitDepth = 8,
    idat = zlib.deflateSync(Buffer.alloc(16)),
  }: { colorType?: number; bitDepth?: number; idat?: Buffer } = {},
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([bitDepth, colorType, 0, 0, 0], 8);
  return Buffer.concat([SIGNATURE, chunk("IHDR", header), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]);
}

/** A real RGB picture of `width` × `height`, each pixel's colour from `colour(x, y)`. */
export function rgbPng(width: number, height: number, colour: (x: number, y: number) => [number, number, number]): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set(colour(x, y), 1 + x * 3);
    rows.push(row);
  }
  return pngClaiming(width, height, { colorType: 2, idat: zlib.deflateSync(Buffer.concat(rows)) });
}
