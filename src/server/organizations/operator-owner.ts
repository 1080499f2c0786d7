// The operator's scripts (`npm run bootstrap`, `npm run demo`) make an owner as
// an operator would, before or beside the app: the user by email (made once),
// a sign-in password when given (set again on each run), and the organization
// of that name they own (made once). Idempotent on email + organization name.
import crypto from "node:crypto";
import { db } from "@/server/db/client";
import { createOrganization } from "@/server/organizations/service";
import { hashPassword } from "@/server/password";

export async function ensureOwner(input: {
  email: string;
  name: string;
  organizationName: string;
  password?: string;
  emailVerified?: boolean;
}): Promise<{ userId: string; organizationId: string }> {
  const { email, organizationName } = input;
  const user =
    (await db.user.findUnique({ where: { email } })) ??
    (await db.user.create({
      data: {
        id: crypto.randomBytes(24).toString("base64url"),
        email,
        name: input.name,
        ...(input.emailVerified ? { emailVerified: true } : {}),
      },
    }));
  if (input.password) {
    const password = await hashPassword(input.password);
    const existing = await db.account.findFirst({ where: { userId: user.id, providerId: "credential" } });
    if (existing) await db.account.update({ where: { id: existing.id }, data: { password } });
    else {
      await db.account.create({
        data: {
          id: crypto.randomBytes(24).toString("base64url"),
          userId: user.id,
          accountId: user.id,
          providerId: "credential",
          password,
        },
      });
    }
  }
  const owned = await db.member.findFirst({
    where: { userId: user.id, role: "OWNER", organization: { name: organizationName } },
  });
  const organizationId = owned?.organizationId ?? (await createOrganization(user.id, { name: organizationName, email })).id;
  return { userId: user.id, organizationId };
}
