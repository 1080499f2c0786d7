// Writes the PNG and ICO icons under public/ from public/icon.svg (the logo:
// the brand-blue square with lucide's shield-check). Run once after changing
// the SVG and commit the output: `node scripts/generate-icons.mjs`.
// It borrows `sharp` from Next.js's own install (no dependency of the app).
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const sharp = require(require.resolve("sharp", { paths: [path.dirname(require.resolve("next/package.json"))] }));

const PUBLIC = path.join(import.meta.dirname, "..", "public");
const rounded = await fs.readFile(path.join(PUBLIC, "icon.svg"));
// Home-screen icons are cut to shape by the platform: full-bleed square, glyph inside the safe zone.
const square = Buffer.from(
  rounded
    .toString("utf8")
    .replace(/<rect [^>]*\/>/, '<rect width="32" height="32" fill="#1f5ad6"/>')
    .replace(/transform="[^"]*"/, 'transform="translate(7 7) scale(0.75)"'),
);

const png = (svg, size) =>
  sharp(svg, { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();

await fs.writeFile(path.join(PUBLIC, "apple-touch-icon.png"), await png(square, 180));
await fs.writeFile(path.join(PUBLIC, "icon-192.png"), await png(square, 192));
await fs.writeFile(path.join(PUBLIC, "icon-512.png"), await png(square, 512));

// favicon.ico: 16, 32 and 48 px PNG images in one ICO container (PNG entries are valid since Windows Vista).
const sizes = [16, 32, 48];
const images = await Promise.all(sizes.map((s) => png(rounded, s)));
const header = Buffer.alloc(6);
header.writeUInt16LE(0, 0); // reserved
header.writeUInt16LE(1, 2); // type: icon
header.writeUInt16LE(images.length, 4);
const entries = [];
let offset = 6 + 16 * images.length;
images.forEach((image, i) => {
  const entry = Buffer.alloc(16);
  entry.writeUInt8(sizes[i], 0); // width
  entry.writeUInt8(sizes[i], 1); // height
  entry.writeUInt8(0, 2); // no palette
  entry.writeUInt8(0, 3); // reserved
  entry.writeUInt16LE(1, 4); // colour planes
  entry.writeUInt16LE(32, 6); // bits per pixel
  entry.writeUInt32LE(image.length, 8);
  entry.writeUInt32LE(offset, 12);
  offset += image.length;
  entries.push(entry);
});
await fs.writeFile(path.join(PUBLIC, "favicon.ico"), Buffer.concat([header, ...entries, ...images]));
console.log("wrote public/favicon.ico, apple-touch-icon.png, icon-192.png, icon-512.png");
