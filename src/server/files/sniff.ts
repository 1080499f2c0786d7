// What a file is, judged by its first bytes only — never by its name or the
// type the sender declared. Three formats are allowed; their signatures are
// fixed by their specifications (PDF 1.7 §7.5.2, PNG §5.2, JPEG SOI + marker).
export type AllowedContentType = "application/pdf" | "image/png" | "image/jpeg";

export const ALLOWED_TYPES: readonly AllowedContentType[] = ["application/pdf", "image/png", "image/jpeg"];

const EXTENSION: Record<AllowedContentType, string> = {
  "application/pdf": "pdf",
  "image/png": "png",
  "image/jpeg": "jpg",
};

const startsWith = (bytes: Uint8Array, sig: number[]) => sig.every((b, i) => bytes[i] === b);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/** The allowed type these bytes are, or null. */
export function sniffContentType(bytes: Uint8Array): AllowedContentType | null {
  if (startsWith(bytes, PNG)) return "image/png";
  if (startsWith(bytes, JPEG)) return "image/jpeg";
  // A PDF header may follow a little junk (the spec tolerates it within the first 1 KiB).
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
  if (startsWith(bytes, PDF) || /^[\s\S]{0,1019}%PDF-\d/.test(head)) return "application/pdf";
  return null;
}

export const extensionOf = (type: AllowedContentType) => EXTENSION[type];

// ---------- images, judged by their header before anything decodes them ----------
//
// A small file can declare a huge image (an 8000×8000 PNG of zeros deflates to
// 249 KB and decodes to 244 MiB), so an image's size is read from its header —
// PNG's IHDR (PNG §11.2.2), JPEG's start-of-frame segment (ITU T.81 §B.2.2) —
// and refused above these limits before any decoder sees it. An image whose
// header cannot be read is refused too: it cannot be judged.

/** Largest width or height of an uploaded image, in pixels. */
export const MAX_IMAGE_EDGE = 4096;
/** Largest decoded size of an uploaded image (width × height × channels × bytes per sample). */
export const MAX_IMAGE_DECODED_BYTES = 64 * 1024 * 1024;

export interface ImageHeader {
  width: number;
  height: number;
  /** Samples per pixel once decoded (a palette counts 4: it may carry transparency). */
  channels: number;
  /** 1, or 2 for 16-bit PNG and 12-bit JPEG samples. */
  bytesPerSample: number;
}

const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 4, 4: 2, 6: 4 };

function pngHeader(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 33) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The first chunk is IHDR, 13 bytes long.
  if (view.getUint32(8) !== 13 || Buffer.from(bytes.subarray(12, 16)).toString("latin1") !== "IHDR") return null;
  const [width, height, bitDepth, colorType] = [view.getUint32(16), view.getUint32(20), bytes[24]!, bytes[25]!];
  const channels = PNG_CHANNELS[colorType];
  if (!width || !height || !channels || ![1, 2, 4, 8, 16].includes(bitDepth)) return null;
  return { width, height, channels, bytesPerSample: bitDepth === 16 ? 2 : 1 };
}

// Start-of-frame markers: C0–CF except DHT (C4), JPG (C8) and DAC (CC).
const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpegHeader(bytes: Uint8Array): ImageHeader | null {
  let i = 2; // after SOI
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) return null;
    let marker = bytes[i + 1]!;
    // Fill bytes: any number of 0xFF before a marker.
    while (marker === 0xff && i + 2 < bytes.length) marker = bytes[++i + 1]!;
    i += 2;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // TEM, RSTn: no length
    if (marker === 0xd9 || marker === 0xda || i + 2 > bytes.length) return null; // EOI or SOS before a frame
    const length = (bytes[i]! << 8) | bytes[i + 1]!;
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (i + 8 > bytes.length) return null;
      const precision = bytes[i + 2]!;
      const height = (bytes[i + 3]! << 8) | bytes[i + 4]!;
      const width = (bytes[i + 5]! << 8) | bytes[i + 6]!;
      const channels = bytes[i + 7]!;
      // A height of 0 defers it to a DNL segment after the scan: not judged from the header, so refused.
      if (!width || !height || !channels) return null;
      return { width, height, channels, bytesPerSample: precision > 8 ? 2 : 1 };
    }
    i += length;
  }
  return null;
}

/** The size an image declares in its header, or null when the header cannot be read. */
export function imageHeader(bytes: Uint8Array, type: "image/png" | "image/jpeg"): ImageHeader | null {
  return type === "image/png" ? pngHeader(bytes) : jpegHeader(bytes);
}

const MiB = 1024 * 1024;

/**
 * Why an uploaded file may not be kept, judged by its header only (never
 * decoded), as the sentence a form shows under the field; null when it may
 * (and always for a PDF).
 */
export function imageRefusal(bytes: Uint8Array, type: AllowedContentType): string | null {
  if (type === "application/pdf") return null;
  const header = imageHeader(bytes, type);
  if (!header) return "Choose an image that is not damaged: its size could not be read";
  const { width, height, channels, bytesPerSample } = header;
  if (width > MAX_IMAGE_EDGE || height > MAX_IMAGE_EDGE) {
    return `Choose an image of at most ${MAX_IMAGE_EDGE} × ${MAX_IMAGE_EDGE} pixels (this one is ${width} × ${height})`;
  }
  const decoded = width * height * channels * bytesPerSample;
  if (decoded > MAX_IMAGE_DECODED_BYTES) {
    return `Choose a smaller image: this one takes ${Math.ceil(decoded / MiB)} MiB to open (at most ${MAX_IMAGE_DECODED_BYTES / MiB} MiB)`;
  }
  return null;
}
