// The team in the browser: an admin invites by email, the invitee opens the
// mailed link in another browser, signs up and joins as MEMBER (policies yes,
// team no), and loses access the moment the admin removes them. Also: every
// state of an invitation link, the wrong account, and an existing user.
import { expect, test, type Browser, type Page } from "@playwright/test";
import {
  currentOrganization,
  invitationLinks,
  joinTeam,
  latestInvitationLink,
  ok,
  tenantWithClients,
  trpcError,
} from "../api/_helpers";
import { BASE_URL, signUp, unique, type Account } from "../support/api";
import { checkPage, SCREENS_DIR } from "../support/screens";

const SCREENS = SCREENS_DIR;

/** The browser context's own session, usable with the tRPC helpers (page.request shares its cookies). */
const browserAccount = (page: Page): Account => ({ session: page.request, email: "", password: "", userId: "" });

/** A page signed in as `account` (its session cookie copied into a fresh browser context). */
async function signedInPage(browser: Browser, account?: Account): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL });
  if (account) await context.addCookies((await account.session.storageState()).cookies);
  return context.newPage();
}

const TEAM_PROCEDURES: [string, "query" | "mutation", unknown][] = [
  ["team.members", "query", { limit: 20 }],
  ["team.invitations", "query", { limit: 20 }],
  ["team.invite", "mutation", { email: "someone-else@example.test", role: "MEMBER" }],
  ["team.updateRole", "mutation", { id: "any-member", role: "ADMIN" }],
  ["team.remove", "mutation", { id: "any-member" }],
  ["team.activeApiKeys", "query", { id: "any-member" }],
  ["team.resend", "mutation", { id: "any-invitation" }],
  ["team.cancel", "mutation", { id: "any-invitation" }],
];

