// Invitation tokens: 256 random bits in the link, only their SHA-256 stored.
import crypto from "node:crypto";

export const newInvitationToken = () => crypto.randomBytes(32).toString("base64url");
export const hashInvitationToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");
export const looksLikeInvitationToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);
