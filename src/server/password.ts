// Password hashing for better-auth's email and password sign-in: scrypt
// (node:crypto, off the event loop in libuv's pool) with r = 16, p = 1 and a
// 64-byte key, as better-auth does, compared in constant time.
//
// A hash written with the default cost (N = 16384) is better-auth's own format
// `<salt>:<key>`, so accounts made before this module verify unchanged; a hash
// with another N records it: `scrypt$<N>$<salt>$<key>`. PASSWORD_SCRYPT_N sets
// the N of new hashes only — test servers lower it, a deployment can raise it,
// and every stored hash keeps verifying with the N it was made with.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { env } from "@/server/env";

export const DEFAULT_N = 16_384;
const R = 16;
const P = 1;
const KEY_LENGTH = 64;

function derive(password: string, salt: string, N: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N, r: R, p: P, maxmem: 128 * N * R * 2 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, N = env.PASSWORD_SCRYPT_N): Promise<string> {
  const salt = randomBytes(16).toString("hex");
  const key = (await derive(password, salt, N)).toString("hex");
  return N === DEFAULT_N ? `${salt}:${key}` : `scrypt$${N}$${salt}$${key}`;
}

/** The cost, salt and key of a stored hash, or null for one we do not know (never verifies). */
function parse(hash: string): { N: number; salt: string; key: Buffer } | null {
  const own = /^scrypt\$(\d{4,8})\$([0-9a-f]{32})\$([0-9a-f]{128})$/.exec(hash);
  if (own) {
    const N = Number(own[1]);
    if (N < 1024 || N > 1_048_576 || (N & (N - 1)) !== 0) return null;
    return { N, salt: own[2]!, key: Buffer.from(own[3]!, "hex") };
  }
  const legacy = /^([0-9a-f]{32}):([0-9a-f]{128})$/.exec(hash);
  return legacy ? { N: DEFAULT_N, salt: legacy[1]!, key: Buffer.from(legacy[2]!, "hex") } : null;
}

export async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
  const stored = parse(hash);
  if (!stored) return false;
  const key = await derive(password, stored.salt, stored.N);
  return timingSafeEqual(key, stored.key);
}