test("an admin invites a new address; the invitee signs up from the emailed link, joins as MEMBER, and is cut off when removed", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const orgName = `Lagos Cover ${unique()}`;
  const owner = await signUp({ organizationName: orgName, name: "Ada Obi" });
  const admin = await signedInPage(browser, owner);
  const inviteeEmail = `bayo-${unique()}@example.test`;

  // A policy, published by the admin, for the member to see later.
  await admin.goto("/policies/new");
  await admin.getByLabel("Name").fill("Motor Basic");
  await admin.getByLabel("Type").selectOption("auto");
  await admin.getByLabel("Duration").selectOption("yearly");
  await admin.getByLabel("Price (NGN)").fill("150");
  await admin.getByRole("button", { name: "Create policy" }).click();
  await expect(admin).toHaveURL(/\/policies\/(?!new)[^/]+$/);

  // The team page: only the owner, no invitations.
  await admin.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team" }).click();
  await expect(admin.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  const ownerRow = admin.getByTestId("member-row");
  await expect(ownerRow).toHaveCount(1);
  await expect(ownerRow).toContainText("Ada Obi");
  await expect(ownerRow).toContainText("(you)");
  await expect(ownerRow).toContainText("Owner");
  await expect(ownerRow.getByRole("button", { name: "Remove" })).toHaveCount(0);
  await expect(admin.getByText("No pending invitations")).toBeVisible();
  await checkPage(admin, "team-no-invitations", ownerRow);

  // Invite: the form's own check, then the service's 409, then the real one.
  await admin.getByRole("button", { name: "Invite", exact: true }).click();
  const dialog = admin.getByRole("dialog");
  await dialog.getByLabel("Email").fill("not-an-email");
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(dialog.getByText("Enter a valid email address")).toBeVisible();
  await dialog.getByLabel("Email").fill(owner.email);
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(dialog.getByText(`${owner.email} is already a member of this organization`)).toBeVisible();
  await checkPage(admin, "team-invite-dialog", dialog.getByText("is already a member"));
  await dialog.getByLabel("Email").fill(inviteeEmail);
  await dialog.getByLabel("Role").selectOption("MEMBER");
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(admin.getByText(`Invitation sent to ${inviteeEmail}`)).toBeVisible();
  await expect(dialog).toBeHidden();
  const invitationRow = admin.getByTestId("invitation-row").filter({ hasText: inviteeEmail });
  await expect(invitationRow).toContainText("Member · invited by Ada Obi");
  await checkPage(admin, "team", invitationRow);

  // The email in DATA_DIR/mail carries the link.
  const link = await latestInvitationLink(inviteeEmail);
  expect(link.startsWith(`${BASE_URL}/invite/`)).toBe(true);

  // A second browser, nobody signed in, opens it and signs up.
  const invitee = await signedInPage(browser);
  await invitee.goto(link);
  await expect(invitee.getByRole("heading", { name: `Join ${orgName}` })).toBeVisible();
  await expect(invitee.getByText(`invited ${inviteeEmail} to join ${orgName} as a member`)).toBeVisible();
  await expect(invitee.getByText("Create your account to join.")).toBeVisible();
  const lockedEmail = invitee.getByLabel("Email");
  await expect(lockedEmail).toHaveValue(inviteeEmail);
  await expect(lockedEmail).toBeDisabled();
  await invitee.getByRole("button", { name: "Create account and join" }).click();
  await expect(invitee.getByText("Enter your name")).toBeVisible();
  await invitee.getByLabel("Your name").fill("Bayo Member");
  await invitee.getByLabel("Password").fill("correct-horse-battery");
  await invitee.screenshot({ path: `${SCREENS}/invite-sign-up.png` });
  await invitee.getByRole("button", { name: "Create account and join" }).click();

  // Joined as MEMBER, in the inviting organization.
  await expect(invitee.getByRole("heading", { name: "Welcome, Bayo" })).toBeVisible();
  await expect(invitee.getByRole("button", { name: /switch organization$/i })).toContainText(orgName);
  const memberSession = browserAccount(invitee);
  expect(await currentOrganization(memberSession)).toMatchObject({ name: orgName, role: "MEMBER" });

  // Policies yes; team no; API keys read-only (e2e/ui/roles.spec.ts).
  const nav = invitee.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Policies" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Team" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "API keys" })).toBeVisible();
  await nav.getByRole("link", { name: "Policies" }).click();
  await expect(invitee.getByTestId("policy-row").filter({ hasText: "Motor Basic" })).toBeVisible();
  await invitee.goto("/team");
  await expect(invitee.getByText("Only owners and admins manage the team")).toBeVisible();
  await expect(invitee.getByTestId("member-row")).toHaveCount(0);
  await expect(invitee.getByRole("button", { name: "Invite", exact: true })).toHaveCount(0);
  await checkPage(invitee, "member-team", invitee.getByText("Only owners and admins manage the team"));

  // Every team procedure refuses the member's session.
  for (const [procedure, kind, input] of TEAM_PROCEDURES) {
    expect(await trpcError(memberSession, procedure, input, kind), procedure).toMatchObject({ status: 403, code: "forbidden" });
  }

  // The admin sees the new member and no pending invitation, then removes them.
  await admin.reload();
  const memberRow = admin.getByTestId("member-row").filter({ hasText: inviteeEmail });
  await expect(memberRow).toContainText("Bayo Member");
  await expect(memberRow.getByLabel("Role of Bayo Member")).toHaveValue("MEMBER");
  await expect(admin.getByText("No pending invitations")).toBeVisible();
  await memberRow.getByRole("button", { name: "Remove" }).click();
  const confirm = admin.getByRole("alertdialog");
  await expect(confirm).toContainText("Remove Bayo Member?");
  await checkPage(admin, "team-remove-dialog", confirm);
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(admin.getByText("Bayo Member was removed")).toBeVisible();
  await expect(memberRow).toHaveCount(0);
  await expect(admin.getByTestId("member-row")).toHaveCount(1);

  // The member's very next request is refused; the dashboard sends them away.
  expect(await trpcError(memberSession, "organizations.current", undefined, "query")).toMatchObject({
    status: 403,
    code: "forbidden",
  });
  expect(await trpcError(memberSession, "team.members", { limit: 20 }, "query")).toMatchObject({
    status: 403,
    code: "forbidden",
  });
  await invitee.goto("/policies");
  await expect(invitee).toHaveURL(/\/onboarding$/);
  await expect(invitee.getByRole("heading", { name: "Create your organization" })).toBeVisible();

  // The used link now says so.
  await invitee.goto(link);
  await expect(invitee.getByRole("heading", { name: "This invitation was already used" })).toBeVisible();

  await invitee.context().close();
  await admin.context().close();
});

