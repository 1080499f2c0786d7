// Certificates of insurance: a PDF per coverage, made on demand from the rows
// as they are now (business, policy, holder, period), and the public check of
// a certificate number at /verify/<number>.
//
// The PDF uses the standard Helvetica fonts (WinAnsi): text they cannot
// encode is transliterated (accents dropped: "Ọkàfọ̀" → "Okafo") and what is
// left becomes "?", so no name ever makes generation fail. Long texts wrap
// and flow onto further pages; every page carries the certificate number.
import type { PDFFont, PDFPage, RGB } from "pdf-lib";
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  PDFString,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  StandardFonts,
} from "pdf-lib";
import type { StoredFile } from "@/generated/prisma/client";
import { assertCan, type Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { notFound } from "@/server/errors";
import { contentDisposition } from "@/server/files/file-name";
import { pdfImage } from "@/server/files/images";
import { imageRefusal } from "@/server/files/sniff";
import { storageNamed } from "@/server/files/storage";
import { logger } from "@/server/logger";
import { brandingOf, DEFAULT_ACCENT } from "@/server/organizations/branding";
import { CERTIFICATE_NUMBER } from "./certificate-number";
import type { CoverageStatus } from "@/lib/schemas/coverages";
import { coverageStatus } from "./status";

/** Where anyone can check a certificate number. */
export const verifyUrl = (certificateNumber: string): string => `${env.APP_URL}/verify/${certificateNumber}`;

export type CertificateStatus = CoverageStatus;
/** The one rule of a coverage's status (./status): cancelled once cancelled, else active until endsAt, expired from it on. */
const statusAt = coverageStatus;

/** "25 November 2026, 14:30 UTC": a period is exact to the minute. */
export const certificateDateTime = (d: Date) =>
  `${d.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" })}, ${d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" })} UTC`;

export const certificateDate = (d: Date) =>
  d.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

const capitalize = (s: string) => (s ? `${s[0]!.toUpperCase()}${s.slice(1)}` : s);
const DURATION: Record<string, string> = {
  monthly: "Monthly (1 month)",
  quarterly: "Quarterly (3 months)",
  yearly: "Yearly (12 months)",
};

// ---------- the public check ----------

export interface VerifiedCertificate {
  certificateNumber: string;
  status: CertificateStatus;
  livemode: boolean;
  business: { name: string; accentColor: string | null; logoFileId: string | null };
  policy: { name: string; type: string };
  startsAt: Date;
  endsAt: Date;
  cancelledAt: Date | null;
  /** past_due: valid until then while an unpaid renewal is tried again. */
  graceEndsAt: Date | null;
}

/**
 * What the verification page may show of a certificate: the business, the
 * policy, the period and whether it is valid at `now` — nothing about the
 * holder, nothing about money. Null for a malformed or unknown number (a
 * malformed one is not looked up).
 */
export async function verifyCertificate(certificateNumber: string, now = new Date()): Promise<VerifiedCertificate | null> {
  if (!CERTIFICATE_NUMBER.test(certificateNumber)) return null;
  const row = await db.coverage.findUnique({
    where: { certificateNumber },
    select: {
      certificateNumber: true,
      organizationId: true,
      startsAt: true,
      endsAt: true,
      cancelledAt: true,
      graceEndsAt: true,
      policy: { select: { name: true, type: true } },
    },
  });
  if (!row) return null;
  const brand = await brandingOf(row.organizationId);
  if (!brand) return null;
  return {
    certificateNumber: row.certificateNumber,
    status: statusAt(row, now),
    cancelledAt: row.cancelledAt,
    livemode: brand.livemode,
    business: { name: brand.name, accentColor: brand.accentColor, logoFileId: brand.logo?.id ?? null },
    policy: { name: row.policy.name, type: row.policy.type },
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    graceEndsAt: row.graceEndsAt,
  };
}

// ---------- the logo ----------

/** Logos larger than this are left out of pages (inlined) and certificates. */
export const MAX_LOGO_BYTES = 1024 * 1024;

/** The bytes of a business's logo (PNG or JPEG), or null when there is none usable (gone, too large, another type). */
export async function logoBytes(file: StoredFile | null): Promise<{ bytes: Uint8Array; contentType: string } | null> {
  if (!file || !["image/png", "image/jpeg"].includes(file.contentType) || file.size > MAX_LOGO_BYTES) return null;
  try {
    const stream = await storageNamed(file.backend).get(file.storageKey);
    if (!stream) {
      logger.warn({ organizationId: file.organizationId, fileId: file.id }, "the logo's bytes are gone; shown without it");
      return null;
    }
    return { bytes: new Uint8Array(await new Response(stream).arrayBuffer()), contentType: file.contentType };
  } catch (err) {
    logger.warn({ err, organizationId: file.organizationId, fileId: file.id }, "the logo could not be read; shown without it");
    return null;
  }
}

/** The logo of the file `fileId` as a data: URI for a page (no route serves it), or null. */
export async function logoDataUri(fileId: string | null, maxBytes = 256 * 1024): Promise<string | null> {
  if (!fileId) return null;
  const file = await db.storedFile.findUnique({ where: { id: fileId } });
  if (!file || file.size > maxBytes) return null;
  const logo = await logoBytes(file);
  return logo ? `data:${logo.contentType};base64,${Buffer.from(logo.bytes).toString("base64")}` : null;
}

/** The logo's box on a certificate, in points, and how many pixels a point gets at most (print sharpness). */
const LOGO_BOX = { width: 140, height: 48 };
const LOGO_PIXELS_PER_POINT = 3;

/**
 * Draws the logo at the top left of the page, fitted in LOGO_BOX (never
 * larger than one point a pixel); answers its size, or null when it cannot be
 * drawn. The image is decoded and compressed on the thread pool
 * (files/images) and written as a ready image XObject, so drawing it costs the
 * event loop next to nothing; an image over the upload limits (a logo stored
 * before they existed) is left out without decoding it.
 */
async function drawLogo(
  doc: PDFDocument,
  page: PDFPage,
  file: StoredFile,
  top: number,
): Promise<{ width: number; height: number } | null> {
  const logo = await logoBytes(file);
  if (!logo) return null;
  const refused = imageRefusal(logo.bytes, logo.contentType as "image/png" | "image/jpeg");
  if (refused) {
    logger.warn({ organizationId: file.organizationId, fileId: file.id, refused }, "the logo is over the image limits; left out");
    return null;
  }
  const image = await pdfImage(logo.bytes, LOGO_BOX.width * LOGO_PIXELS_PER_POINT, LOGO_BOX.height * LOGO_PIXELS_PER_POINT);
  const scale = Math.min(LOGO_BOX.height / image.sourceHeight, LOGO_BOX.width / image.sourceWidth, 1);
  const [width, height] = [image.sourceWidth * scale, image.sourceHeight * scale];
  const stream = (contents: Uint8Array, colorSpace: string, extra: Record<string, unknown> = {}) =>
    doc.context.register(
      doc.context.stream(contents, {
        Type: "XObject",
        Subtype: "Image",
        Width: image.width,
        Height: image.height,
        ColorSpace: colorSpace,
        BitsPerComponent: 8,
        Filter: "FlateDecode",
        ...extra,
      }),
    );
  const mask = image.alpha ? stream(image.alpha, "DeviceGray") : null;
  const name = page.node.newXObject("Image", stream(image.rgb, "DeviceRGB", mask ? { SMask: mask } : {}));
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(width, 0, 0, height, MARGIN, top - height),
    drawObject(name),
    popGraphicsState(),
  );
  return { width, height };
}

