// Text every input must hold: no NUL (PostgreSQL refuses it, 22021) and no
// unpaired UTF-16 surrogate (not encodable as UTF-8). One rule, applied two
// ways: the `Text` schema for fields, and `assertSafeInput`, which the REST
// and tRPC adapters run over every raw input (params, query, body, object
// keys included) before any schema sees it, so no endpoint can forget it.
import { M, z } from "@/lib/messages";
import { validationError, type FieldError } from "@/server/errors";

const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const UNSAFE_TEXT_MESSAGE = M.unsafeText;

export const isSafeText = (value: string): boolean => !UNSAFE.test(value);

/** A string without NUL or lone surrogates. */
export const Text = z.string().refine(isSafeText, UNSAFE_TEXT_MESSAGE);

/** Every string position (values and keys) of a JSON-like value that holds unsafe text. */
export function unsafeTextErrors(value: unknown, path: string[] = [], depth = 0): FieldError[] {
  if (typeof value === "string") return isSafeText(value) ? [] : [{ path: path.join("."), message: UNSAFE_TEXT_MESSAGE }];
  if (value === null || typeof value !== "object" || depth > 64) return [];
  if (value instanceof Uint8Array) return []; // an uploaded file's bytes are not text
  const out: FieldError[] = [];
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  for (const [key, item] of entries) {
    if (!isSafeText(key)) out.push({ path: [...path, "(key)"].join("."), message: UNSAFE_TEXT_MESSAGE });
    else out.push(...unsafeTextErrors(item, [...path, key], depth + 1));
    if (out.length >= 20) break;
  }
  return out;
}

/** Throws 422 `validation_failed` naming each position of `value` that holds unsafe text. */
export function assertSafeInput(value: unknown, prefix?: string): void {
  const errors = unsafeTextErrors(value, prefix ? [prefix] : []);
  if (errors.length > 0) throw validationError(errors);
}
