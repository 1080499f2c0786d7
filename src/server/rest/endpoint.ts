// A REST operation declared as data: the router, the permission check, the
// parsers and the OpenAPI document are all built from these entries.
import { z } from "@/lib/messages";
import type { Actor, KeyPermission } from "@/server/actor";
import type { AuthenticatedKey } from "@/server/api-keys/service";
import type { ErrorCode } from "@/server/errors";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The key's own organization, acting with the key's permissions. */
  actor: Actor;
  key: AuthenticatedKey;
  request: Request;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface Endpoint<
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: Method;
  /** Path under /api/v1 with `{name}` parameters. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** What the API key must allow. `write` also grants `read`. */
  permission: KeyPermission;
  params?: P;
  query?: Q;
  /** JSON body schema, or with `multipart` the schema of the form's fields (files included). */
  body?: B;
  /** A multipart/form-data upload whose file parts are these fields (each at most MAX_UPLOAD_BYTES). */
  multipart?: { files: readonly string[] };
  /** Undefined for 204 No Content. */
  response?: R;
  /**
   * A file answer instead of JSON: the handler returns a `Response` (streamed
   * body, its own Content-Type and Content-Disposition); listed here for the docs.
   */
  file?: { contentTypes: readonly string[]; description: string };
  /** The code of an invalid query (default 400 `invalid_query`); 422 `validation_failed` where the query IS the input. */
  queryError?: "invalid_query" | "validation_failed";
  status?: 200 | 201 | 204;
  /** Error codes this operation can answer beyond the common ones, for the docs. */
  errors?: ErrorCode[];
  handler: (ctx: HandlerContext<Infer<P>, Infer<Q>, Infer<B>>) => Promise<Infer<R> | Response | void>;
}

export type AnyEndpoint = Endpoint<z.ZodObject | undefined, z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined>;

/** Declares an endpoint with its handler's types inferred from its schemas. */
export function endpoint<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(def: Endpoint<P, Q, B, R>): AnyEndpoint {
  return def as unknown as AnyEndpoint;
}

export { IdParam } from "@/lib/schemas/ids";
