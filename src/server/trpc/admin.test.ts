// The admin router through the tRPC caller and over HTTP: to anyone but a
// platform admin (read from the database, never from the session) every
// procedure is NOT_FOUND; a platform admin needs no organization.
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, db } from "@/server/db/client";
import { submitKyb } from "@/server/kyb/service";
import { createUser, ownerWithOrganization } from "@/test/fixtures";
import { kybUploads } from "@/test/uploads";
import { createCallerFactory, type Context } from "./init";
import { appRouter } from "./root";

type User = NonNullable<Context["user"]>;
const callerOf = (user: User | null) => createCallerFactory(appRouter)({ headers: new Headers(), user });
const signedIn = async (id: string) => (await db.user.findUniqueOrThrow({ where: { id } })) as User;

async function trpcCode(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TRPCError);
  return (err as TRPCError).code;
}

/** A business with a pending KYB. */
async function pendingBusiness() {
  const owner = await ownerWithOrganization();
  await submitKyb(owner.actor, kybUploads());
  return owner;
}

/** Every admin procedure, called once. */
const everyProcedure = (caller: ReturnType<typeof callerOf>, organizationId: string) => ({
  kybQueue: () => caller.admin.kybQueue({ limit: 20 }),
  kybReview: () => caller.admin.kybReview({ organizationId }),
  approveKyb: () => caller.admin.approveKyb({ organizationId }),
  rejectKyb: () => caller.admin.rejectKyb({ organizationId, reason: "Unreadable scan" }),
});

beforeAll(connectDatabase); // opening and migrating the database is not part of a test's time

describe("admin procedures", () => {
  it("are NOT_FOUND to a business owner, even for their own organization, and change nothing", async () => {
    const { user, org } = await pendingBusiness();
    const owner = callerOf(await signedIn(user.id));
    for (const [name, call] of Object.entries(everyProcedure(owner, org.id))) {
      expect(await trpcCode(call()), name).toBe("NOT_FOUND");
    }
    expect(await db.kyb.findUniqueOrThrow({ where: { organizationId: org.id } })).toMatchObject({ status: "pending" });
    expect(await db.kybDecision.count({ where: { organizationId: org.id } })).toBe(0);
    expect(await owner.organizations.me()).toMatchObject({ role: "OWNER", platformAdmin: false });
  });

  it("are UNAUTHORIZED without a session", async () => {
    const { org } = await pendingBusiness();
    for (const call of Object.values(everyProcedure(callerOf(null), org.id))) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
  });

  it("answer 404 over HTTP to a non-admin, like an unknown path", async () => {
    const { user } = await pendingBusiness();
    const ctx: Context = { headers: new Headers(), user: await signedIn(user.id) };
    const input = encodeURIComponent(JSON.stringify(superjson.serialize({ limit: 20 })));
    const res = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: new Request(`http://app.test/api/trpc/admin.kybQueue?input=${input}`),
      router: appRouter,
      createContext: () => ctx,
    });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { json: { data: { code: string } } } };
    expect(body.error.json.data.code).toBe("not_found");
  });

  it("work for a platform admin without any organization", async () => {
    const { org } = await pendingBusiness();
    const rejectedOrg = await pendingBusiness();
    const adminUser = await createUser("Platform Operator");
    await db.user.update({ where: { id: adminUser.id }, data: { platformAdmin: true } });
    const admin = callerOf(await signedIn(adminUser.id));

    const queue = await admin.admin.kybQueue({ status: "pending", limit: 100 });
    expect(queue.data.map((r) => r.organizationId)).toEqual(expect.arrayContaining([org.id, rejectedOrg.org.id]));
    // As a tRPC infinite query sends it: with `direction`, and a null first cursor.
    const infinite = { status: "pending", limit: 1, cursor: null, direction: "forward" } as unknown as { limit: number };
    const first = await admin.admin.kybQueue(infinite);
    expect(first.data).toHaveLength(1);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await admin.admin.kybQueue({ status: "pending", limit: 1, cursor: first.nextCursor! });
    expect(second.data[0]?.organizationId).not.toBe(first.data[0]?.organizationId);
    expect(await trpcCode(admin.admin.kybQueue({ limit: 20, cursor: "not-ours" }))).toBe("BAD_REQUEST");

    expect(await admin.admin.kybReview({ organizationId: org.id })).toMatchObject({
      organization: { id: org.id, name: org.name },
      kyb: { status: "pending" },
      decisions: [],
    });
    expect(await admin.admin.approveKyb({ organizationId: org.id })).toMatchObject({ status: "approved" });
    expect(await admin.admin.rejectKyb({ organizationId: rejectedOrg.org.id, reason: "Unreadable scan" })).toMatchObject({
      status: "rejected",
      rejectionReason: "Unreadable scan",
    });
    expect(await trpcCode(admin.admin.rejectKyb({ organizationId: org.id, reason: "no" }))).toBe("BAD_REQUEST");
    expect(await trpcCode(admin.admin.approveKyb({ organizationId: org.id }))).toBe("CONFLICT");
    expect((await admin.admin.kybReview({ organizationId: org.id })).decisions).toEqual([
      expect.objectContaining({ decision: "approved", reviewer: { name: "Platform Operator", email: adminUser.email } }),
    ]);
    expect(await trpcCode(admin.admin.kybReview({ organizationId: (await ownerWithOrganization()).org.id }))).toBe("NOT_FOUND");
  });

  it("read the flag from the database, not from the session", async () => {
    const { org } = await pendingBusiness();
    const adminUser = await createUser("Former Operator");
    await db.user.update({ where: { id: adminUser.id }, data: { platformAdmin: true } });
    const session = await signedIn(adminUser.id); // the session still says platformAdmin: true
    await db.user.update({ where: { id: adminUser.id }, data: { platformAdmin: false } });
    expect(session.platformAdmin).toBe(true);
    for (const call of Object.values(everyProcedure(callerOf(session), org.id))) expect(await trpcCode(call())).toBe("NOT_FOUND");
  });

  it("organizations.me tells the dashboard whether to show the admin link", async () => {
    const { user } = await ownerWithOrganization();
    const caller = callerOf(await signedIn(user.id));
    expect(await caller.organizations.me()).toEqual({
      role: "OWNER",
      can: { manage: true, admin: true, adminRead: true },
      platformAdmin: false,
      livemode: true,
    });
    await db.user.update({ where: { id: user.id }, data: { platformAdmin: true } });
    expect(await caller.organizations.me()).toMatchObject({ role: "OWNER", platformAdmin: true });
  });
});
