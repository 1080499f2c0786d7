// Every service that changes an organization's data writes its audit entry in
// the change's own transaction, naming the caller of the request's audit
// context (a user, a key, a policyholder; the platform admin for a KYB
// decision) — and writes none when the change is refused.
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { PayClaimInput } from "@/lib/schemas/claim-payouts";
import { CreateClaimInput, UpdateClaimStatusInput } from "@/lib/schemas/claims";
import { CancelCoverageInput } from "@/lib/schemas/coverages";
import { UpdateCertificateInput, UploadCertificateInput, UploadReceiptSampleInput } from "@/lib/schemas/documents";
import { NotificationTemplateInput, PortalContactInput } from "@/lib/schemas/notifications";
import { CreatePaymentLinkInput, UpdatePaymentLinkInput } from "@/lib/schemas/payment-links";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { CreatePolicyInput, UpdatePolicyInput } from "@/lib/schemas/policies";
import { PortalClaimInput } from "@/lib/schemas/portal";
import { RefundPaymentInput } from "@/lib/schemas/refunds";
import { UpdateSettingsInput, UploadLogoInput } from "@/lib/schemas/settings";
import { InviteMemberInput } from "@/lib/schemas/team";
import { CreateWebhookInput } from "@/lib/schemas/webhooks";
import { WithdrawInput } from "@/lib/schemas/withdrawals";
import { retryPayout } from "@/server/admin/payouts";
import { approveKyb as adminApproveKyb, requirePlatformAdmin } from "@/server/admin/service";
import { removeBankAccount, setDefaultBankAccount, verifyBankAccount } from "@/server/bank-accounts/service";
import { payClaim } from "@/server/claim-payouts/service";
import { settleClaimPayout } from "@/server/claim-payouts/settle";
import { addClaimAttachments } from "@/server/claims/attachments";
import { submitClaim, updateClaimStatus } from "@/server/claims/service";
import { cancelCoverage } from "@/server/coverages/cancel";
import { connectDatabase, db } from "@/server/db/client";
import {
  deleteCertificate,
  deleteReceiptSample,
  setCertificateActive,
  uploadCertificate,
  uploadReceiptSample,
} from "@/server/documents/service";
import { submitKyb } from "@/server/kyb/service";
import { resetTemplate, setPortalContact, updateTemplate } from "@/server/notices/service";
import { createOrganization, updateOrganization } from "@/server/organizations/service";
import { createPaymentLink, updatePaymentLink } from "@/server/payment-links/service";
import { payWithCard, retryPayment, SANDBOX_CARDS } from "@/server/payments/checkout";
import { initializePayment } from "@/server/payments/service";
import { createPolicy, setPolicyStatus, updatePolicy } from "@/server/policies/service";
import { filePortalClaim } from "@/server/portal/service";
import { refundPayment } from "@/server/refunds/service";
import { settleRefund } from "@/server/refunds/settle";
import { setAutoRenew } from "@/server/renewals/service";
import { removeLogo, setLogo, updateSettings } from "@/server/settings/service";
import { acceptInvitation, cancelInvitation, inviteMember, resendInvitation } from "@/server/team/invitations";
import { updateMemberRole } from "@/server/team/members";
import { hashInvitationToken, newInvitationToken } from "@/server/team/tokens";
import { createWebhook, deleteWebhook, setWebhookStatus } from "@/server/webhooks/service";
import { SANDBOX_VERIFICATION_CODE } from "@/server/payouts/sandbox";
import { settleWithdrawal } from "@/server/payouts/settle";
import { requestWithdrawal } from "@/server/withdrawals/service";
import { addMember, createUser, ownerWithOrganization, refusal, unique } from "@/test/fixtures";
import { approveKyb, bankAccount, card, receivePayment } from "@/test/money";
import { kybUploads, PDF_BYTES, upload } from "@/test/uploads";
import { withAuditContext, type AuditWho } from "./record";

beforeAll(connectDatabase);

/** A real 4 × 4 PNG (a logo is decoded and shrunk). */
const logoPng = () =>
  sharp(Buffer.alloc(4 * 4 * 3, 200), { raw: { width: 4, height: 4, channels: 3 } })
    .png()
    .toBuffer();

const asUser = (user: { id: string; email: string }): AuditWho => ({
  actorType: "user",
  actorId: user.id,
  actorLabel: user.email,
  ipAddress: "203.0.113.9",
  requestId: `req_${unique()}`,
});

