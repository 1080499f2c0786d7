// A coverage's certificate number: printed on its certificate of insurance and
// the key of the public verification page, so it must not be guessable from
// another one — 80 random bits, written COI- and 20 hex digits (the migration
// gives older coverages numbers of the same form).
import crypto from "node:crypto";

export const CERTIFICATE_NUMBER = /^COI-[0-9A-F]{20}$/;

export const newCertificateNumber = () => `COI-${crypto.randomBytes(10).toString("hex").toUpperCase()}`;
