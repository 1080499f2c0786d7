// One operation, declared once: who may call it (auth, permission), its input
// and output schemas, the one handler that calls the service, and the surfaces
// that expose it — the REST API (/api/v1, documented in OpenAPI), the
// dashboard (tRPC, the name is the procedure path) and other HTTP routes of
// the app (/api/files, /api/export, …). The tRPC router, the REST router, the
// OpenAPI document and the HTTP pipeline are all built from these entries.
import type { z } from "zod";
import type { Actor, KeyPermission } from "@/server/actor";
import type { PlatformAdmin } from "@/server/admin/service";
import type { AuthenticatedKey } from "@/server/api-keys/service";
import type { ErrorCode } from "@/server/errors";
import type { PortalSession } from "@/server/portal/auth";
import type { SessionUser } from "./auth";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type Kind = "query" | "mutation";

/**
 * Who may call an operation:
 * - `apiKey`: an API key (Bearer) of the organization, acting as its Actor (rate limited, `permission` checked);
 * - `session`: a signed-in member, acting in their active organization and dashboard mode;
 * - `user`: a signed-in user, with or without an organization;
 * - `platformAdmin`: a platform admin (anyone else: 404);
 * - `portal`: a policyholder signed in to the portal of the business in the path (its cookie; else 401);
 * - `portalVisitor`: anyone on the portal of the business in the path (the sign-in steps, the logo);
 * - `payment`: the hosted checkout, where the payment reference in the path is the capability;
 * - `public`: anyone.
 */
export type AuthKind = "apiKey" | "session" | "user" | "platformAdmin" | "portal" | "portalVisitor" | "payment" | "public";

/** What the handler knows about the caller, by the kind that authenticated it. */
export interface Principals {
  apiKey: { auth: "apiKey"; actor: Actor; key: AuthenticatedKey; user?: undefined };
  session: { auth: "session"; actor: Actor; user: SessionUser; key?: undefined };
  user: { auth: "user"; user: SessionUser };
  platformAdmin: { auth: "platformAdmin"; user: SessionUser; admin: PlatformAdmin };
  portal: { auth: "portal"; organizationId: string; holder: PortalSession };
  portalVisitor: { auth: "portalVisitor"; organizationId: string };
  payment: { auth: "payment" };
  public: { auth: "public" };
}
export type Principal<A extends AuthKind = AuthKind> = A extends AuthKind ? Principals[A] : never;

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;
type Obj<S> = S extends z.ZodType ? (z.output<S> extends object ? z.output<S> : object) : object;
/** A REST request's parts as one input, when the operation declares no `input` schema: params, query and body merged. */
export type MergedParts<P, Q, B> = Obj<P> & Obj<Q> & Obj<B>;
export type InputOf<I, P, Q, B> = I extends z.ZodType ? z.output<I> : MergedParts<P, Q, B>;
export type ResultOf<O> = O extends z.ZodType ? z.input<O> | z.output<O> : unknown;

export interface Parts<P, Q, B> {
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
}

/** An HTTP binding: a method and path, the request's parts, and how they make the handler's input. */
export interface HttpShape<P, Q, B, In, Out> {
  method: Method;
  /** With `{name}` parameters: under /api/v1 for `rest`, the full path for `http`. */
  path: string;
  params?: P;
  query?: Q;
  /** JSON body schema, or with `multipart` the schema of the form's fields (files included). */
  body?: B;
  /**
   * A multipart/form-data upload whose file parts are these fields (each at most MAX_UPLOAD_BYTES).
   * With `form`, the binding takes both: a multipart/form-data request is read as a form and
   * validated by `form` (text fields and files), any other as JSON validated by `body`.
   */
  multipart?: { files: readonly string[]; form?: z.ZodType };
  /** A JSON body at most this long (default API_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** A JSON body must be sent (415 without a JSON Content-Type); by default an empty body is no body. */
  bodyRequired?: boolean;
  /** The code of an invalid query (default 400 `invalid_query`); 422 `validation_failed` where the query IS the input. */
  queryError?: "invalid_query" | "validation_failed";
  status?: 200 | 201 | 202 | 204;
  /** The handler's input from the parts (default: params, query and body merged into one object). */
  input?: (parts: Parts<P, Q, B>) => In;
  /** The answer from the handler's result, where this surface shows it differently (default: the result). */
  answer?: (result: Out) => unknown;
}

