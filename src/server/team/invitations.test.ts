// Invitations against a real database: hashed single-use tokens, the emailed
// link, 7-day expiry, resend, cancel, accept, the 409 rules, the 100-pending
// cap, tenancy and who may do what.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { createApiKey } from "@/server/api-keys/service";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { AppError, type ErrorCode } from "@/server/errors";
import { mailDir } from "@/server/integrations/email";
import { addMember, createUser, ownerWithOrganization, unique } from "@/test/fixtures";
import {
  MAX_PENDING_INVITATIONS,
  acceptInvitation,
  cancelInvitation,
  inviteMember,
  listInvitations,
  previewInvitation,
  resendInvitation,
} from "./invitations";
import { InviteMemberInput } from "@/lib/schemas/team";
import { hashInvitationToken, looksLikeInvitationToken, newInvitationToken } from "./tokens";

async function expectAppError(promise: Promise<unknown>, code: ErrorCode) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected AppError ${code}`).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  return err as AppError;
}

const sha256 = (s: string) => crypto.createHash("sha256").update(s).digest("hex");
const DAY = 86_400_000;
const newEmail = () => `invitee-${unique()}@example.test`;
const tick = () => new Promise((r) => setTimeout(r, 5));

/** Invites through the same input schema the adapters use. */
const invite = (actor: Actor, email: string, role: string = "MEMBER") =>
  inviteMember(actor, InviteMemberInput.parse({ email, role }));

const rowOf = (id: string) => db.invitation.findUniqueOrThrow({ where: { id } });
const invitationsOf = (organizationId: string) => db.invitation.findMany({ where: { organizationId }, orderBy: { id: "asc" } });
const membersOf = (organizationId: string) => db.member.findMany({ where: { organizationId }, orderBy: { id: "asc" } });

// ---------- the local outbox (no SMTP_URL: one .eml per message) ----------

/** Undoes quoted-printable: soft line breaks and =XX escapes. */
const decodeQuotedPrintable = (s: string) =>
  s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

interface Mail {
  to: string;
  subject: string;
  body: string;
}

// Files are named by their ISO time; the shared outbox keeps earlier runs' mail, so skip it.
const SINCE = new Date(Date.now() - 60_000).toISOString().replace(/[:.]/g, "-");

/** Every message in the outbox addressed to `to` (written during this run). */
async function mailTo(to: string): Promise<Mail[]> {
  const dir = mailDir();
  const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".eml") && f >= SINCE);
  const out: Mail[] = [];
  for (const f of files) {
    const raw = await fs.readFile(path.join(dir, f), "utf8").catch(() => "");
    const header = /^To: *(.+)$/im.exec(raw)?.[1]?.trim();
    if (header?.toLowerCase() !== to.toLowerCase()) continue;
    out.push({ to: header, subject: /^Subject: *(.+)$/im.exec(raw)?.[1] ?? "", body: decodeQuotedPrintable(raw) });
  }
  return out;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const LINK = new RegExp(`${escapeRe(env.APP_URL)}/invite/([A-Za-z0-9_-]+)`, "g");

/** The distinct invitation tokens in the links mailed to `to`, one set per message. */
async function tokensMailedTo(to: string): Promise<string[][]> {
  return (await mailTo(to)).map((m) => [...new Set([...m.body.matchAll(LINK)].map((x) => x[1]!))]);
}

/** The token of the one link in the (single) newest matching email whose hash is the row's. */
async function mailedToken(to: string, tokenHash: string): Promise<string> {
  const tokens = (await tokensMailedTo(to)).flat().filter((t) => hashInvitationToken(t) === tokenHash);
  expect(tokens, `a mailed link to ${to} matching the stored hash`).toHaveLength(1);
  return tokens[0]!;
}

/** Invites `email` and returns the invitation with the token from its email. */
async function inviteWithToken(actor: Actor, email = newEmail(), role = "MEMBER") {
  const invitation = await invite(actor, email, role);
  const token = await mailedToken(email, (await rowOf(invitation.id)).tokenHash);
  return { invitation, token, email };
}

/** A signed-up user with this email (as better-auth would create it). */
const userWithEmail = (email: string, name = "Invited Person") =>
  db.user.create({ data: { id: `usr_${unique()}`, name, email } });

const setExpiresAt = (id: string, expiresAt: Date) => db.invitation.update({ where: { id }, data: { expiresAt } });

// ---------- tests ----------

describe("tokens (pure)", () => {
  it("are 256 random bits in base64url (43 characters), different every time", () => {
    const tokens = Array.from({ length: 200 }, newInvitationToken);
    for (const t of tokens) {
      expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(looksLikeInvitationToken(t)).toBe(true);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it("hash with SHA-256 (hex); only well-formed tokens are looked up", () => {
    const t = newInvitationToken();
    expect(hashInvitationToken(t)).toBe(sha256(t));
    expect(hashInvitationToken(t)).toMatch(/^[0-9a-f]{64}$/);
    for (const bad of ["", "short", `${t}x`, t.slice(1), `${t.slice(1)}=`, `${t.slice(1)}/`, "../../etc/passwd"]) {
      expect(looksLikeInvitationToken(bad), bad).toBe(false);
    }
  });
});

describe("inviteMember", () => {
  it("creates a pending invitation for 7 days, stores only the token's hash, and emails the link", async () => {
    const { actor, user, org } = await ownerWithOrganization();
    const email = newEmail();
    const before = Date.now();
    const invitation = await invite(actor, email.toUpperCase(), "ADMIN");

    expect(invitation).toEqual({
      id: expect.any(String),
      email, // lower-cased
      role: "ADMIN",
      status: "pending",
      expiresAt: expect.any(String),
      invitedBy: { userId: user.id, name: user.name, email: user.email },
      createdAt: expect.any(String),
    });
    const expiresAt = new Date(invitation.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 7 * DAY - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 7 * DAY + 1000);

    const row = await rowOf(invitation.id);
    expect(row).toMatchObject({ organizationId: org.id, email, role: "ADMIN", status: "pending", invitedById: user.id });
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    // Exactly one email, to the invitee, naming the organization and the inviter, with one link.
    const mails = await mailTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain(org.name);
    expect(mails[0]!.body).toContain(user.email);
    const [tokens] = await tokensMailedTo(email);
    expect(tokens).toHaveLength(1);
    const token = tokens![0]!;
    expect(looksLikeInvitationToken(token)).toBe(true);
    // The row holds the SHA-256 of the mailed token, and never the token itself.
    expect(row.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(invitation)).not.toContain(token);
    expect(JSON.stringify(await listInvitations(actor, { limit: 20 }))).not.toContain(token);

    // The mailed link opens the invitation.
    await expect(previewInvitation(token)).resolves.toEqual({
      status: "pending",
      email,
      role: "ADMIN",
      organizationName: org.name,
      inviterName: user.name,
      expiresAt: invitation.expiresAt,
    });
  });

  it("an existing member (any case) → already_member, nothing created, no email", async () => {
    const { actor, user, org } = await ownerWithOrganization();
    const { user: member } = await addMember(org.id, "MEMBER");
    for (const email of [member.email, member.email.toUpperCase(), user.email]) {
      const err = await expectAppError(invite(actor, email), "already_member");
      expect(err.status).toBe(409);
    }
    expect(await invitationsOf(org.id)).toEqual([]);
    expect(await mailTo(member.email)).toEqual([]);
  });

  it("an email with a pending invitation → invitation_pending (any case), one row only", async () => {
    const { actor, org } = await ownerWithOrganization();
    const email = newEmail();
    const first = await invite(actor, email);
    for (const again of [email, email.toUpperCase()]) {
      for (const role of ["MEMBER", "ADMIN"]) {
        const err = await expectAppError(invite(actor, again, role), "invitation_pending");
        expect(err.status).toBe(409);
      }
    }
    expect((await invitationsOf(org.id)).map((i) => i.id)).toEqual([first.id]);
    expect(await mailTo(email)).toHaveLength(1);
  });

  it("the same email may be invited again once the earlier invitation is cancelled or expired", async () => {
    const { actor, org } = await ownerWithOrganization();
    const email = newEmail();
    const first = await invite(actor, email);
    await cancelInvitation(actor, first.id);
    const second = await invite(actor, email);
    await setExpiresAt(second.id, new Date(Date.now() - 1000));
    const third = await invite(actor, email);
    expect(third.status).toBe("pending");
    expect((await invitationsOf(org.id)).length).toBe(3);
  });

  it("the same email may have pending invitations in two organizations", async () => {
    const a = await ownerWithOrganization();
    const b = await ownerWithOrganization();
    const email = newEmail();
    await invite(a.actor, email);
    await expect(invite(b.actor, email)).resolves.toMatchObject({ status: "pending" });
  });

  it(`at most ${MAX_PENDING_INVITATIONS} pending: the next → invitation_limit_reached; expired, cancelled and accepted do not count`, async () => {
    const { actor, user, org } = await ownerWithOrganization();
    const rows = (n: number, over: Record<string, unknown>) =>
      Array.from({ length: n }, () => ({
        organizationId: org.id,
        email: newEmail(),
        role: "MEMBER" as const,
        tokenHash: sha256(newInvitationToken()),
        expiresAt: new Date(Date.now() + DAY),
        invitedById: user.id,
        ...over,
      }));
    await db.invitation.createMany({
      data: [
        ...rows(MAX_PENDING_INVITATIONS - 1, {}),
        ...rows(3, { expiresAt: new Date(Date.now() - DAY) }),
        ...rows(3, { status: "cancelled" }),
        ...rows(3, { status: "accepted" }),
      ],
    });

    // 99 pending: one more is allowed…
    await expect(invite(actor, newEmail())).resolves.toMatchObject({ status: "pending" });
    const before = await invitationsOf(org.id);
    // …then the cap answers 409 and nothing is created or mailed.
    const refused = newEmail();
    const err = await expectAppError(invite(actor, refused), "invitation_limit_reached");
    expect(err.status).toBe(409);
    expect(await invitationsOf(org.id)).toEqual(before);
    expect(await mailTo(refused)).toEqual([]);

    // Cancelling one frees a place.
    const pending = before.find((r) => r.status === "pending" && r.expiresAt > new Date())!;
    await cancelInvitation(actor, pending.id);
    await expect(invite(actor, refused)).resolves.toMatchObject({ status: "pending" });
  });

  it("two concurrent invitations of the same email: one succeeds, the other → invitation_pending", async () => {
    const { actor, org } = await ownerWithOrganization();
    const email = newEmail();
    const results = await Promise.allSettled([invite(actor, email), invite(actor, email)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.reason).toBeInstanceOf(AppError);
    expect((rejected[0]!.reason as AppError).code).toBe("invitation_pending");
    expect(await invitationsOf(org.id)).toHaveLength(1);
  });

  it("input: a bad email or the role OWNER / unknown is refused by the schema", () => {
    for (const body of [
      { email: "not-an-email", role: "MEMBER" },
      { email: "a@example.test", role: "OWNER" },
      { email: "a@example.test", role: "GUEST" },
      { email: "a@example.test", role: "admin" },
      { email: "a@example.test" },
      { email: "a@example.test", role: "MEMBER", extra: true },
      { email: `${"a".repeat(250)}@example.test`, role: "MEMBER" },
    ]) {
      expect(InviteMemberInput.safeParse(body).success, JSON.stringify(body)).toBe(false);
    }
  });
});

describe("acceptInvitation", () => {
  it("a new user joins with the invited role; the organization becomes their active one; the link is then used up", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { invitation, token, email } = await inviteWithToken(actor, newEmail(), "MEMBER");
    const user = await userWithEmail(email);

    const before = Date.now();
    await expect(acceptInvitation({ id: user.id, email: user.email }, token)).resolves.toEqual({ organizationId: org.id });

    const member = await db.member.findUniqueOrThrow({
      where: { organizationId_userId: { organizationId: org.id, userId: user.id } },
    });
    expect(member.role).toBe("MEMBER");
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).activeOrganizationId).toBe(org.id);
    const row = await rowOf(invitation.id);
    expect(row.status).toBe("accepted");
    expect(row.acceptedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await previewInvitation(token))?.status).toBe("accepted");

    // Single use: the same link again is refused and changes nothing.
    const members = await membersOf(org.id);
    const err = await expectAppError(acceptInvitation({ id: user.id, email: user.email }, token), "invalid_state");
    expect(err.message).toMatch(/accepted/);
    expect(await membersOf(org.id)).toEqual(members);
    expect(await rowOf(invitation.id)).toEqual(row);
  });

  it("a removed member can be invited again and rejoin", async () => {
    const { actor, org } = await ownerWithOrganization();
    const first = await inviteWithToken(actor);
    const user = await userWithEmail(first.email);
    await acceptInvitation(user, first.token);
    await db.member.deleteMany({ where: { organizationId: org.id, userId: user.id } });
    const again = await inviteWithToken(actor, first.email, "ADMIN");
    await acceptInvitation(user, again.token);
    expect((await db.member.findFirstOrThrow({ where: { organizationId: org.id, userId: user.id } })).role).toBe("ADMIN");
  });

  it("an ADMIN invitation gives the ADMIN role", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { token, email } = await inviteWithToken(actor, newEmail(), "ADMIN");
    const user = await userWithEmail(email);
    await acceptInvitation(user, token);
    expect((await db.member.findFirstOrThrow({ where: { organizationId: org.id, userId: user.id } })).role).toBe("ADMIN");
  });

  it("an existing user with their own organization joins too, keeps their own, and is switched to the new one", async () => {
    const a = await ownerWithOrganization();
    const b = await ownerWithOrganization();
    const { token } = await inviteWithToken(a.actor, b.user.email);
    await acceptInvitation(b.user, token);
    const memberships = await db.member.findMany({ where: { userId: b.user.id } });
    expect(Object.fromEntries(memberships.map((m) => [m.organizationId, m.role]))).toEqual({
      [a.org.id]: "MEMBER",
      [b.org.id]: "OWNER",
    });
    expect((await db.user.findUniqueOrThrow({ where: { id: b.user.id } })).activeOrganizationId).toBe(a.org.id);
  });

  it("matches the invited email case-insensitively", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { token, email } = await inviteWithToken(actor);
    const user = await userWithEmail(email.toUpperCase());
    await acceptInvitation(user, token);
    expect(await db.member.findFirst({ where: { organizationId: org.id, userId: user.id } })).not.toBeNull();
  });

  it("someone signed in with another address → forbidden naming both addresses; the invitation stays pending", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { invitation, token, email } = await inviteWithToken(actor);
    const intruder = await createUser("Someone Else");
    const row = await rowOf(invitation.id);
    const members = await membersOf(org.id);

    const err = await expectAppError(acceptInvitation({ id: intruder.id, email: intruder.email }, token), "forbidden");
    expect(err.message).toContain(email);
    expect(err.message).toContain(intruder.email);
    expect(await rowOf(invitation.id)).toEqual(row);
    expect(await membersOf(org.id)).toEqual(members);
    expect((await db.user.findUniqueOrThrow({ where: { id: intruder.id } })).activeOrganizationId).toBeNull();

    // The right person can still use it.
    const invitee = await userWithEmail(email);
    await expect(acceptInvitation(invitee, token)).resolves.toEqual({ organizationId: org.id });
  });

  it.each([
    ["well-formed but unknown", () => newInvitationToken()],
    ["malformed", () => "not-a-token"],
    ["empty", () => ""],
  ])("a %s token → not_found; preview is null", async (_, make) => {
    const user = await createUser();
    const token = make();
    await expectAppError(acceptInvitation(user, token), "not_found");
    await expect(previewInvitation(token)).resolves.toBeNull();
  });

  it("the stored hash itself is not a token (looking up by the hash finds nothing)", async () => {
    const { actor } = await ownerWithOrganization();
    const { invitation, email } = await inviteWithToken(actor);
    const { tokenHash } = await rowOf(invitation.id);
    const user = await userWithEmail(email);
    await expectAppError(acceptInvitation(user, tokenHash), "not_found");
    await expect(previewInvitation(tokenHash)).resolves.toBeNull();
  });

  it("two concurrent accepts of the same link: exactly one succeeds", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { token, email } = await inviteWithToken(actor);
    const user = await userWithEmail(email);
    const results = await Promise.allSettled([acceptInvitation(user, token), acceptInvitation(user, token)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r): r is PromiseRejectedResult => r.status === "rejected")!;
    expect((rejected.reason as AppError).code).toBe("invalid_state");
    expect((await membersOf(org.id)).filter((m) => m.userId === user.id)).toHaveLength(1);
  });
});

describe("expiry (7 days)", () => {
  it("past expiresAt: listed and previewed as expired; accept, resend and cancel are refused; nothing changes", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { invitation, token, email } = await inviteWithToken(actor);
    await setExpiresAt(invitation.id, new Date(Date.now() - 60_000));
    const row = await rowOf(invitation.id);
    const user = await userWithEmail(email);

    expect((await listInvitations(actor, { limit: 20 })).data.map((i) => [i.id, i.status])).toEqual([[invitation.id, "expired"]]);
    expect((await previewInvitation(token))?.status).toBe("expired");

    const err = await expectAppError(acceptInvitation(user, token), "invalid_state");
    expect(err.message).toMatch(/expired/);
    await expectAppError(resendInvitation(actor, invitation.id), "invalid_state");
    await expectAppError(cancelInvitation(actor, invitation.id), "invalid_state");

    expect(await rowOf(invitation.id)).toEqual(row);
    expect(await db.member.findFirst({ where: { organizationId: org.id, userId: user.id } })).toBeNull();
    expect(await mailTo(email)).toHaveLength(1); // no second email
  });

  it("an invitation a moment before its expiry still works", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { invitation, token, email } = await inviteWithToken(actor);
    await setExpiresAt(invitation.id, new Date(Date.now() + 60_000));
    const user = await userWithEmail(email);
    await expect(acceptInvitation(user, token)).resolves.toEqual({ organizationId: org.id });
  });
});

describe("resendInvitation", () => {
  it("issues a new link (the old one stops working), resets the expiry and emails again", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { invitation, token: oldToken, email } = await inviteWithToken(actor);
    // Five days later, say: two left.
    await setExpiresAt(invitation.id, new Date(Date.now() + 2 * DAY));
    const oldHash = (await rowOf(invitation.id)).tokenHash;

    const before = Date.now();
    const resent = await resendInvitation(actor, invitation.id);
    expect(resent).toMatchObject({
      id: invitation.id,
      email,
      role: "MEMBER",
      status: "pending",
      createdAt: invitation.createdAt,
    });
    const expiresAt = new Date(resent.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 7 * DAY - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 7 * DAY + 1000);

    const row = await rowOf(invitation.id);
    expect(row.tokenHash).not.toBe(oldHash);
    expect(row.expiresAt.toISOString()).toBe(resent.expiresAt);

    // Two emails now, each with its own link; the new one matches the row.
    const mailed = (await tokensMailedTo(email)).flat();
    expect(mailed).toHaveLength(2);
    expect(mailed).toContain(oldToken);
    const newToken = await mailedToken(email, row.tokenHash);
    expect(newToken).not.toBe(oldToken);

    // The old link is dead; the new one works.
    const user = await userWithEmail(email);
    await expect(previewInvitation(oldToken)).resolves.toBeNull();
    await expectAppError(acceptInvitation(user, oldToken), "not_found");
    expect((await previewInvitation(newToken))?.status).toBe("pending");
    await expect(acceptInvitation(user, newToken)).resolves.toEqual({ organizationId: org.id });
  });

  it.each(["accepted", "cancelled"] as const)(
    "a %s invitation cannot be resent (invalid_state); no email, unchanged",
    async (state) => {
      const { actor } = await ownerWithOrganization();
      const { invitation, token, email } = await inviteWithToken(actor);
      if (state === "accepted") await acceptInvitation(await userWithEmail(email), token);
      else await cancelInvitation(actor, invitation.id);
      const row = await rowOf(invitation.id);

      const err = await expectAppError(resendInvitation(actor, invitation.id), "invalid_state");
      expect(err.message).toContain(state);
      expect(await rowOf(invitation.id)).toEqual(row);
      expect(await mailTo(email)).toHaveLength(1);
    },
  );
});

describe("cancelInvitation", () => {
  it("cancels a pending invitation; its link then shows cancelled and cannot be accepted", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { invitation, token, email } = await inviteWithToken(actor);
    const cancelled = await cancelInvitation(actor, invitation.id);
    expect(cancelled).toMatchObject({ id: invitation.id, email, status: "cancelled" });
    const row = await rowOf(invitation.id);
    expect(row.status).toBe("cancelled");
    expect(row.cancelledAt).not.toBeNull();

    expect((await previewInvitation(token))?.status).toBe("cancelled");
    const user = await userWithEmail(email);
    const err = await expectAppError(acceptInvitation(user, token), "invalid_state");
    expect(err.message).toMatch(/cancelled/);
    expect(await db.member.findFirst({ where: { organizationId: org.id, userId: user.id } })).toBeNull();

    // Cancelling twice → invalid_state, unchanged.
    await expectAppError(cancelInvitation(actor, invitation.id), "invalid_state");
    expect(await rowOf(invitation.id)).toEqual(row);
  });

  it("an accepted invitation cannot be cancelled", async () => {
    const { actor } = await ownerWithOrganization();
    const { invitation, token, email } = await inviteWithToken(actor);
    await acceptInvitation(await userWithEmail(email), token);
    await expectAppError(cancelInvitation(actor, invitation.id), "invalid_state");
    expect((await rowOf(invitation.id)).status).toBe("accepted");
  });
});

describe("races with an accept (the invitee accepts between the admin's read and write)", () => {
  /**
   * Starts `adminAction` while another transaction holds the invitation's row
   * lock and accepts it, the way acceptInvitation does. The admin's read sees
   * the invitation still pending; its write has to wait for the lock and then
   * meet the committed accept — real database concurrency, no interception.
   */
  async function acceptWhile<T>(invitationId: string, userId: string, adminAction: () => Promise<T>) {
    let action!: Promise<T | AppError>;
    await db.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ organizationId: string; role: "ADMIN" | "MEMBER" }[]>`
        SELECT "organizationId", role::text AS role FROM invitation WHERE id = ${invitationId} FOR UPDATE`;
      action = adminAction().catch((e: AppError) => e);
      // Give the admin's read time to run and its write time to queue behind the lock.
      await new Promise((r) => setTimeout(r, 300));
      await tx.member.create({ data: { organizationId: row!.organizationId, userId, role: row!.role } });
      await tx.invitation.update({ where: { id: invitationId }, data: { status: "accepted", acceptedAt: new Date() } });
    });
    return action;
  }

  it("cancel: the accepted invitation stays accepted and the cancel is refused", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { invitation, email } = await inviteWithToken(actor);
    const user = await userWithEmail(email);
    const outcome = await acceptWhile(invitation.id, user.id, () => cancelInvitation(actor, invitation.id));
    expect(outcome).toBeInstanceOf(AppError);
    expect((outcome as AppError).code).toBe("invalid_state");
    expect(await db.member.findFirst({ where: { organizationId: org.id, userId: user.id } })).not.toBeNull();
    expect((await rowOf(invitation.id)).status).toBe("accepted");
  });

  it("resend: the accepted invitation keeps its token and no new email goes out", async () => {
    const { actor } = await ownerWithOrganization();
    const { invitation, token, email } = await inviteWithToken(actor);
    const user = await userWithEmail(email);
    const outcome = await acceptWhile(invitation.id, user.id, () => resendInvitation(actor, invitation.id));
    expect((outcome as AppError).code).toBe("invalid_state");
    const row = await rowOf(invitation.id);
    expect(row.status).toBe("accepted");
    expect(row.tokenHash).toBe(sha256(token));
    expect(await mailTo(email)).toHaveLength(1);
  });
});

describe("listInvitations", () => {
  it("filters by status (pending, accepted, cancelled, expired), newest first", async () => {
    const { actor } = await ownerWithOrganization();
    const accepted = await inviteWithToken(actor);
    await acceptInvitation(await userWithEmail(accepted.email), accepted.token);
    await tick();
    const cancelled = await invite(actor, newEmail());
    await cancelInvitation(actor, cancelled.id);
    await tick();
    const expired = await invite(actor, newEmail());
    await setExpiresAt(expired.id, new Date(Date.now() - 1000));
    await tick();
    const pending = await invite(actor, newEmail());

    const ids = async (status?: "pending" | "accepted" | "cancelled" | "expired") =>
      (await listInvitations(actor, { limit: 20, status })).data.map((i) => [i.id, i.status]);
    expect(await ids()).toEqual([
      [pending.id, "pending"],
      [expired.id, "expired"],
      [cancelled.id, "cancelled"],
      [accepted.invitation.id, "accepted"],
    ]);
    expect(await ids("pending")).toEqual([[pending.id, "pending"]]);
    expect(await ids("expired")).toEqual([[expired.id, "expired"]]);
    expect(await ids("cancelled")).toEqual([[cancelled.id, "cancelled"]]);
    expect(await ids("accepted")).toEqual([[accepted.invitation.id, "accepted"]]);
  });

  it("pages with limit and cursor", async () => {
    const { actor } = await ownerWithOrganization();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      created.push((await invite(actor, newEmail())).id);
      await tick();
    }
    const first = await listInvitations(actor, { limit: 3, status: "pending" });
    const second = await listInvitations(actor, { limit: 3, status: "pending", cursor: first.nextCursor! });
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(second.nextCursor).toBeNull();
    expect([...first.data, ...second.data].map((i) => i.id)).toEqual(created.reverse());
  });
});

describe("tenant isolation", () => {
  it("another organization's invitation id is not found for resend and cancel; unchanged, no email", async () => {
    const a = await ownerWithOrganization();
    const b = await ownerWithOrganization();
    const { invitation, email } = await inviteWithToken(b.actor);
    const before = await rowOf(invitation.id);

    await expectAppError(resendInvitation(a.actor, invitation.id), "not_found");
    await expectAppError(cancelInvitation(a.actor, invitation.id), "not_found");
    expect(await rowOf(invitation.id)).toEqual(before);
    expect(await mailTo(email)).toHaveLength(1);
    expect((await listInvitations(a.actor, { limit: 100 })).data).toEqual([]);
    expect((await listInvitations(b.actor, { limit: 100 })).data.map((i) => i.id)).toEqual([invitation.id]);
  });

  it("an unknown invitation id is not found", async () => {
    const { actor } = await ownerWithOrganization();
    await expectAppError(resendInvitation(actor, "no-such-invitation"), "not_found");
    await expectAppError(cancelInvitation(actor, "no-such-invitation"), "not_found");
  });
});

describe("who may manage invitations", () => {
  type Who = "OWNER" | "ADMIN" | "MEMBER" | "read key" | "write key";
  async function actorAs(who: Who): Promise<{ actor: Actor; ownerActor: Actor }> {
    const { actor: ownerActor, org } = await ownerWithOrganization();
    if (who === "OWNER") return { actor: ownerActor, ownerActor };
    if (who === "ADMIN" || who === "MEMBER") return { actor: (await addMember(org.id, who)).actor, ownerActor };
    const permissions: ("read" | "write")[] = who === "read key" ? ["read"] : ["read", "write"];
    const key = await createApiKey(ownerActor, { name: who, permissions });
    return { actor: { ...ownerActor, apiKey: { id: key.id, permissions } }, ownerActor };
  }

  // [list, invite / resend / cancel]
  const expected: Record<Who, [ErrorCode | null, ErrorCode | null]> = {
    OWNER: [null, null],
    ADMIN: [null, null],
    "write key": [null, null],
    "read key": [null, "insufficient_permissions"],
    MEMBER: ["forbidden", "forbidden"],
  };

  const operations: Record<string, (actor: Actor, invitationId: string) => Promise<unknown>> = {
    invite: (actor) => invite(actor, newEmail()),
    resend: (actor, id) => resendInvitation(actor, id),
    cancel: (actor, id) => cancelInvitation(actor, id),
  };

  for (const [who, [listCode, mutateCode]] of Object.entries(expected) as [Who, [ErrorCode | null, ErrorCode | null]][]) {
    it(`${who}: listInvitations → ${listCode ?? "allowed"}`, async () => {
      const { actor, ownerActor } = await actorAs(who);
      const target = await invite(ownerActor, newEmail());
      if (listCode) await expectAppError(listInvitations(actor, { limit: 20 }), listCode);
      else expect((await listInvitations(actor, { limit: 20 })).data.map((i) => i.id)).toEqual([target.id]);
    });

    for (const [op, run] of Object.entries(operations)) {
      it(`${who}: ${op} → ${mutateCode ?? "allowed"}`, async () => {
        const { actor, ownerActor } = await actorAs(who);
        const target = await invite(ownerActor, newEmail());
        const before = await invitationsOf(actor.organizationId);
        if (mutateCode) {
          await expectAppError(run(actor, target.id), mutateCode);
          expect(await invitationsOf(actor.organizationId)).toEqual(before);
        } else {
          await expect(run(actor, target.id)).resolves.toMatchObject({ id: expect.any(String) });
          expect(await invitationsOf(actor.organizationId)).not.toEqual(before);
        }
      });
    }
  }
});