/** The organization's entries, oldest first (optionally of one action or a prefix ending in a dot). */
async function entries(organizationId: string, action?: string) {
  return db.auditLog.findMany({
    where: {
      organizationId,
      ...(action ? (action.endsWith(".") ? { action: { startsWith: action } } : { action }) : {}),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

const actions = async (organizationId: string, prefix?: string) => (await entries(organizationId, prefix)).map((e) => e.action);

describe("the audit log of each area", () => {
  it("team invitations: created, resent, cancelled, accepted (by the joining user); none for a refused invitation", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    const who = asUser(user);
    const email = `new-${unique()}@example.test`;
    const invited = await withAuditContext(who, () => inviteMember(actor, InviteMemberInput.parse({ email, role: "MEMBER" })));
    await withAuditContext(who, () => resendInvitation(actor, invited.id));
    // The same address again is refused: nothing written.
    await refusal(withAuditContext(who, () => inviteMember(actor, InviteMemberInput.parse({ email, role: "ADMIN" }))));
    await withAuditContext(who, () => cancelInvitation(actor, invited.id));
    await refusal(withAuditContext(who, () => cancelInvitation(actor, invited.id))); // no longer pending
    expect(await actions(org.id, "invitation.")).toEqual(["invitation.created", "invitation.resent", "invitation.cancelled"]);
    const [created] = await entries(org.id, "invitation.created");
    expect(created).toMatchObject({ actorType: "user", actorId: user.id, resourceType: "invitation", resourceId: invited.id });
    expect(created!.details).toEqual({ email, role: "MEMBER" });

    // Accepted: by the user who joins, with a token the test knows.
    const joiner = await createUser("Joiner");
    const token = newInvitationToken();
    const second = await withAuditContext(who, () =>
      inviteMember(actor, InviteMemberInput.parse({ email: joiner.email, role: "ADMIN" })),
    );
    await db.invitation.update({ where: { id: second.id }, data: { tokenHash: hashInvitationToken(token) } });
    await withAuditContext(asUser(joiner), () => acceptInvitation(joiner, token));
    const [accepted] = await entries(org.id, "invitation.accepted");
    expect(accepted).toMatchObject({ actorType: "user", actorId: joiner.id, resourceId: second.id });
  });

  it("bank accounts: added, verified, default changed, removed; none for a wrong code", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    const who = asUser(user);
    const first = await withAuditContext(who, () => bankAccount(actor));
    const second = await withAuditContext(who, () => bankAccount(actor, { verified: false }));
    const before = (await entries(org.id)).length;
    await refusal(withAuditContext(who, () => verifyBankAccount(actor, second.id, { verificationCode: "WRONG1" })));
    expect((await entries(org.id)).length).toBe(before);
    await withAuditContext(who, () => verifyBankAccount(actor, second.id, { verificationCode: SANDBOX_VERIFICATION_CODE }));
    await withAuditContext(who, () => setDefaultBankAccount(actor, second.id));
    await withAuditContext(who, () => removeBankAccount(actor, first.id));
    expect(await actions(org.id, "bank_account.")).toEqual([
      "bank_account.added",
      "bank_account.verified",
      "bank_account.added",
      "bank_account.verified",
      "bank_account.default_changed",
      "bank_account.removed",
    ]);
    const [added] = await entries(org.id, "bank_account.added");
    expect(added).toMatchObject({ actorType: "user", actorId: user.id, resourceType: "bank_account", resourceId: first.id });
    expect(added!.details).toMatchObject({ accountNumberLast4: first.accountNumberLast4 });
    // Never the full number: only its last 4 digits.
    // No full account number in what was recorded (ids and times may hold any digits: only the details are read;
    // the bank accounts' own — organization.created holds a name and an email with random hex in them).
    expect(JSON.stringify((await entries(org.id, "bank_account.")).map((e) => e.details))).not.toMatch(/\d{10}/);
  });

  it("withdrawals: requested; none over the balance", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    await receivePayment(actor, "100.00");
    await approveKyb(actor);
    const account = await bankAccount(actor);
    const who = asUser(user);
    await refusal(
      withAuditContext(who, () => requestWithdrawal(actor, WithdrawInput.parse({ amount: 500, bankAccountId: account.id }))),
    );
    expect(await actions(org.id, "withdrawal.")).toEqual([]);
    const w = await withAuditContext(who, () =>
      requestWithdrawal(actor, WithdrawInput.parse({ amount: 20, bankAccountId: account.id })),
    );
    const [entry] = await entries(org.id, "withdrawal.");
    expect(entry).toMatchObject({
      action: "withdrawal.requested",
      actorType: "user",
      actorId: user.id,
      resourceType: "withdrawal",
      resourceId: w.id,
    });
    expect(entry!.details).toMatchObject({ amount: "20.00", accountNumberLast4: account.accountNumberLast4 });
  });

  it("claims: created by staff and on the portal, status changed with from/to and the approved amount; a paid payout requested; none for a refused move", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    await receivePayment(actor, "100.00");
    await receivePayment(actor, "100.00");
    await approveKyb(actor);
    const who = asUser(user);
    const policy = await db.policy.findFirstOrThrow({ where: { organizationId: org.id } });
    const claim = await withAuditContext(who, () =>
      submitClaim(actor, CreateClaimInput.parse({ policyId: policy.id, type: "theft", description: "Phone stolen", amount: 50 })),
    );
    await withAuditContext(who, () =>
      addClaimAttachments(actor, claim.id, [upload("file1", PDF_BYTES(), "receipt.pdf")], "dashboard"),
    );
    await refusal(
      withAuditContext(who, () =>
        updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "approved", approvedAmount: 60 })),
      ),
    );
    await withAuditContext(who, () =>
      updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "under_review" })),
    );
    await withAuditContext(who, () =>
      updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "approved", approvedAmount: 40 })),
    );
    const payout = await withAuditContext(who, () =>
      payClaim(actor, claim.id, PayClaimInput.parse({ accountNumber: "3000000001", bankCode: "058" })),
    );
    expect(await actions(org.id, "claim.")).toEqual([
      "claim.created",
      "claim.attachments_added",
      "claim.status_changed",
      "claim.status_changed",
    ]);
    const moves = await entries(org.id, "claim.status_changed");
    expect(moves[1]).toMatchObject({ actorId: user.id, resourceId: claim.id });
    expect(moves[1]!.details).toMatchObject({ from: "under_review", to: "approved", approvedAmount: "40.00" });
    const [paid] = await entries(org.id, "claim_payout.requested");
    expect(paid).toMatchObject({ actorId: user.id, resourceType: "claim_payout", resourceId: payout.id });
    expect(paid!.details).toMatchObject({ claimId: claim.id, amount: "40.00", accountNumberLast4: "0001" });
    expect(JSON.stringify(paid!.details)).not.toContain("3000000001");

    // The policyholder on the portal.
    const coverage = await db.coverage.findFirstOrThrow({ where: { organizationId: org.id } });
    const holder = { actorType: "policyholder" as const, actorId: coverage.customerEmail, actorLabel: coverage.customerEmail };
    await withAuditContext(holder, () =>
      filePortalClaim(
        { id: "ps_test", organizationId: org.id, email: coverage.customerEmail },
        PortalClaimInput.parse({ coverageId: coverage.id, type: "fire", description: "Kitchen fire", amount: 10 }),
        [],
      ),
    );
    const created = await entries(org.id, "claim.created");
    expect(created[1]).toMatchObject({ actorType: "policyholder", actorId: coverage.customerEmail });
    expect(created[1]!.details).toMatchObject({ source: "portal", amount: "10.00" });
  });

  it("refunds and coverages: refund created, coverage cancelled, auto-renew switched; none for an over-refund", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    const reference = await receivePayment(actor, "100.00");
    await receivePayment(actor, "100.00");
    const who = asUser(user);
    await refusal(withAuditContext(who, () => refundPayment(actor, reference, RefundPaymentInput.parse({ amount: 100.01 }))));
    expect(await actions(org.id, "refund.")).toEqual([]);
    const refund = await withAuditContext(who, () =>
      refundPayment(actor, reference, RefundPaymentInput.parse({ amount: 10, reason: "Bought twice" })),
    );
    const [refunded] = await entries(org.id, "refund.created");
    expect(refunded).toMatchObject({ actorId: user.id, resourceType: "refund", resourceId: refund.id });
    expect(refunded!.details).toMatchObject({ paymentReference: reference, amount: "10.00", reason: "Bought twice" });

    const coverage = await db.coverage.findFirstOrThrow({ where: { organizationId: org.id } });
    await db.coverage.update({ where: { id: coverage.id }, data: { autoRenew: true } });
    await withAuditContext(who, () => setAutoRenew(actor, { id: coverage.id, autoRenew: false }));
    await withAuditContext(who, () => setAutoRenew(actor, { id: coverage.id, autoRenew: false })); // no change, no entry
    const switched = await entries(org.id, "coverage.updated");
    expect(switched).toHaveLength(1);
    expect(switched[0]!.details).toMatchObject({ before: { autoRenew: true }, after: { autoRenew: false } });

    await withAuditContext(who, () =>
      cancelCoverage(actor, coverage.id, CancelCoverageInput.parse({ reason: "Sold the car", refund: "none" })),
    );
    await refusal(
      withAuditContext(who, () =>
        cancelCoverage(actor, coverage.id, CancelCoverageInput.parse({ reason: "Again", refund: "none" })),
      ),
    );
    const cancelled = await entries(org.id, "coverage.cancelled");
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatchObject({ actorId: user.id, resourceType: "coverage", resourceId: coverage.id });
    expect(cancelled[0]!.details).toMatchObject({ reason: "Sold the car", refund: null });
  });

  it("settings: the changed fields only, logo set and removed; none by a member or for no change", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    const { actor: member } = await addMember(org.id, "MEMBER");
    const who = asUser(user);
    await refusal(withAuditContext(who, () => updateSettings(member, UpdateSettingsInput.parse({ api: { rateLimit: 5 } }))));
    const now = await db.organization.findUniqueOrThrow({ where: { id: org.id } });
    await withAuditContext(who, () => updateSettings(actor, UpdateSettingsInput.parse({ api: { rateLimit: now.apiRateLimit } })));
    expect(await actions(org.id, "settings.")).toEqual([]);
    await withAuditContext(who, () =>
      updateSettings(actor, UpdateSettingsInput.parse({ api: { rateLimit: 77 }, notifications: { email: now.notifyEmail } })),
    );
    const [updated] = await entries(org.id, "settings.updated");
    expect(updated).toMatchObject({ actorId: user.id, resourceType: "settings", resourceId: org.id });
    expect(updated!.details).toEqual({ before: { "api.rateLimit": now.apiRateLimit }, after: { "api.rateLimit": 77 } });
    const png = await logoPng();
    await withAuditContext(who, () => setLogo(actor, UploadLogoInput.parse({ file: upload("file", png, "logo.png") })));
    await withAuditContext(who, () => removeLogo(actor));
    await withAuditContext(who, () => removeLogo(actor)); // nothing to remove
    expect(await actions(org.id, "settings.")).toEqual(["settings.updated", "settings.logo_set", "settings.logo_removed"]);
  });

  it("notification templates: updated with what changed, reset; none for refused words", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    const who = asUser(user);
    const input = NotificationTemplateInput.parse({
      emailSubject: "Good news, {{customerName}}",
      emailBody: "We approved {{amount}}.",
      smsBody: "Approved {{amount}} {{portalLink}}",
    });
    await refusal(withAuditContext(who, () => updateTemplate(actor, "claim_approved", { ...input, emailSubject: "{{nope}}" })));
    await withAuditContext(who, () => updateTemplate(actor, "claim_approved", input));
    await withAuditContext(who, () => resetTemplate(actor, "claim_approved"));
    await withAuditContext(who, () => resetTemplate(actor, "claim_approved")); // already the default
    expect(await actions(org.id, "notification_template.")).toEqual([
      "notification_template.updated",
      "notification_template.reset",
    ]);
    const [updated] = await entries(org.id, "notification_template.updated");
    expect(updated).toMatchObject({ actorId: user.id, resourceId: "claim_approved" });
    expect(updated!.details).toMatchObject({ kind: "claim_approved", after: { emailSubject: "Good news, {{customerName}}" } });
  });

  it("webhooks: created (never the secret), disabled, enabled, deleted; none for an unsafe address", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    const key: AuditWho = { actorType: "api_key", actorId: "key_test", actorLabel: "CI (sk_test_ab…)" };
    const events = ["claim.submitted"];
    await refusal(
      withAuditContext(key, () => createWebhook(actor, CreateWebhookInput.parse({ url: "http://127.0.0.1/x", events }))),
    );
    expect(await actions(org.id, "webhook.")).toEqual([]);
    // A public address given as such: nothing to resolve.
    const hook = await withAuditContext(key, () =>
      createWebhook(actor, CreateWebhookInput.parse({ url: "https://93.184.215.14/hooks", events })),
    );
    await withAuditContext(asUser(user), () => setWebhookStatus(actor, hook.id, "disabled"));
    await withAuditContext(asUser(user), () => setWebhookStatus(actor, hook.id, "disabled")); // no change
    await withAuditContext(asUser(user), () => setWebhookStatus(actor, hook.id, "enabled"));
    await withAuditContext(asUser(user), () => deleteWebhook(actor, hook.id));
    expect(await actions(org.id, "webhook.")).toEqual([
      "webhook.created",
      "webhook.disabled",
      "webhook.enabled",
      "webhook.deleted",
    ]);
    const [created] = await entries(org.id, "webhook.created");
    expect(created).toMatchObject({ actorType: "api_key", actorId: "key_test", resourceId: hook.id });
    expect(JSON.stringify(created!.details)).not.toContain(hook.secret);
  });

  it("policies and payment links: created, updated with the changed fields, deactivated and activated; none for an unknown policy", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    const who = asUser(user);
    const input = CreatePolicyInput.parse({ name: "Phone cover", type: "property", duration: "yearly", price: "25.00" });
    const before = (await entries(org.id, "policy.")).length;
    const policy = await withAuditContext(who, () => createPolicy(actor, input));
    await withAuditContext(who, () =>
      updatePolicy(actor, policy.id, UpdatePolicyInput.parse({ price: "30.00", name: "Phone cover" })),
    );
    await withAuditContext(who, () => setPolicyStatus(actor, policy.id, false));
    await withAuditContext(who, () => setPolicyStatus(actor, policy.id, false)); // no change
    await withAuditContext(who, () => setPolicyStatus(actor, policy.id, true));
    await refusal(withAuditContext(who, () => setPolicyStatus(actor, "pol_nope", false))); // 404
    expect((await actions(org.id, "policy.")).slice(before)).toEqual([
      "policy.created",
      "policy.updated",
      "policy.deactivated",
      "policy.activated",
    ]);
    const [updated] = await entries(org.id, "policy.updated");
    expect(updated!.details).toEqual({ name: "Phone cover", before: { price: "25.00" }, after: { price: "30.00" } });

    const link = await withAuditContext(who, () =>
      createPaymentLink(actor, CreatePaymentLinkInput.parse({ policyId: policy.id, name: "Agent A" })),
    );
    await withAuditContext(who, () => updatePaymentLink(actor, link.id, UpdatePaymentLinkInput.parse({ active: false })));
    expect(await actions(org.id, "payment_link.")).toEqual(["payment_link.created", "payment_link.updated"]);
    const [linkUpdate] = await entries(org.id, "payment_link.updated");
    expect(linkUpdate).toMatchObject({ actorId: user.id, resourceId: link.id });
    expect(linkUpdate!.details).toEqual({ before: { active: true }, after: { active: false } });
  });

  it("the organization profile and KYB: updated, submitted, approved by the platform admin into the business's log", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    const who = asUser(user);
    await withAuditContext(who, () => updateOrganization(actor, { name: "Renamed Ltd", address: "1 Marina, Lagos" }));
    const [profile] = await entries(org.id, "organization.updated");
    expect(profile).toMatchObject({ actorId: user.id, resourceType: "organization", resourceId: org.id });
    expect(profile!.details).toMatchObject({ after: { name: "Renamed Ltd", address: "1 Marina, Lagos" } });

    await withAuditContext(who, () => submitKyb(actor, kybUploads()));
    await refusal(withAuditContext(who, () => submitKyb(actor, kybUploads()))); // already pending
    const admin = await createUser("Platform Admin");
    await db.user.update({ where: { id: admin.id }, data: { platformAdmin: true } });
    const platformAdmin = { userId: admin.id } as Parameters<typeof adminApproveKyb>[0];
    await withAuditContext(asUser(admin), () => adminApproveKyb(platformAdmin, org.id));
    expect(await actions(org.id, "kyb.")).toEqual(["kyb.submitted", "kyb.approved"]);
    const [approved] = await entries(org.id, "kyb.approved");
    expect(approved).toMatchObject({ actorType: "user", actorId: admin.id, actorLabel: admin.email, resourceType: "kyb" });
    // Without the admin's context (a job, a script), the entry still names the admin.
    const other = await ownerWithOrganization();
    await submitKyb(other.actor, kybUploads());
    await adminApproveKyb(platformAdmin, other.org.id);
    const [byAdmin] = await entries(other.org.id, "kyb.approved");
    expect(byAdmin).toMatchObject({ actorType: "user", actorId: admin.id });
  });

  it("a role change refused (the owner's) writes nothing", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    const owner = await db.member.findFirstOrThrow({ where: { organizationId: org.id, role: "OWNER" } });
    await refusal(withAuditContext(asUser(user), () => updateMemberRole(actor, owner.id, "MEMBER")));
    expect(await actions(org.id, "member.")).toEqual([]);
  });
});