// ---------- the PDF ----------

const PAGE: [number, number] = [595.28, 841.89]; // A4
const MARGIN = 50;
const FOOTER = 60;
const CONTENT_WIDTH = PAGE[0] - 2 * MARGIN;
const LABEL_WIDTH = 150;
const INK = rgb(0.06, 0.09, 0.16);
const MUTED = rgb(0.35, 0.39, 0.45);
const RULE = rgb(0.85, 0.87, 0.9);

function hexColor(hex: string | null): RGB {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex ?? "") ?? /^#(..)(..)(..)$/.exec(DEFAULT_ACCENT)!;
  return rgb(parseInt(m[1]!, 16) / 255, parseInt(m[2]!, 16) / 255, parseInt(m[3]!, 16) / 255);
}

const LOOKALIKE: Record<string, string> = {
  ł: "l",
  Ł: "L",
  đ: "d",
  Đ: "D",
  ı: "i",
  ħ: "h",
  Ħ: "H",
  ŧ: "t",
  Ŧ: "T",
  ĸ: "k",
  ŀ: "l",
  Ŀ: "L",
};

/** Text the font can draw: accents dropped from what it cannot encode as is, then "?" for the rest; one line. */
export function encodable(text: string, charset: ReadonlySet<number>): string {
  let out = "";
  for (const ch of text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ")) {
    if (charset.has(ch.codePointAt(0)!)) {
      out += ch;
      continue;
    }
    const base = (LOOKALIKE[ch] ?? ch).normalize("NFKD").replace(/\p{M}/gu, "");
    for (const b of base) out += charset.has(b.codePointAt(0)!) ? b : "?";
  }
  return out;
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** Draws top to bottom, wrapping text and starting a new page when the current one is full. */
class Writer {
  page!: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];
  private readonly charset: Set<number>;

  constructor(
    readonly doc: PDFDocument,
    readonly fonts: Fonts,
    readonly accent: RGB,
  ) {
    this.charset = new Set(fonts.regular.getCharacterSet());
    this.newPage();
  }

  text(s: string): string {
    return encodable(s, this.charset);
  }

  newPage() {
    this.page = this.doc.addPage(PAGE);
    this.pages.push(this.page);
    this.page.drawRectangle({ x: 0, y: PAGE[1] - 8, width: PAGE[0], height: 8, color: this.accent });
    this.y = PAGE[1] - MARGIN;
  }

  /** Room for `height` more points on this page, else a new one. */
  ensure(height: number) {
    if (this.y - height < FOOTER) this.newPage();
  }

  /** The lines `text` takes in `width` at `size`: words wrapped, a word too long for a line broken. */
  wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      const words = this.text(paragraph).split(/\s+/).filter(Boolean);
      let line = "";
      for (let word of words) {
        const candidate = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(candidate, size) <= width) {
          line = candidate;
          continue;
        }
        if (line) lines.push(line);
        line = "";
        while (font.widthOfTextAtSize(word, size) > width) {
          let cut = word.length - 1;
          while (cut > 1 && font.widthOfTextAtSize(word.slice(0, cut), size) > width) cut--;
          lines.push(word.slice(0, cut));
          word = word.slice(cut);
        }
        line = word;
      }
      if (line || lines.length === 0) lines.push(line);
    }
    return lines;
  }

  paragraph(
    text: string,
    { size = 10, font = this.fonts.regular, color = INK, x = MARGIN, width = CONTENT_WIDTH, gap = 4 } = {},
  ) {
    const leading = size * 1.35;
    for (const line of this.wrap(text, font, size, width)) {
      this.ensure(leading);
      this.y -= leading;
      if (line) this.page.drawText(line, { x, y: this.y + (leading - size) / 2, size, font, color });
    }
    this.y -= gap;
  }

  heading(text: string) {
    this.ensure(40);
    this.y -= 14;
    this.paragraph(text.toUpperCase(), { size: 10, font: this.fonts.bold, color: this.accent, gap: 2 });
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: PAGE[0] - MARGIN, y: this.y },
      thickness: 0.75,
      color: RULE,
    });
    this.y -= 6;
  }

  /** A label and its value side by side; the value wraps in its column. */
  field(label: string, value: string) {
    const size = 10;
    const leading = size * 1.35;
    const valueWidth = CONTENT_WIDTH - LABEL_WIDTH;
    const lines = this.wrap(value, this.fonts.regular, size, valueWidth);
    this.ensure(leading * Math.min(lines.length, 3));
    this.page.drawText(this.text(label), { x: MARGIN, y: this.y - leading + 3, size, font: this.fonts.bold, color: MUTED });
    for (const line of lines) {
      this.ensure(leading);
      this.y -= leading;
      this.page.drawText(line, { x: MARGIN + LABEL_WIDTH, y: this.y + 3, size, font: this.fonts.regular, color: INK });
    }
    this.y -= 3;
  }

  bullets(items: string[]) {
    for (const item of items) {
      const size = 10;
      const leading = size * 1.35;
      this.ensure(leading);
      this.page.drawText("•", { x: MARGIN + 4, y: this.y - leading + 3, size, font: this.fonts.regular, color: this.accent });
      this.paragraph(item, { x: MARGIN + 16, width: CONTENT_WIDTH - 16, gap: 2 });
    }
  }

  /** A clickable area opening `url`. */
  link(x: number, y: number, width: number, height: number, url: string) {
    const annotation = this.doc.context.register(
      this.doc.context.obj({
        Type: "Annot",
        Subtype: "Link",
        Rect: [x, y, x + width, y + height],
        Border: [0, 0, 0],
        A: { Type: "Action", S: "URI", URI: PDFString.of(url) },
      }),
    );
    this.page.node.addAnnot(annotation);
  }
}

