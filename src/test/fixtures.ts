// Real rows for service tests: every test makes its own users and
// organizations (unique suffix), so files can run in parallel on one database.
import crypto from "node:crypto";
import { expect } from "vitest";
import type { Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { createOrganization } from "@/server/organizations/service";

export const unique = () => crypto.randomBytes(5).toString("hex");

/** The code of the AppError a promise rejects with (fails the test when it resolves or throws anything else). */
/** The AppError the promise rejects with (the test fails if it resolves or throws anything else). */
export async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

export async function codeOf(p: Promise<unknown>) {
  return (await refusal(p)).code;
}

export async function createUser(name = "Test User") {
  const id = `usr_${unique()}`;
  return db.user.create({ data: { id, name, email: `${id}@example.test` } });
}

/** A user who owns a fresh organization, and their actor there. */
export async function ownerWithOrganization(orgName = `Org ${unique()}`) {
  const user = await createUser();
  const org = await createOrganization(user.id, { name: orgName, email: user.email });
  const actor: Actor = { organizationId: org.id, userId: user.id, role: "OWNER" };
  return { user, org, actor };
}

export async function addMember(organizationId: string, role: "ADMIN" | "MEMBER") {
  const user = await createUser(`${role} ${unique()}`);
  await db.member.create({ data: { organizationId, userId: user.id, role } });
  const actor: Actor = { organizationId, userId: user.id, role };
  return { user, actor };
}

/**
 * The user as a dashboard request knows them: their row and a session signed
 * in just now (money moves, keys and roles need one from the last 10 minutes).
 */
export async function signedInUser(userId: string) {
  const sessionId = `ses_${unique()}`;
  await db.session.create({
    data: { id: sessionId, token: `tok_${unique()}`, userId, expiresAt: new Date(Date.now() + 86_400_000) },
  });
  return { ...(await db.user.findUniqueOrThrow({ where: { id: userId } })), sessionId };
}
