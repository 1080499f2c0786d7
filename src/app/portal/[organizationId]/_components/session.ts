import "server-only";
import { cookies } from "next/headers";
import { cache } from "react";
import { notFound } from "next/navigation";
import { AppError } from "@/server/errors";
import { portalBusiness, portalSession, SESSION_COOKIE, type PortalSession } from "@/server/portal/auth";

/** The business of this portal (or the 404 page) and the signed-in policyholder, if any — read once per request (layout and page share it). */
export const portalContext = cache(async (organizationId: string) => {
  const business = await portalBusiness(organizationId).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "not_found") notFound();
    throw err;
  });
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const session: PortalSession | null = await portalSession(business.organizationId, token);
  return { business, session };
});

/** Runs a portal read; a record that is not the policyholder's is the 404 page. */
export async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") notFound();
    throw err;
  }
}
