// Row ids made in the app (where a statement needs its id before the row
// exists): the shape of Prisma's `cuid(2)` defaults — 24 characters of [a-z0-9],
// the first a letter — from 119 bits of the operating system's randomness,
// drawn from a pooled buffer. cuid2's own `createId()` hashes a fresh random
// read per id (a system call and a SHA3 each): on the renewal job's hot path,
// five ids per settled payment, it was ~10 % of a runner's CPU
// (`npm run bench:renewals -- --profile`). Ids are identifiers, not secrets:
// nothing checks them as a capability.
import crypto from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const LENGTH = 24;
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let at = 0;

/** One random byte below `limit` (a multiple of the alphabet's size, so every character is equally likely). */
function randomBelow(limit: number): number {
  for (;;) {
    if (at >= pool.length) {
      pool = crypto.randomBytes(POOL_BYTES);
      at = 0;
    }
    const byte = pool[at++]!;
    if (byte < limit) return byte;
  }
}

export function newId(): string {
  let id = ALPHABET[randomBelow(26 * 9) % 26]!; // a letter first, as cuid2's
  for (let i = 1; i < LENGTH; i++) id += ALPHABET[randomBelow(36 * 7) % 36]!;
  return id;
}