/** The REST API's binding: served under /api/v1 with an API key, and listed in the OpenAPI document. */
export interface RestShape<P, Q, B, In, Out> extends HttpShape<P, Q, B, In, Out> {
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** The answer's schema where it differs from the operation's `output`. */
  response?: z.ZodType;
  /**
   * A file answer instead of JSON: the handler returns a `Response` (streamed
   * body, its own Content-Type and Content-Disposition); listed here for the docs.
   */
  file?: { contentTypes: readonly string[]; description: string };
  /** Error codes this operation can answer beyond the common ones, for the docs. */
  errors?: ErrorCode[];
  /** `Idempotency-Key` is honoured on POST (default); false to ignore it. */
  idempotent?: boolean;
  /**
   * Also served at POST /api/upload/<path> to the signed-in member (auth
   * `session`), for the dashboard's uploads with progress. Multipart only.
   */
  upload?: boolean;
}

/** Another route of the app (not under /api/v1, not in the OpenAPI document). */
export interface AppRouteShape<P, Q, B, In, Out> extends HttpShape<P, Q, B, In, Out> {
  /** Who may call it here (default: the operation's `auth`). */
  auth?: readonly AuthKind[];
  /** Headers every answer carries, errors included (caching, resource policy). */
  headers?: Record<string, string>;
  /** Refuse a request whose Origin is not the app's (a change made with a cookie). Default: true for a mutation. */
  sameOrigin?: boolean;
}

export interface OperationDef<
  N extends string,
  A extends AuthKind,
  K extends Kind,
  I extends z.ZodType | undefined,
  O extends z.ZodType | undefined,
  P extends z.ZodObject | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
  D extends boolean,
> {
  /** Unique; the tRPC path when the dashboard has it (`policies.update`). */
  name: N;
  auth: readonly A[];
  /** What an API key must allow (`write` also grants `read`); a member's role is checked by the service. */
  permission: KeyPermission;
  /**
   * A signed-in user must have confirmed their password or a two-factor code in the last 10 minutes
   * (403 `reauthentication_required`; src/server/session/recent-auth.ts). API keys are never asked.
   */
  recentAuth?: boolean;
  kind: K;
  /** The dashboard's input (one object); the REST parts are mapped to it by `rest.input`. */
  input?: I;
  /** The answer's schema (the dashboard's; the REST answer's unless `rest.response`). */
  output?: O;
  /** The dashboard calls it through tRPC at `name`. */
  dashboard?: D;
  rest?: RestShape<P, Q, B, InputOf<I, P, Q, B>, ResultOf<O>>;
  http?: AppRouteShape<P, Q, B, InputOf<I, P, Q, B>, ResultOf<O>>;
  handler: (
    ctx: Principal<A> & { input: InputOf<I, P, Q, B>; request?: Request; headers?: Headers },
  ) => Promise<ResultOf<O> | Response | void>;
}

/** An operation as the builders see it; the type parameters keep what the dashboard's types need. */
export interface Operation<
  N extends string = string,
  K extends Kind = Kind,
  I extends z.ZodType | undefined = z.ZodType | undefined,
  O extends z.ZodType | undefined = z.ZodType | undefined,
  D extends boolean = boolean,
> {
  name: N;
  auth: readonly AuthKind[];
  permission: KeyPermission;
  recentAuth?: boolean;
  kind: K;
  input?: I;
  output?: O;
  dashboard?: D;
  rest?: RestShape<z.ZodObject | undefined, z.ZodType | undefined, z.ZodType | undefined, unknown, unknown>;
  http?: AppRouteShape<z.ZodObject | undefined, z.ZodType | undefined, z.ZodType | undefined, unknown, unknown>;
  handler: (ctx: Principal & { input: unknown; request?: Request; headers?: Headers }) => Promise<unknown>;
}

/** Declares an operation, its handler typed from its schemas and its auth kinds. */
export function operation<
  const N extends string,
  const A extends AuthKind,
  const K extends Kind,
  I extends z.ZodType | undefined = undefined,
  O extends z.ZodType | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  const D extends boolean = false,
>(def: OperationDef<N, A, K, I, O, P, Q, B, D>): Operation<N, K, I, O, D> {
  if (def.dashboard && !def.output) throw new Error(`${def.name}: a dashboard operation declares its output`);
  if (def.rest?.upload && !(def.rest.multipart && def.auth.includes("session" as A)))
    throw new Error(`${def.name}: an upload is a multipart operation with session auth`);
  return def as unknown as Operation<N, K, I, O, D>;
}

export type AnyOperation = Operation;