test("cancelled, replaced, used and unknown links each show a clear page; the resent link works", async ({ browser }) => {
  test.setTimeout(120_000);
  const orgName = `Link States ${unique()}`;
  const t = await tenantWithClients(orgName);
  const cancelEmail = `cancel-${unique()}@example.test`;
  const resendEmail = `resend-${unique()}@example.test`;
  for (const email of [cancelEmail, resendEmail]) {
    await ok(await t.write.post(`organizations/${t.organizationId}/invite`, { data: { email, role: "MEMBER" } }), 201);
  }
  const cancelLink = await latestInvitationLink(cancelEmail);
  const oldLink = await latestInvitationLink(resendEmail);
  const used = await joinTeam(t, "MEMBER");
  const usedLink = await latestInvitationLink(used.email);

  // The admin cancels one and resends the other from the team page.
  const admin = await signedInPage(browser, t.account);
  await admin.goto("/team");
  const cancelRow = admin.getByTestId("invitation-row").filter({ hasText: cancelEmail });
  await cancelRow.getByRole("button", { name: "Cancel" }).click();
  const confirm = admin.getByRole("alertdialog");
  await expect(confirm).toContainText(`Cancel the invitation to ${cancelEmail}?`);
  await confirm.getByRole("button", { name: "Cancel invitation" }).click();
  await expect(admin.getByText(`Invitation to ${cancelEmail} cancelled`)).toBeVisible();
  await expect(cancelRow).toHaveCount(0);

  await admin.getByTestId("invitation-row").filter({ hasText: resendEmail }).getByRole("button", { name: "Resend" }).click();
  await expect(admin.getByText(`Invitation sent again to ${resendEmail}`)).toBeVisible();
  const [, newLink] = await invitationLinks(resendEmail, 2);
  expect(newLink).not.toBe(oldLink);

  const visitor = await signedInPage(browser);
  const pages: [string, string, string][] = [
    ["cancelled", cancelLink, "This invitation was cancelled"],
    ["replaced by a resend", oldLink, "This invitation link is not valid"],
    ["already used", usedLink, "This invitation was already used"],
    ["unknown (well-formed)", `/invite/${"A".repeat(43)}`, "This invitation link is not valid"],
    ["malformed", "/invite/not-a-token", "This invitation link is not valid"],
  ];
  for (const [label, url, heading] of pages) {
    await visitor.goto(url);
    await expect(visitor.getByRole("heading", { level: 1 }), label).toHaveText(heading);
    await expect(visitor.getByRole("button", { name: /join/i }), label).toHaveCount(0);
  }
  await visitor.goto(cancelLink);
  await expect(visitor.getByText("Ask an admin of the organization to invite you again.")).toBeVisible();
  await visitor.screenshot({ path: `${SCREENS}/invite-cancelled.png` });

  // The resent link works.
  await visitor.goto(newLink!);
  await expect(visitor.getByRole("heading", { name: `Join ${orgName}` })).toBeVisible();
  await visitor.getByLabel("Your name").fill("Resent Person");
  await visitor.getByLabel("Password").fill("correct-horse-battery");
  await visitor.getByRole("button", { name: "Create account and join" }).click();
  await expect(visitor.getByRole("heading", { name: "Welcome, Resent" })).toBeVisible();
  expect((await currentOrganization(browserAccount(visitor))).id).toBe(t.organizationId);

  await visitor.context().close();
  await admin.context().close();
});

test("signed in with another account: the page names both addresses; after signing out the invitee can sign up", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const t = await tenantWithClients();
  const inviteeEmail = `wrong-${unique()}@example.test`;
  await ok(
    await t.write.post(`organizations/${t.organizationId}/invite`, { data: { email: inviteeEmail, role: "MEMBER" } }),
    201,
  );
  const link = await latestInvitationLink(inviteeEmail);

  const someoneElse = await signUp();
  const page = await signedInPage(browser, someoneElse);
  await page.goto(link);
  const alert = page.getByRole("alert").filter({ hasText: "You are signed in as" });
  await expect(alert).toContainText(`You are signed in as ${someoneElse.email}, but this invitation is for ${inviteeEmail}.`);
  await expect(page.getByRole("button", { name: /join/i })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENS}/invite-wrong-account.png` });
  // Nothing was joined.
  expect((await currentOrganization(someoneElse)).id).not.toBe(t.organizationId);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByText("Create your account to join.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(inviteeEmail);
  await page.context().close();
});

test("an existing user is asked to sign in (email locked), joins as ADMIN and lands in the new organization", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const orgName = `Alpha Cover ${unique()}`;
  const t = await tenantWithClients(orgName);
  const existing = await signUp({ organizationName: `Beta ${unique()}`, name: "Chioma Existing" });
  await ok(
    await t.write.post(`organizations/${t.organizationId}/invite`, { data: { email: existing.email, role: "ADMIN" } }),
    201,
  );
  const link = await latestInvitationLink(existing.email);

  const page = await signedInPage(browser);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: `Join ${orgName}` })).toBeVisible();
  await expect(page.getByText(`as an admin`)).toBeVisible();
  await expect(page.getByText("Sign in to join.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(existing.email);
  await expect(page.getByLabel("Email")).toBeDisabled();
  await expect(page.getByLabel("Your name")).toHaveCount(0);

  await page.getByLabel("Password").fill("wrong-password-123");
  await page.getByRole("button", { name: "Sign in and join" }).click();
  await expect(page.getByText("Wrong password.")).toBeVisible();
  await page.getByLabel("Password").fill(existing.password);
  await page.getByRole("button", { name: "Sign in and join" }).click();

  await expect(page.getByRole("heading", { name: "Welcome, Chioma" })).toBeVisible();
  await expect(page.getByRole("button", { name: /switch organization$/i })).toContainText(orgName);
  expect(await currentOrganization(browserAccount(page))).toMatchObject({ id: t.organizationId, role: "ADMIN" });

  // As an admin they reach the team page and see themselves.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team" }).click();
  const me = page.getByTestId("member-row").filter({ hasText: existing.email });
  await expect(me).toContainText("(you)");
  await expect(me.getByLabel("Role of Chioma Existing")).toHaveValue("ADMIN");
  await expect(page.getByTestId("member-row")).toHaveCount(2);
  await page.context().close();
});
