// The KYB queue's cursor: its order is (status rank, submittedAt, organizationId),
// not the (createdAt, id) of src/server/pagination.ts, so it has its own. The
// cursor is opaque to clients: base64url of the last row's three sort keys.
import { M } from "@/lib/messages";
import { AppError } from "@/server/errors";

export interface QueuePosition {
  /** 0 for pending, 1 for decided: pending comes first. */
  rank: 0 | 1;
  /** submittedAt (the epoch for a row without one, as the query sorts it). */
  submittedAt: Date;
  organizationId: string;
}

export function encodeQueueCursor(p: QueuePosition): string {
  return Buffer.from(`${p.rank}|${p.submittedAt.toISOString()}|${p.organizationId}`).toString("base64url");
}

// What `encodeQueueCursor` writes, and nothing else.
const CURSOR = /^([01])\|(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([\w-]{1,100})$/;

/** The position after which the next page starts; 400 `invalid_query` for a cursor we did not issue. */
export function decodeQueueCursor(cursor: string): QueuePosition {
  const m = CURSOR.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const submittedAt = m?.[2] ? new Date(m[2]) : null;
  // Only instants that round-trip: no year 0001 or −271821 reaches the database.
  if (
    !m?.[1] ||
    !m[3] ||
    !submittedAt ||
    Number.isNaN(submittedAt.getTime()) ||
    submittedAt.toISOString() !== m[2] ||
    submittedAt.getTime() < 0
  ) {
    throw new AppError("invalid_query", "cursor: is not a cursor from this API", {
      errors: [{ path: "cursor", message: M.cursor }],
    });
  }
  return { rank: m[1] === "0" ? 0 : 1, submittedAt, organizationId: m[3] };
}
