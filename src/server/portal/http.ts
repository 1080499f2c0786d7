// The policyholder portal's HTTP answers (/api/portal/<organizationId>/…):
// JSON in, JSON or a file out, errors as problem+json like the REST API. The
// session is the HttpOnly cookie; a change is accepted from our own origin
// only (the cookie is SameSite=Lax, and this check closes the rest).
import { clientIpOf } from "@/server/client-ip";
import { env } from "@/server/env";
import { AppError, toAppError } from "@/server/errors";
import { certificateResponse } from "@/server/coverages/certificate";
import { readMultipart } from "@/server/files/multipart";
import { storedFileResponse } from "@/server/files/serve";
import { storageNamed } from "@/server/files/storage";
import { logger } from "@/server/logger";
import { requestIdOf } from "@/server/request-id";
import { readJson } from "@/server/http/body";
import { validate } from "@/server/rest/handler";
import { problemResponse } from "@/server/rest/problem";
import {
  portalBusiness,
  portalSession,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  signInWithCode,
  requestPortalCode,
  signOutPortal,
  type PortalSession,
} from "./auth";
import { PortalClaimInput, PortalEmailInput, PortalSignInInput } from "@/lib/schemas/portal";
import { filePortalClaim, portalAttachment, portalCertificate, renewCoverage } from "./service";

const MAX_JSON_BYTES = 16 * 1024;
export const PORTAL_FILE_FIELDS = ["file1", "file2", "file3", "file4", "file5"] as const;

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

function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const allowed = new Set([new URL(env.APP_URL).origin, new URL(request.url).origin]);
  if (!origin || !allowed.has(origin)) throw new AppError("forbidden", "The portal accepts changes from its own pages only");
}

type Handler = (ctx: { request: Request; organizationId: string; headers: Headers }) => Promise<Response>;

/** Runs a portal handler with problem+json errors and a request id. */
export async function portalRoute(request: Request, organizationId: string, handler: Handler, { mutation = false } = {}) {
  const requestId = requestIdOf(request.headers);
  const headers = new Headers({ "X-Request-Id": requestId, "Cache-Control": "private, no-store" });
  try {
    if (mutation) assertSameOrigin(request);
    await portalBusiness(organizationId);
    return await handler({ request, organizationId, headers });
  } catch (err) {
    const app = toAppError(err);
    if (app) {
      const retry = app.extra.retryAfterSeconds;
      if (typeof retry === "number") headers.set("Retry-After", String(retry));
      return problemResponse(app, requestId, headers);
    }
    logger.error({ err, requestId }, "a portal request failed");
    return problemResponse(
      new AppError("internal_error", `Something went wrong on our side. Quote ${requestId} if you contact the business.`),
      requestId,
      headers,
    );
  }
}

const json = (status: number, body: unknown, headers: Headers) => {
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { status, headers });
};

async function jsonBody(request: Request): Promise<unknown> {
  const { value } = await readJson(request, MAX_JSON_BYTES, { allowEmpty: false });
  return value;
}

async function requireSession(request: Request, organizationId: string): Promise<PortalSession> {
  const session = await portalSession(organizationId, cookieValue(request));
  if (!session) throw new AppError("unauthenticated", "Sign in with the code we email you");
  return session;
}

/**
 * POST code {email}: a sign-in code to that email if it has cover here. The
 * same answer, after the same work, either way: the mail worker decides.
 */
export const requestCode: Handler = async ({ request, organizationId, headers }) => {
  const { email } = validate(PortalEmailInput, await jsonBody(request)) as PortalEmailInput;
  await requestPortalCode(organizationId, email, clientIpOf(request));
  return json(
    202,
    { message: "If this email has cover with us, a sign-in code is on its way. It works for 10 minutes." },
    headers,
  );
};

/** POST session {email, code}: signs in. */
export const signIn: Handler = async ({ request, organizationId, headers }) => {
  const { email, code } = validate(PortalSignInInput, await jsonBody(request)) as PortalSignInInput;
  const { token } = await signInWithCode(organizationId, email, code, clientIpOf(request));
  headers.append("Set-Cookie", sessionCookie(token, SESSION_TTL_MS / 1000));
  return json(200, { email }, headers);
};

/** DELETE session: signs out (the session row goes too). */
export const signOut: Handler = async ({ request, headers }) => {
  await signOutPortal(cookieValue(request));
  headers.append("Set-Cookie", sessionCookie("", 0));
  return new Response(null, { status: 204, headers });
};

export const renew =
  (coverageId: string): Handler =>
  async ({ request, organizationId, headers }) => {
    const session = await requireSession(request, organizationId);
    return json(201, await renewCoverage(session, coverageId), headers);
  };

export const certificate =
  (coverageId: string): Handler =>
  async ({ request, organizationId, headers }) => {
    const session = await requireSession(request, organizationId);
    const response = certificateResponse(await portalCertificate(session, coverageId), headers);
    response.headers.set("Cross-Origin-Resource-Policy", "same-origin");
    return response;
  };

/** POST claims (multipart: coverageId, type, description, amount, file1…file5). */
export const fileClaim: Handler = async ({ request, organizationId, headers }) => {
  const session = await requireSession(request, organizationId);
  const { fields, files } = await readMultipart(request, { files: PORTAL_FILE_FIELDS, maxFileBytes: env.MAX_UPLOAD_BYTES });
  const input = validate(PortalClaimInput, fields) as PortalClaimInput;
  const uploads = PORTAL_FILE_FIELDS.map((f) => files[f]).filter((f) => f !== undefined);
  return json(201, await filePortalClaim(session, input, uploads), headers);
};

export const attachment =
  (attachmentId: string): Handler =>
  async ({ request, organizationId, headers }) => {
    const session = await requireSession(request, organizationId);
    const { file, body } = await portalAttachment(session, attachmentId);
    return storedFileResponse(request, file, body, headers);
  };

/** The business's logo: public, as on its certificates; cached briefly. */
export const logo: Handler = async ({ request, organizationId, headers }) => {
  const brand = await portalBusiness(organizationId);
  const file = brand.logo;
  const body = file ? await storageNamed(file.backend).get(file.storageKey) : null;
  if (!file || !body) throw new AppError("not_found", "No logo");
  const response = storedFileResponse(request, file, body, headers);
  response.headers.set("Cache-Control", "public, max-age=300");
  response.headers.set("Cross-Origin-Resource-Policy", "same-site");
  return response;
};