/**
 * Runs `fn` while the database refuses the entries that match `condition` (on
 * NEW; a trigger, dropped after): a change written in its entry's transaction
 * must then roll back whole.
 */
async function whileRefused<T>(condition: string, fn: () => Promise<T>): Promise<T> {
  const name = `audit_refused_${unique()}`;
  await db.$executeRawUnsafe(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${condition} THEN RAISE EXCEPTION 'entry refused by the test'; END IF;
      RETURN NEW;
    END $$`);
  await db.$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  try {
    return await fn();
  } finally {
    await db.$executeRawUnsafe(`DROP TRIGGER ${name} ON audit_log`);
    await db.$executeRawUnsafe(`DROP FUNCTION ${name}()`);
  }
}

/** Runs `fn` while the organization's `action` entries are refused (ids and actions are plain words: no quoting needed). */
const withEntryRefused = <T>(organizationId: string, action: string, fn: () => Promise<T>) =>
  whileRefused(`NEW."organizationId" = '${organizationId}' AND NEW.action = '${action}'`, fn);

const aKey = (): AuditWho => ({
  actorType: "api_key",
  actorId: `key_${unique()}`,
  actorLabel: "CI (sk_live_ab…)",
  requestId: `req_${unique()}`,
});

describe("the audit log of documents, customers, payments, the organization and what the system finishes", () => {
  it("organization: created by the user in the dashboard, by a key over the API; none when it is not made", async () => {
    const user = await createUser();
    const inDashboard = await withAuditContext(asUser(user), () =>
      createOrganization(user.id, { name: `Dash ${unique()}`, email: user.email }),
    );
    const key = aKey();
    const overApi = await withAuditContext(key, () =>
      createOrganization(user.id, { name: `Api ${unique()}`, email: user.email }),
    );
    const [dash] = await entries(inDashboard.id, "organization.created");
    expect(dash).toMatchObject({
      actorType: "user",
      actorId: user.id,
      ipAddress: "203.0.113.9",
      resourceType: "organization",
      resourceId: inDashboard.id,
    });
    expect(dash!.details).toEqual({ name: inDashboard.name, email: user.email, currency: "NGN", owner: user.id });
    expect(await entries(overApi.id, "organization.created")).toMatchObject([
      { actorType: "api_key", actorId: key.actorId, requestId: key.requestId },
    ]);
    // Its entry refused: no organization either (the same transaction).
    const name = `Refused ${unique()}`;
    await expect(
      whileRefused(`NEW.action = 'organization.created' AND NEW.details->>'name' = '${name}'`, () =>
        withAuditContext(asUser(user), () => createOrganization(user.id, { name, email: user.email })),
      ),
    ).rejects.toThrow(/entry refused by the test/);
    expect(await db.organization.count({ where: { name } })).toBe(0);
  });

  it("certificates and receipt samples: uploaded, deactivated, activated, deleted (by a key); none for no change, a member or an unknown id", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { actor: member } = await addMember(org.id, "MEMBER");
    const key = aKey();
    const as = <T>(fn: () => Promise<T>) => withAuditContext(key, fn);
    const certificateInput = UploadCertificateInput.parse({
      file: upload("file", PDF_BYTES(), "licence.pdf"),
      name: "NAICOM operating licence 2026",
      type: "insurance licence",
    });
    await refusal(as(() => uploadCertificate(member, certificateInput)));
    const cert = await as(() => uploadCertificate(actor, certificateInput));
    await as(() => setCertificateActive(actor, cert.id, UpdateCertificateInput.parse({ isActive: true }))); // already active
    await as(() => setCertificateActive(actor, cert.id, UpdateCertificateInput.parse({ isActive: false })));
    await as(() => setCertificateActive(actor, cert.id, UpdateCertificateInput.parse({ isActive: false }))); // no change
    await as(() => setCertificateActive(actor, cert.id, UpdateCertificateInput.parse({ isActive: true })));
    // The entry refused: the certificate stays (its row and its file).
    await expect(
      withEntryRefused(org.id, "certificate.deleted", () => as(() => deleteCertificate(actor, cert.id))),
    ).rejects.toThrow(/entry refused by the test/);
    expect(await db.certificate.count({ where: { id: cert.id } })).toBe(1);
    await as(() => deleteCertificate(actor, cert.id));
    await refusal(as(() => deleteCertificate(actor, cert.id))); // gone: 404
    expect(await actions(org.id, "certificate.")).toEqual([
      "certificate.uploaded",
      "certificate.deactivated",
      "certificate.activated",
      "certificate.deleted",
    ]);
    const [uploaded] = await entries(org.id, "certificate.uploaded");
    expect(uploaded).toMatchObject({
      actorType: "api_key",
      actorId: key.actorId,
      resourceType: "certificate",
      resourceId: cert.id,
    });
    expect(uploaded!.details).toEqual({
      name: "NAICOM operating licence 2026",
      type: "insurance licence",
      fileName: "licence.pdf",
      contentType: "application/pdf",
      size: PDF_BYTES().byteLength,
    });

    const sample = await as(() =>
      uploadReceiptSample(
        actor,
        UploadReceiptSampleInput.parse({ file: upload("file", PDF_BYTES(), "receipt.pdf"), name: "Standard receipt" }),
      ),
    );
    await as(() => deleteReceiptSample(actor, sample.id));
    expect(await entries(org.id, "receipt_sample.")).toMatchObject([
      {
        action: "receipt_sample.uploaded",
        actorType: "api_key",
        resourceId: sample.id,
        details: { name: "Standard receipt", fileName: "receipt.pdf" },
      },
      { action: "receipt_sample.deleted", actorType: "api_key", resourceId: sample.id },
    ]);
    // Where a file is stored is never recorded.
    const stored = JSON.stringify((await entries(org.id)).map((e) => e.details));
    expect(stored).not.toMatch(/storageKey|\/files\//);
  });

  it("customers: the policyholder's phone and SMS choice on the portal, with what changed; none for no change or a refused number", async () => {
    const { org } = await ownerWithOrganization();
    const email = `holder-${unique()}@example.test`;
    const holder = { organizationId: org.id, email };
    const who: AuditWho = { actorType: "policyholder", actorId: email, actorLabel: email, ipAddress: "198.51.100.4" };
    const set = (input: Record<string, unknown>) =>
      withAuditContext(who, () => setPortalContact(holder, PortalContactInput.parse(input)));
    await set({ phone: "+2348031234567" });
    await set({ phone: "+2348031234567", smsOptOut: false }); // as it is
    await refusal(set({ phone: "12" }));
    await set({ smsOptOut: true });
    // Its entry refused: the choice is not changed either.
    await expect(withEntryRefused(org.id, "customer.updated", () => set({ phone: null }))).rejects.toThrow(
      /entry refused by the test/,
    );
    expect(
      await db.customer.findUniqueOrThrow({ where: { organizationId_email: { organizationId: org.id, email } } }),
    ).toMatchObject({
      phone: "+2348031234567",
      smsOptOut: true,
    });
    await set({ phone: null });
    const changes = await entries(org.id, "customer.");
    const customer = await db.customer.findUniqueOrThrow({ where: { organizationId_email: { organizationId: org.id, email } } });
    expect(changes.map((e) => e.details)).toEqual([
      { email, source: "portal", before: { phone: null }, after: { phone: "+2348031234567" } },
      { email, source: "portal", before: { smsOptOut: false }, after: { smsOptOut: true } },
      { email, source: "portal", before: { phone: "+2348031234567" }, after: { phone: null } },
    ]);
    expect(changes.every((e) => e.action === "customer.updated" && e.actorType === "policyholder" && e.actorId === email)).toBe(
      true,
    );
    expect(changes[0]).toMatchObject({ resourceType: "customer", resourceId: customer.id, ipAddress: "198.51.100.4" });
  });

  it("payments: created by a key, succeeded and failed by the system (whoever asked), a retry created by the system; none for a refused payment", async () => {
    const { actor, org } = await ownerWithOrganization();
    const policy = await createPolicy(
      actor,
      CreatePolicyInput.parse({ name: "Shop cover", type: "property", duration: "yearly", price: "25.00" }),
    );
    const key = aKey();
    const start = (amount: number) =>
      withAuditContext(key, () =>
        initializePayment(
          actor,
          InitializePaymentInput.parse({ amount, policyId: policy.id, email: `c-${unique()}@example.test` }),
        ),
      );
    await refusal(start(24));
    expect(await actions(org.id, "payment.")).toEqual([]);
    const paid = await start(25);
    const [created] = await entries(org.id, "payment.created");
    expect(created).toMatchObject({
      actorType: "api_key",
      actorId: key.actorId,
      resourceType: "payment",
      resourceId: paid.reference,
    });
    expect(created!.details).toMatchObject({
      reference: paid.reference,
      amount: "25.00",
      currency: "NGN",
      policyId: policy.id,
      email: paid.email,
    });

    // Its entry refused: the payment is not settled (no credit, no cover) and can be paid again.
    await expect(withEntryRefused(org.id, "payment.succeeded", () => payWithCard(paid.reference, card()))).rejects.toThrow(
      /entry refused by the test/,
    );
    expect(await db.payment.findUniqueOrThrow({ where: { reference: paid.reference } })).toMatchObject({ status: "pending" });
    expect(await db.ledgerTransaction.count({ where: { reference: paid.reference } })).toBe(0);
    // Settled in a key's request (as a verify would): still the system's, the request id kept.
    await withAuditContext(key, () => payWithCard(paid.reference, card()));
    const [succeeded] = await entries(org.id, "payment.succeeded");
    const coverage = await db.coverage.findFirstOrThrow({ where: { organizationId: org.id, customerEmail: paid.email } });
    expect(succeeded).toMatchObject({
      actorType: "system",
      actorId: "system",
      actorLabel: "Coverdesk",
      requestId: key.requestId,
      ipAddress: null,
    });
    expect(succeeded!.details).toMatchObject({
      reference: paid.reference,
      amount: "25.00",
      coverageId: coverage.id,
      coverageAction: "purchased",
    });

    const declined = await start(25);
    await refusal(payWithCard(declined.reference, CheckoutInput.parse({ ...card(), cardNumber: SANDBOX_CARDS.declined })));
    const [failed] = await entries(org.id, "payment.failed");
    expect(failed).toMatchObject({ actorType: "system", resourceId: declined.reference });
    expect(failed!.details).toMatchObject({ reference: declined.reference, failureReason: "The card was declined" });
    const retry = await retryPayment(declined.reference);
    const retried = (await entries(org.id, "payment.created")).find((e) => e.resourceId === retry.reference);
    expect(retried).toMatchObject({ actorType: "system" });
    expect(retried!.details).toMatchObject({ retryOf: declined.reference, amount: "25.00" });
    expect(await actions(org.id, "payment.")).toEqual([
      "payment.created",
      "payment.succeeded",
      "payment.created",
      "payment.failed",
      "payment.created",
    ]);
  });

  it("withdrawals: paid, failed and reversed by the system, sent again by the platform admin; none for a second settlement", async () => {
    const { actor, org } = await ownerWithOrganization();
    await receivePayment(actor, "100.00");
    await approveKyb(actor);
    const account = await bankAccount(actor);
    const withdraw = async (amount: number) => {
      const w = await requestWithdrawal(actor, WithdrawInput.parse({ amount, bankAccountId: account.id }));
      return db.withdrawal.findUniqueOrThrow({ where: { id: w.id } });
    };
    const key = aKey();
    const first = await withdraw(10);
    // Its entry refused: the withdrawal stays pending.
    await expect(withEntryRefused(org.id, "withdrawal.paid", () => settleWithdrawal(first.reference, "paid"))).rejects.toThrow(
      /entry refused by the test/,
    );
    expect(await db.withdrawal.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({ status: "pending" });
    await withAuditContext(key, () => settleWithdrawal(first.reference, "paid"));
    await settleWithdrawal(first.reference, "paid"); // again: nothing
    await settleWithdrawal(first.reference, "reversed", "Paystack reversed it");
    const second = await withdraw(5);
    await settleWithdrawal(second.reference, "failed", "Account closed");
    await settleWithdrawal(second.reference, "failed", "Account closed"); // again: nothing

    const admin = await createUser("Platform Admin");
    await db.user.update({ where: { id: admin.id }, data: { platformAdmin: true } });
    await retryPayout(await requirePlatformAdmin(admin.id), second.id);
    expect(await actions(org.id, "withdrawal.")).toEqual([
      "withdrawal.requested",
      "withdrawal.paid",
      "withdrawal.reversed",
      "withdrawal.requested",
      "withdrawal.failed",
      "withdrawal.retried",
    ]);
    const done = await entries(org.id, "withdrawal.");
    expect(done.slice(1, 3).every((e) => e.actorType === "system" && e.resourceId === first.id)).toBe(true);
    expect(done[1]).toMatchObject({ requestId: key.requestId });
    expect(done[1]!.details).toEqual({ reference: first.reference, amount: "10.00", currency: "NGN" });
    expect(done[4]).toMatchObject({ actorType: "system", resourceId: second.id });
    expect(done[4]!.details).toMatchObject({
      amount: "5.00",
      failureReason: "Account closed",
      accountNumberLast4: account.accountNumberLast4,
    });
    expect(done[5]).toMatchObject({ actorType: "user", actorId: admin.id, actorLabel: admin.email, resourceId: second.id });
    expect(done[5]!.details).toMatchObject({ previousReference: second.reference, amount: "5.00" });
    // Of the account: its id and last 4 digits, never its number.
    const accountFields = done.flatMap((e) => Object.keys(e.details as object).filter((k) => /account/i.test(k)));
    expect(new Set(accountFields)).toEqual(new Set(["bankAccountId", "accountNumberLast4"]));
  });

  it("claim payouts and refunds: paid, reversed, failed and processed by the system, with the claim's moves; none for a second settlement", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    const reference = await receivePayment(actor, "100.00");
    await receivePayment(actor, "100.00");
    await approveKyb(actor);
    const policy = await db.policy.findFirstOrThrow({ where: { organizationId: org.id } });
    const claim = await submitClaim(
      actor,
      CreateClaimInput.parse({ policyId: policy.id, type: "theft", description: "Till stolen", amount: 30 }),
    );
    await updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "under_review" }));
    await updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "approved" }));
    const pay = async () => {
      const p = await withAuditContext(asUser(user), () =>
        payClaim(actor, claim.id, PayClaimInput.parse({ accountNumber: "3000000001", bankCode: "058" })),
      );
      return db.claimPayout.findUniqueOrThrow({ where: { id: p.id } });
    };
    const first = await pay();
    // Its entry refused: neither the payout nor the claim moves.
    await expect(withEntryRefused(org.id, "claim_payout.paid", () => settleClaimPayout(first.reference, "paid"))).rejects.toThrow(
      /entry refused by the test/,
    );
    expect(await db.claim.findUniqueOrThrow({ where: { id: claim.id } })).toMatchObject({ status: "approved" });
    await settleClaimPayout(first.reference, "paid");
    await settleClaimPayout(first.reference, "paid"); // again: nothing
    await settleClaimPayout(first.reference, "reversed", "Paystack reversed it");
    const second = await pay();
    await settleClaimPayout(second.reference, "failed", "Account closed");
    expect(await actions(org.id, "claim_payout.")).toEqual([
      "claim_payout.requested",
      "claim_payout.paid",
      "claim_payout.reversed",
      "claim_payout.requested",
      "claim_payout.failed",
    ]);
    const payouts = await entries(org.id, "claim_payout.");
    expect(payouts[1]).toMatchObject({ actorType: "system", resourceType: "claim_payout", resourceId: first.id });
    expect(payouts[1]!.details).toEqual({
      claimId: claim.id,
      reference: first.reference,
      amount: "30.00",
      currency: "NGN",
      bankName: first.bankName,
      accountNumberLast4: "0001",
    });
    expect(payouts[4]).toMatchObject({ actorType: "system", resourceId: second.id });
    expect(payouts[4]!.details).toMatchObject({ failureReason: "Account closed" });
    const moves = (await entries(org.id, "claim.status_changed")).slice(2); // after submitted → under_review → approved
    expect(moves.map((e) => [e.actorType, e.details])).toEqual([
      ["system", expect.objectContaining({ from: "approved", to: "paid", claimPayoutId: first.id })],
      ["system", expect.objectContaining({ from: "paid", to: "approved", claimPayoutId: first.id })],
    ]);
    expect(
      JSON.stringify((await entries(org.id)).filter((e) => e.action.startsWith("claim")).map((e) => e.details)),
    ).not.toContain("3000000001");

    const refund = await refundPayment(actor, reference, RefundPaymentInput.parse({ amount: 10 }));
    await expect(withEntryRefused(org.id, "refund.processed", () => settleRefund(refund.id, "processed"))).rejects.toThrow(
      /entry refused by the test/,
    );
    expect(await db.refund.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({ status: "pending" });
    await settleRefund(refund.id, "processed");
    await settleRefund(refund.id, "failed", "too late"); // settled already: nothing
    const other = await refundPayment(actor, reference, RefundPaymentInput.parse({ amount: 5 }));
    await settleRefund(other.id, "failed", "The bank refused it");
    expect(await actions(org.id, "refund.")).toEqual(["refund.created", "refund.processed", "refund.created", "refund.failed"]);
    const refunds = await entries(org.id, "refund.");
    expect(refunds[1]).toMatchObject({ actorType: "system", resourceId: refund.id });
    expect(refunds[1]!.details).toEqual({ paymentReference: reference, amount: "10.00", currency: "NGN" });
    expect(refunds[3]).toMatchObject({ actorType: "system", resourceId: other.id });
    expect(refunds[3]!.details).toMatchObject({ amount: "5.00", failureReason: "The bank refused it" });
  });
});
