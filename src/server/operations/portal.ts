// The policyholder portal (/api/portal/<organizationId>/…): JSON in, JSON or a
// file out, errors as problem+json like the REST API. Every route first needs
// the business to have a portal (else 404); the policyholder's session is the
// HttpOnly cookie; a change is accepted from our own origin only (the pipeline's
// same-origin rule: the cookie is SameSite=Lax, and the check closes the rest).
import { z } from "@/lib/messages";
import { claimFormFiles, CLAIM_FILE_FIELDS } from "@/lib/schemas/claims";
import { ClaimantAccountInput } from "@/lib/schemas/claim-payouts";
import { PortalCancelInput, UpdateCoverageBody } from "@/lib/schemas/coverages";
import { PortalClaimForm, PortalCodeInput, PortalSignInInput } from "@/lib/schemas/portal";
import { clientIpOf } from "@/server/client-ip";
import { certificateResponse } from "@/server/coverages/certificate";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { storedFileResponse } from "@/server/files/serve";
import { storageNamed } from "@/server/files/storage";
import {
  portalBusiness,
  portalSession,
  requestPortalCode,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  signInWithCode,
  signOutPortal,
} from "@/server/portal/auth";
import {
  filePortalClaim,
  portalAttachment,
  portalCancelCoverage,
  portalRemoveCard,
  portalSetAutoRenew,
  portalCancellationQuote,
  portalCertificate,
  portalSetPayoutAccount,
  renewCoverage,
} from "@/server/portal/service";
import { operation, type AuthKind, type Principal } from "./operation";

const MAX_JSON_BYTES = 16 * 1024;
const PRIVATE = { "Cache-Control": "private, no-store" };
const Org = z.object({ organizationId: z.string() });
const OrgCoverage = Org.extend({ coverageId: z.string() });

/**
 * The first cookie of that name, or undefined. Never throws: a value that is
 * not valid percent-encoding (`cd_portal=%zz`) is as if there were no cookie,
 * so the request is simply signed out.
 */
