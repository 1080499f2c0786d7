// Images judged by their header before anything decodes them (every upload
// goes through readMultipart), and decoded only on the thread pool.
import zlib from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { pngClaiming } from "@/test/png";
import { pdfImage, shrinkLogo } from "./images";
import { readMultipart } from "./multipart";
import { imageHeader, imageRefusal, MAX_IMAGE_DECODED_BYTES, MAX_IMAGE_EDGE } from "./sniff";

/** A PNG whose header says `width` × `height` (colour type and depth as given) over a tiny IDAT: only the header matters here. */
const pngHeaderOnly = (width: number, height: number, colorType = 6, bitDepth = 8) =>
  pngClaiming(width, height, { colorType, bitDepth });

/** A baseline JPEG's header says its size in SOF0; rewrite it to claim `width` × `height`. */
async function jpegClaiming(width: number, height: number, progressive = false): Promise<Buffer> {
  const jpeg = Buffer.from(
    await sharp({ create: { width: 8, height: 8, channels: 3, background: "#336699" } })
      .jpeg({ progressive })
      .withExif({ IFD0: { Copyright: "x".repeat(2000) } })
      .toBuffer(),
  );
  const sof = progressive ? 0xc2 : 0xc0;
  for (let i = 2; i < jpeg.length - 9; i++) {
    if (jpeg[i] === 0xff && jpeg[i + 1] === sof) {
      jpeg.writeUInt16BE(height, i + 5);
      jpeg.writeUInt16BE(width, i + 7);
      return jpeg;
    }
  }
  throw new Error("no SOF in the test JPEG");
}

function formRequest(file: Buffer, name: string) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(file)]), name);
  return new Request("http://x/upload", { method: "POST", body: form });
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("imageHeader", () => {
  it("reads PNG and JPEG sizes (EXIF before the frame, baseline and progressive), without decoding", async () => {
    expect(imageHeader(pngHeaderOnly(8000, 8000), "image/png")).toEqual({
      width: 8000,
      height: 8000,
      channels: 4,
      bytesPerSample: 1,
    });
    expect(imageHeader(pngHeaderOnly(10, 20, 0, 16), "image/png")).toEqual({
      width: 10,
      height: 20,
      channels: 1,
      bytesPerSample: 2,
    });
    expect(imageHeader(pngHeaderOnly(10, 20, 3, 8), "image/png")).toMatchObject({ channels: 4 });
    expect(imageHeader(await jpegClaiming(5000, 3000), "image/jpeg")).toEqual({
      width: 5000,
      height: 3000,
      channels: 3,
      bytesPerSample: 1,
    });
    expect(imageHeader(await jpegClaiming(640, 480, true), "image/jpeg")).toMatchObject({ width: 640, height: 480 });
  });

  it("is null when the header cannot be read", () => {
    const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(imageHeader(Buffer.concat([sig, Buffer.from("IHDR test image")]), "image/png")).toBeNull();
    expect(imageHeader(pngHeaderOnly(0, 10), "image/png")).toBeNull();
    expect(imageHeader(pngHeaderOnly(10, 10, 5), "image/png")).toBeNull(); // no such colour type
    expect(imageHeader(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), "image/jpeg")).toBeNull();
    // A scan before any frame header.
    expect(imageHeader(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 4, 0, 0]), "image/jpeg")).toBeNull();
  });
});

describe("imageRefusal: the limits", () => {
  it(`allows up to ${MAX_IMAGE_EDGE} × ${MAX_IMAGE_EDGE} and ${MAX_IMAGE_DECODED_BYTES / 1024 / 1024} MiB decoded`, async () => {
    expect(imageRefusal(pngHeaderOnly(4096, 4096), "image/png")).toBeNull(); // 64 MiB exactly
    expect(imageRefusal(pngHeaderOnly(4097, 1), "image/png")).toBe(
      "Choose an image of at most 4096 × 4096 pixels (this one is 4097 × 1)",
    );
    expect(imageRefusal(await jpegClaiming(4000, 5000), "image/jpeg")).toBe(
      "Choose an image of at most 4096 × 4096 pixels (this one is 4000 × 5000)",
    );
    // 16-bit RGBA: 4096 × 4096 × 4 × 2 = 128 MiB.
    expect(imageRefusal(pngHeaderOnly(4096, 4096, 6, 16), "image/png")).toBe(
      "Choose a smaller image: this one takes 128 MiB to open (at most 64 MiB)",
    );
    expect(imageRefusal(Buffer.from("%PDF-1.4\n%%EOF\n"), "application/pdf")).toBeNull();
  });
});

describe("every upload: readMultipart judges images by their header", () => {
  it("refuses the 8000 × 8000 PNG with 422 naming the field; takes a small real image", async () => {
    const err = await refusal(
      readMultipart(formRequest(pngHeaderOnly(8000, 8000), "bomb.png"), { files: ["file"], maxFileBytes: 1024 * 1024 }),
    );
    expect([err.status, err.code, err.extra.errors]).toEqual([
      422,
      "validation_failed",
      [{ path: "file", message: "Choose an image of at most 4096 × 4096 pixels (this one is 8000 × 8000)" }],
    ]);
    const jpeg = await refusal(
      readMultipart(formRequest(await jpegClaiming(9000, 9000), "photo.jpg"), { files: ["file"], maxFileBytes: 1024 * 1024 }),
    );
    expect(jpeg.extra.errors).toEqual([
      { path: "file", message: "Choose an image of at most 4096 × 4096 pixels (this one is 9000 × 9000)" },
    ]);
    const headless = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(20)]);
    const damaged = await refusal(readMultipart(formRequest(headless, "x.png"), { files: ["file"], maxFileBytes: 1024 }));
    expect(damaged.extra.errors).toEqual([
      { path: "file", message: "Choose an image that is not damaged: its size could not be read" },
    ]);

    const ok = await readMultipart(formRequest(await jpegClaiming(8, 8), "ok.jpg"), {
      files: ["file"],
      maxFileBytes: 1024 * 1024,
    });
    expect(ok.files.file?.contentType).toBe("image/jpeg");
  });
});

describe("decoding off the event loop", () => {
  it("shrinkLogo fits inside 512 × 512; pdfImage gives deflated RGB and alpha of the asked bounds", async () => {
    const png = await sharp({ create: { width: 1024, height: 256, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } } })
      .png()
      .toBuffer();
    expect(await sharp(await shrinkLogo(png, "image/png")).metadata()).toMatchObject({ format: "png", width: 512, height: 128 });
    const img = await pdfImage(png, 420, 144);
    expect([img.sourceWidth, img.sourceHeight, img.width, img.height]).toEqual([1024, 256, 420, 105]);
    expect(zlib.inflateSync(img.rgb).length).toBe(420 * 105 * 3);
    expect(zlib.inflateSync(img.alpha!)).toEqual(Buffer.alloc(420 * 105, 128));
    const opaque = await pdfImage(await sharp(png).flatten().jpeg().toBuffer(), 100, 100);
    expect(opaque.alpha).toBeNull();
  });
});
