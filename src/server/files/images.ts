// Decoding images, never on the event loop: sharp (libvips) works on libuv's
// thread pool, so a request that resizes an image does not stall the others.
// Only images whose header passed `imageRefusal` (./sniff) come here, and
// sharp refuses again anything over MAX_IMAGE_EDGE² pixels, so a file that
// lies in its header cannot make it decode more. At most two images are
// decoded at once per instance, bounding the memory a burst can take.
import zlib from "node:zlib";
import { promisify } from "node:util";
import sharp, { type SharpOptions } from "sharp";
import { limiter } from "@/server/concurrency";
import { validationError } from "@/server/errors";
import { MAX_IMAGE_EDGE } from "./sniff";

const deflate = promisify(zlib.deflate);

/** The longest side of a stored logo: sharp enough on a certificate (48 pt high) and the portal's header. */
export const LOGO_MAX_EDGE = 512;

const SHARP_OPTIONS: SharpOptions = {
  limitInputPixels: MAX_IMAGE_EDGE * MAX_IMAGE_EDGE,
  // A truncated photo is drawn as far as it goes, as browsers do; only what cannot be decoded at all fails.
  failOn: "none",
  sequentialRead: true,
};

// No cache of decoded images between requests: each logo is decoded once, at upload.
sharp.cache(false);

/** Decodes under way at once, at most. */
const decoding = limiter(2);

const undecodable = () =>
  validationError([{ path: "file", message: "Choose an image that is not damaged: it could not be opened" }]);

/**
 * The logo to keep for an uploaded PNG or JPEG: turned upright (EXIF
 * orientation), fitted inside LOGO_MAX_EDGE × LOGO_MAX_EDGE (never enlarged),
 * its metadata dropped, and encoded again in the same format. 422 when it
 * cannot be decoded.
 */
export async function shrinkLogo(bytes: Buffer, type: "image/png" | "image/jpeg"): Promise<Buffer> {
  return decoding(async () => {
    try {
      const image = sharp(bytes, SHARP_OPTIONS)
        .rotate()
        .resize(LOGO_MAX_EDGE, LOGO_MAX_EDGE, { fit: "inside", withoutEnlargement: true });
      return await (
        type === "image/png"
          ? image.png({ compressionLevel: 9, adaptiveFiltering: true })
          : image.jpeg({ quality: 88, mozjpeg: true })
      ).toBuffer();
    } catch {
      throw undecodable();
    }
  });
}

/** An image ready to be written into a PDF as is: 8-bit RGB and, when it has one, its alpha channel, both deflated. */
export interface PdfImage {
  /** The source's own size, upright (EXIF orientation applied). */
  sourceWidth: number;
  sourceHeight: number;
  /** The pixels written, fitted in the bounds asked for. */
  width: number;
  height: number;
  /** FlateDecode streams: width × height × 3 bytes of RGB, and width × height bytes of alpha (or null). */
  rgb: Uint8Array;
  alpha: Uint8Array | null;
}

/**
 * Decodes an image (fitted inside `maxWidth` × `maxHeight`, never enlarged)
 * into the streams a PDF image XObject takes, all on the thread pool:
 * pdf-lib's own PNG path decodes and deflates in JavaScript, on the event loop
 * (≈ 0.8 µs a pixel). Throws when the image cannot be decoded.
 */
export async function pdfImage(bytes: Uint8Array, maxWidth: number, maxHeight: number): Promise<PdfImage> {
  return decoding(async () => {
    const base = sharp(bytes, SHARP_OPTIONS)
      .rotate()
      .resize(maxWidth, maxHeight, { fit: "inside", withoutEnlargement: true })
      .toColourspace("srgb");
    const [{ data, info }, { hasAlpha, autoOrient }] = await Promise.all([
      base.clone().removeAlpha().raw().toBuffer({ resolveWithObject: true }),
      sharp(bytes, SHARP_OPTIONS).metadata(),
    ]);
    const alpha = hasAlpha ? await base.clone().ensureAlpha().extractChannel(3).raw().toBuffer() : null;
    const [rgb, mask] = await Promise.all([deflate(data), alpha ? deflate(alpha) : null]);
    return {
      sourceWidth: autoOrient.width,
      sourceHeight: autoOrient.height,
      width: info.width,
      height: info.height,
      rgb,
      alpha: mask,
    };
  });
}