export function cookieValue(request: Request, name = SESSION_COOKIE): string | undefined {
  const header = request.headers.get("cookie") ?? "";
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function sessionCookie(token: string, maxAgeS: number): string {
  const secure = env.APP_URL.startsWith("https://") ? "; Secure" : "";
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}${secure}`;
}

/** The business in the path must have a portal (404); `portal` also needs the policyholder's session (401). */
export async function portalPrincipal(
  request: Request,
  params: Record<string, string>,
  kinds: readonly AuthKind[],
): Promise<Principal<"portal" | "portalVisitor">> {
  const organizationId = params.organizationId ?? "";
  await portalBusiness(organizationId);
  if (!kinds.includes("portal")) return { auth: "portalVisitor", organizationId };
  const holder = await portalSession(organizationId, cookieValue(request));
  if (!holder) throw new AppError("unauthenticated", "Sign in with the code we email you");
  return { auth: "portal", organizationId, holder };
}

export const portalOperations = [
  /**
   * POST code {email}: a sign-in code to that email if it has cover here. The
   * same answer, after the same work, either way: the mail worker decides.
   */
  operation({
    name: "portal.requestCode",
    auth: ["portalVisitor"],
    permission: "write",
    kind: "mutation",
    http: {
      method: "POST",
      path: "/api/portal/{organizationId}/code",
      params: Org,
      body: PortalCodeInput,
      bodyRequired: true,
      maxBodyBytes: MAX_JSON_BYTES,
      status: 202,
      headers: PRIVATE,
    },
    handler: async ({ organizationId, input, request }) => {
      await requestPortalCode(organizationId, input.email, clientIpOf(request!), { via: input.via ?? "email" });
      return { message: "If this email has cover with us, a sign-in code is on its way. It works for 10 minutes." };
    },
  }),
  /** POST session {email, code}: signs in. */
  operation({
    name: "portal.signIn",
    auth: ["portalVisitor"],
    permission: "write",
    kind: "mutation",
    http: {
      method: "POST",
      path: "/api/portal/{organizationId}/session",
      params: Org,
      body: PortalSignInInput,
      bodyRequired: true,
      maxBodyBytes: MAX_JSON_BYTES,
      headers: PRIVATE,
    },
    handler: async ({ organizationId, input, request, headers }) => {
      const { token } = await signInWithCode(organizationId, input.email, input.code, clientIpOf(request!));
      headers!.append("Set-Cookie", sessionCookie(token, SESSION_TTL_MS / 1000));
      return { email: input.email };
    },
  }),
  /** DELETE session: signs out (the session row goes too). */
  operation({
    name: "portal.signOut",
    auth: ["portalVisitor"],
    permission: "write",
    kind: "mutation",
    http: { method: "DELETE", path: "/api/portal/{organizationId}/session", params: Org, status: 204, headers: PRIVATE },
    handler: async ({ request, headers }) => {
      await signOutPortal(cookieValue(request!));
      headers!.append("Set-Cookie", sessionCookie("", 0));
    },
  }),
  /** POST coverages/{coverageId}/renew: a renewal payment, paid on the hosted checkout. */
  operation({
    name: "portal.renew",
    auth: ["portal"],
    permission: "write",
    kind: "mutation",
    http: {
      method: "POST",
      path: "/api/portal/{organizationId}/coverages/{coverageId}/renew",
      params: OrgCoverage,
      status: 201,
      headers: PRIVATE,
    },
    handler: ({ holder, input }) => renewCoverage(holder, input.coverageId),
  }),
  /** POST coverages/{coverageId}/auto-renew {autoRenew}: the policyholder switches automatic renewal. */
  operation({
    name: "portal.autoRenew",
    auth: ["portal"],
    permission: "write",
    kind: "mutation",
    http: {
      method: "POST",
      path: "/api/portal/{organizationId}/coverages/{coverageId}/auto-renew",
      params: OrgCoverage,
      body: UpdateCoverageBody,
      bodyRequired: true,
      maxBodyBytes: MAX_JSON_BYTES,
      headers: PRIVATE,
    },
    handler: ({ holder, input }) => portalSetAutoRenew(holder, input.coverageId, input.autoRenew),
  }),
  /** DELETE coverages/{coverageId}/card: the policyholder removes the saved card; automatic renewal stops. */
  operation({
    name: "portal.removeCard",
    auth: ["portal"],
    permission: "write",
    kind: "mutation",
    http: {
      method: "DELETE",
      path: "/api/portal/{organizationId}/coverages/{coverageId}/card",
      params: OrgCoverage,
      headers: PRIVATE,
    },
    handler: ({ holder, input }) => portalRemoveCard(holder, input.coverageId),
  }),
  /** GET coverages/{coverageId}/cancellation-quote: what cancelling now would refund, by the business's rule. */
  operation({
    name: "portal.cancellationQuote",
    auth: ["portal"],
    permission: "read",
    kind: "query",
    http: {
      method: "GET",
      path: "/api/portal/{organizationId}/coverages/{coverageId}/cancellation-quote",
      params: OrgCoverage,
      headers: PRIVATE,
    },
    handler: ({ holder, input }) => portalCancellationQuote(holder, input.coverageId),
  }),
  /** POST coverages/{coverageId}/cancel {reason}: the policyholder cancels, refunded by the rule they were quoted. */
  operation({
    name: "portal.cancel",
    auth: ["portal"],
    permission: "write",
    kind: "mutation",
    http: {
      method: "POST",
      path: "/api/portal/{organizationId}/coverages/{coverageId}/cancel",
      params: OrgCoverage,
      body: PortalCancelInput,
      bodyRequired: true,
      maxBodyBytes: MAX_JSON_BYTES,
      headers: PRIVATE,
    },
    handler: ({ holder, input }) => portalCancelCoverage(holder, input.coverageId, { reason: input.reason }),
  }),
  /** GET coverages/{coverageId}/certificate: the certificate of insurance (PDF). */
  operation({
    name: "portal.certificate",
    auth: ["portal"],
    permission: "read",
    kind: "query",
    http: {
      method: "GET",
      path: "/api/portal/{organizationId}/coverages/{coverageId}/certificate",
      params: OrgCoverage,
      headers: { ...PRIVATE, "Cross-Origin-Resource-Policy": "same-origin" },
    },
    handler: async ({ holder, input }) => certificateResponse(await portalCertificate(holder, input.coverageId)),
  }),
  /** POST claims (multipart: coverageId, type, description, amount, file1…file5). */
  operation({
    name: "portal.fileClaim",
    auth: ["portal"],
    permission: "write",
    kind: "mutation",
    http: {
      method: "POST",
      path: "/api/portal/{organizationId}/claims",
      params: Org,
      multipart: { files: CLAIM_FILE_FIELDS },
      body: PortalClaimForm,
      status: 201,
      headers: PRIVATE,
    },
    handler: async ({ holder, input: { organizationId: _path, ...form } }) => filePortalClaim(holder, form, claimFormFiles(form)),
  }),
  /** POST claims/{claimId}/payout-account {bankCode, accountNumber}: where the policyholder asks an approved claim to be paid. */
  operation({
    name: "portal.payoutAccount",
    auth: ["portal"],
    permission: "write",
    kind: "mutation",
    http: {
      method: "POST",
      path: "/api/portal/{organizationId}/claims/{claimId}/payout-account",
      params: Org.extend({ claimId: z.string() }),
      body: ClaimantAccountInput,
      bodyRequired: true,
      maxBodyBytes: MAX_JSON_BYTES,
      headers: PRIVATE,
    },
    handler: ({ holder, input }) =>
      portalSetPayoutAccount(holder, input.claimId, { bankCode: input.bankCode, accountNumber: input.accountNumber }),
  }),
  /** GET files/{attachmentId}: an attachment of one of the policyholder's claims. */
  operation({
    name: "portal.attachment",
    auth: ["portal"],
    permission: "read",
    kind: "query",
    http: {
      method: "GET",
      path: "/api/portal/{organizationId}/files/{attachmentId}",
      params: Org.extend({ attachmentId: z.string() }),
      headers: PRIVATE,
    },
    handler: async ({ holder, input, request, headers }) => {
      const { file, body } = await portalAttachment(holder, input.attachmentId);
      return storedFileResponse(request!, file, body, headers!);
    },
  }),
  /** GET logo: the business's logo, public as on its certificates; cached briefly. */
  operation({
    name: "portal.logo",
    auth: ["portalVisitor"],
    permission: "read",
    kind: "query",
    http: { method: "GET", path: "/api/portal/{organizationId}/logo", params: Org, headers: PRIVATE },
    handler: async ({ organizationId, request, headers }) => {
      const brand = await portalBusiness(organizationId);
      const file = brand.logo;
      const body = file ? await storageNamed(file.backend).get(file.storageKey) : null;
      if (!file || !body) throw new AppError("not_found", "No logo");
      headers!.set("Cache-Control", "public, max-age=300");
      headers!.set("Cross-Origin-Resource-Policy", "same-site");
      return storedFileResponse(request!, file, body, headers!);
    },
  }),
] as const;
