// npm run admin:grant -- --email ops@coverdesk.test [--revoke]
// npm run admin:grant -- --email ops@coverdesk.test --password "…" [--name "Ada Obi"]
// Makes an existing user a platform admin (reviews every business's KYB at
// /admin), or with --revoke no longer one. With --password a missing user is
// created first, through better-auth like a sign-up but without an
// organization: a platform operator needs none. An existing user's password is
// never changed here. Idempotent; prints one line.
import { parseArgs } from "node:util";
import { isAPIError } from "better-auth/api";
import { z } from "zod";
import { getAuth } from "@/server/auth";
import { db, disconnectDatabase } from "@/server/db/client";

const USAGE = 'Usage: npm run admin:grant -- --email ops@example.com [--revoke] [--password "…" [--name "Ada Obi"]]';

async function createUser(email: string, password: string, name: string) {
  try {
    const { user } = await getAuth().api.signUpEmail({ body: { email, password, name } });
    // Sign-up signs the new user in (autoSignIn); the operator signs in themselves.
    await db.session.deleteMany({ where: { userId: user.id } });
    return user;
  } catch (err) {
    if (isAPIError(err)) throw new Error(`Could not create ${email}: ${err.message}`);
    throw err;
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      revoke: { type: "boolean", default: false },
      password: { type: "string" },
      name: { type: "string" },
    },
  });
  const email = z.email().max(254).safeParse(values.email?.trim().toLowerCase());
  if (!email.success) throw new Error(`--email: give the user's email address. ${USAGE}`);
  if (values.revoke && values.password !== undefined) throw new Error(`--revoke creates nobody: leave out --password. ${USAGE}`);
  if (values.password !== undefined && (values.password.length < 8 || values.password.length > 128)) {
    throw new Error("--password: 8 to 128 characters");
  }
  const name = (values.name?.trim() || email.data.split("@")[0]!).slice(0, 120);

  let user = await db.user.findUnique({ where: { email: email.data }, select: { id: true, platformAdmin: true } });
  let created = false;
  if (!user) {
    if (values.password === undefined) {
      throw new Error(`No user with the email ${email.data}: sign up first, or pass --password to create one`);
    }
    const made = await createUser(email.data, values.password, name);
    user = { id: made.id, platformAdmin: false };
    created = true;
  }

  const want = !values.revoke;
  if (user.platformAdmin !== want) await db.user.update({ where: { id: user.id }, data: { platformAdmin: want } });
  const what = want ? "is a platform admin" : "is no longer a platform admin";
  const how = created ? "created" : user.platformAdmin === want ? "unchanged" : "updated";
  process.stdout.write(`${email.data} ${what} (user ${user.id}, ${how})\n`);
}

main()
  .then(() => disconnectDatabase())
  .catch(async (err: Error) => {
    process.stderr.write(`${err.message}\n`);
    await disconnectDatabase().catch(() => {});
    process.exit(1);
  });