/**
 * The certificate of insurance of one of the organization's coverages, as it
 * stands now. 404 `not_found` when the coverage is not the organization's.
 */
export async function certificatePdf(
  organizationId: string,
  coverageId: string,
  now = new Date(),
): Promise<{ bytes: Uint8Array; fileName: string }> {
  const coverage = await db.coverage.findFirst({
    where: { id: coverageId, organizationId },
    include: {
      policy: {
        select: { name: true, type: true, duration: true, description: true, coverage: true, benefits: true, exclusions: true },
      },
    },
  });
  if (!coverage) throw notFound("Coverage");
  const brand = await brandingOf(organizationId);
  if (!brand) throw notFound("Coverage");

  const doc = await PDFDocument.create();
  const title = `Certificate of insurance ${coverage.certificateNumber}`;
  doc.setTitle(title);
  doc.setAuthor(brand.name);
  doc.setSubject(`${coverage.policy.name} — ${brand.name}`);
  doc.setCreator("Coverdesk");
  doc.setProducer("Coverdesk");
  doc.setCreationDate(now);
  doc.setModificationDate(now);

  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  const accent = hexColor(brand.accentColor);
  const w = new Writer(doc, fonts, accent);
  const status = statusAt(coverage, now);
  const url = verifyUrl(coverage.certificateNumber);

  // The business: logo (when it can be drawn) and name.
  let nameX = MARGIN;
  if (brand.logo) {
    try {
      const drawn = await drawLogo(doc, w.page, brand.logo, w.y);
      if (drawn) {
        nameX = MARGIN + drawn.width + 14;
        w.y -= Math.max(drawn.height - 30, 0);
      }
    } catch (err) {
      logger.warn(
        { err, organizationId, fileId: brand.logo?.id },
        "the logo could not be drawn; the certificate goes without it",
      );
    }
  }
  w.paragraph(brand.name, { size: 18, font: fonts.bold, x: nameX, width: PAGE[0] - MARGIN - nameX, gap: 0 });
  const contact = [brand.email, brand.phone].filter(Boolean).join(" · ");
  if (contact) w.paragraph(contact, { size: 9, color: MUTED, x: nameX, width: PAGE[0] - MARGIN - nameX, gap: 0 });
  w.y -= 22;

  w.paragraph("Certificate of insurance", { size: 22, font: fonts.bold, gap: 2 });
  w.paragraph(`Certificate number ${coverage.certificateNumber}`, { size: 11, color: MUTED, gap: 8 });

  if (!brand.livemode) {
    const height = 42;
    w.ensure(height + 8);
    w.page.drawRectangle({
      x: MARGIN,
      y: w.y - height,
      width: CONTENT_WIDTH,
      height,
      color: rgb(1, 0.95, 0.8),
      borderColor: rgb(0.85, 0.45, 0),
      borderWidth: 1.5,
    });
    w.y -= 6;
    w.paragraph("TEST CERTIFICATE — NOT VALID COVER", {
      size: 13,
      font: fonts.bold,
      color: rgb(0.6, 0.2, 0),
      x: MARGIN + 12,
      gap: 0,
    });
    w.paragraph("Issued in test mode: no real cover was bought and no insurer stands behind it.", {
      size: 9,
      color: rgb(0.45, 0.2, 0),
      x: MARGIN + 12,
      width: CONTENT_WIDTH - 24,
    });
    w.y -= 10;
  }

  w.paragraph(
    `This certifies that the policyholder named below holds the cover described in this certificate, issued by ${brand.name}, for the period shown. The cover is subject to the terms, benefits and exclusions of the policy.`,
    { size: 10, color: MUTED },
  );

  w.heading("Policyholder");
  if (coverage.customerName) w.field("Name", coverage.customerName);
  w.field("Email", coverage.customerEmail);

  w.heading("Cover");
  w.field("Policy", coverage.policy.name);
  w.field("Type", `${capitalize(coverage.policy.type)} insurance`);
  w.field("Duration", DURATION[coverage.policy.duration] ?? coverage.policy.duration);
  w.field("Coverage number", coverage.id);
  w.field("Certificate number", coverage.certificateNumber);
  w.field("Starts", certificateDateTime(coverage.startsAt));
  w.field("Ends", certificateDateTime(coverage.endsAt));
  w.field("Renewals", String(coverage.renewalCount));
  w.field(
    "Status on issue",
    status === "active"
      ? `Active on ${certificateDate(now)}`
      : status === "past_due"
        ? `Active on ${certificateDate(now)}: renewal payment due, valid until ${certificateDateTime(coverage.graceEndsAt ?? coverage.endsAt)}`
        : status === "cancelled"
        ? `Cancelled on ${certificateDateTime(coverage.cancelledAt!)}: not valid`
        : `Expired on ${certificateDateTime(coverage.endsAt)}`,
  );

  w.heading("What it covers");
  const covers = coverage.policy.coverage?.trim() || coverage.policy.description?.trim();
  w.paragraph(covers || "As set out in the policy.");
  w.y -= 4;
  w.paragraph("Benefits", { size: 10, font: fonts.bold, gap: 2 });
  if (coverage.policy.benefits.length) w.bullets(coverage.policy.benefits);
  else w.paragraph("None listed.", { color: MUTED });
  w.y -= 4;
  w.paragraph("Exclusions", { size: 10, font: fonts.bold, gap: 2 });
  if (coverage.policy.exclusions.length) w.bullets(coverage.policy.exclusions);
  else w.paragraph("None listed.", { color: MUTED });

  w.heading("Verify this certificate");
  w.paragraph("Anyone can check whether this certificate is valid today, at:", { color: MUTED, gap: 2 });
  w.ensure(16);
  const urlSize = 10;
  const urlWidth = Math.min(fonts.regular.widthOfTextAtSize(url, urlSize), CONTENT_WIDTH);
  const urlTop = w.y;
  w.paragraph(url, { size: urlSize, color: accent, gap: 2 });
  w.link(MARGIN, w.y + 2, urlWidth, urlTop - w.y, url);

  // Footers, now that the page count is known.
  const total = w.pages.length;
  w.pages.forEach((page, i) => {
    page.drawLine({ start: { x: MARGIN, y: 44 }, end: { x: PAGE[0] - MARGIN, y: 44 }, thickness: 0.5, color: RULE });
    const left = w.text(`Issued on ${certificateDate(now)} by ${brand.name} through Coverdesk · ${coverage.certificateNumber}`);
    const fitted = truncate(left, fonts.regular, 8, CONTENT_WIDTH - 70);
    page.drawText(fitted, { x: MARGIN, y: 30, size: 8, font: fonts.regular, color: MUTED });
    if (!brand.livemode)
      page.drawText("TEST CERTIFICATE — NOT VALID COVER", {
        x: MARGIN,
        y: 18,
        size: 8,
        font: fonts.bold,
        color: rgb(0.6, 0.2, 0),
      });
    const pageNo = `Page ${i + 1} of ${total}`;
    page.drawText(pageNo, {
      x: PAGE[0] - MARGIN - fonts.regular.widthOfTextAtSize(pageNo, 8),
      y: 30,
      size: 8,
      font: fonts.regular,
      color: MUTED,
    });
  });

  return { bytes: await doc.save(), fileName: `certificate-${coverage.certificateNumber}.pdf` };
}

/** The certificate of one of the actor's organization's coverages (REST, dashboard): read permission. */
export async function coverageCertificate(actor: Actor, coverageId: string) {
  assertCan(actor, "read");
  return certificatePdf(actor.organizationId, coverageId);
}

/** A certificate as a download: never cached by a shared cache (it names a person). */
export function certificateResponse(
  { bytes, fileName }: { bytes: Uint8Array; fileName: string },
  headers: HeadersInit = {},
): Response {
  const h = new Headers(headers);
  h.set("Content-Type", "application/pdf");
  h.set("Content-Length", String(bytes.byteLength));
  h.set("Content-Disposition", contentDisposition(fileName, "attachment"));
  h.set("Cache-Control", "private, no-store");
  h.set("X-Content-Type-Options", "nosniff");
  return new Response(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), { status: 200, headers: h });
}

function truncate(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text.length;
  while (cut > 0 && font.widthOfTextAtSize(`${text.slice(0, cut)}…`, size) > width) cut--;
  return `${text.slice(0, cut)}…`;
}
