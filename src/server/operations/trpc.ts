// The dashboard's tRPC router, BUILT from the operation table: every entry with
// `dashboard: true` becomes a procedure at its name (`policies.update` →
// router `policies`, procedure `update`), on the procedure of its auth kind,
// with the entry's input and output schemas and its one handler. The types
// follow: the AppRouter infers each procedure's input and output from the entry.
import { withAuditContext } from "@/server/audit/record";
import { auditorOfPrincipal } from "@/server/audit/who";
import type {
  TRPCBuiltRouter,
  TRPCCreateRouterOptions,
  TRPCDecorateCreateRouterOptions,
  TRPCMutationProcedure,
  TRPCQueryProcedure,
} from "@trpc/server";
import type { z } from "zod";
import {
  authedProcedure,
  orgProcedure,
  platformAdminProcedure,
  publicProcedure,
  router,
  type TrpcRootTypes,
} from "@/server/trpc/init";
import { assertRecentAuthFor } from "./auth";
import type { AnyOperation, Kind, Operation, Principal } from "./operation";

type Def<I, O> = {
  input: I extends z.ZodType ? z.input<I> : void;
  output: O extends z.ZodType ? z.output<O> : unknown;
  meta: TrpcRootTypes["meta"];
  errorShape: TrpcRootTypes["errorShape"];
};
type ProcedureOf<Op> =
  Op extends Operation<string, infer K, infer I, infer O, true>
    ? K extends "query"
      ? TRPCQueryProcedure<Def<I, O>>
      : TRPCMutationProcedure<Def<I, O>>
    : never;
/** The dashboard's operations by full name. */
type Flat<U> = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [Op in U as Op extends Operation<infer N, Kind, any, any, true> ? N : never]: ProcedureOf<Op>;
};
/** `{"a.b": P}` → `{a: {b: P}}`. */
type Tree<M> = {
  [K in keyof M & string as K extends `${infer H}.${string}` ? H : K]: K extends `${infer H}.${string}`
    ? Tree<{ [J in keyof M & string as J extends `${H}.${infer R}` ? R : never]: M[J] }>
    : M[K];
};
export type RouterOf<Ops extends readonly AnyOperation[]> = TRPCBuiltRouter<
  TrpcRootTypes,
  TRPCDecorateCreateRouterOptions<AsOptions<Tree<Flat<Ops[number]>>>>
>;
type AsOptions<T> = T extends TRPCCreateRouterOptions ? T : never;

type TrpcCtx = {
  headers: Headers;
  requestId?: string;
  user?: Principal<"user">["user"] | null;
  actor?: Principal<"session">["actor"];
  admin?: Principal<"platformAdmin">["admin"];
};

function procedureFor(op: AnyOperation) {
  const kinds = op.auth;
  const [base, principal] = kinds.includes("session")
    ? [orgProcedure, (ctx: TrpcCtx): Principal => ({ auth: "session", actor: ctx.actor!, user: ctx.user! })]
    : kinds.includes("platformAdmin")
      ? [platformAdminProcedure, (ctx: TrpcCtx): Principal => ({ auth: "platformAdmin", user: ctx.user!, admin: ctx.admin! })]
      : kinds.includes("user")
        ? [authedProcedure, (ctx: TrpcCtx): Principal => ({ auth: "user", user: ctx.user! })]
        : kinds.includes("public")
          ? [publicProcedure, (): Principal => ({ auth: "public" })]
          : [];
  if (!base || !principal) throw new Error(`${op.name}: the dashboard calls it with a session, a user or as public`);
  let p = base as typeof publicProcedure;
  if (op.input) p = p.input(op.input) as unknown as typeof publicProcedure;
  if (op.output) p = p.output(op.output) as unknown as typeof publicProcedure;
  const resolve = async ({ ctx, input }: { ctx: TrpcCtx; input: unknown }) => {
    const who = principal(ctx);
    await assertRecentAuthFor(op, who);
    const handle = () => op.handler({ ...who, input });
    // The audit entries the handler's changes write name this user (src/server/audit/record.ts).
    const auditor = auditorOfPrincipal(who, ctx, ctx.requestId ?? null);
    return auditor ? withAuditContext(auditor, handle) : handle();
  };
  return op.kind === "query" ? p.query(resolve) : p.mutation(resolve);
}

/** The router of every dashboard operation, nested by the dots of their names. */
export function buildTrpcRouter<const Ops extends readonly AnyOperation[]>(ops: Ops): RouterOf<Ops> {
  const record: Record<string, unknown> = {};
  for (const op of ops) {
    if (!op.dashboard) continue;
    const segments = op.name.split(".");
    let node = record;
    for (const segment of segments.slice(0, -1)) node = (node[segment] ??= {}) as Record<string, unknown>;
    const leaf = segments.at(-1)!;
    if (leaf in node) throw new Error(`Two dashboard operations are named ${op.name}`);
    node[leaf] = procedureFor(op);
  }
  return router(record as never) as unknown as RouterOf<Ops>;
}
