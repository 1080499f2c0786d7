import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import type { ReactNode } from "react";
import { Logo } from "@/components/logo";
import { getAuth } from "@/server/auth";
import { db } from "@/server/db/client";
import { previewInvitation } from "@/server/team/invitations";
import { InviteActions } from "./invite-actions";

export const metadata: Metadata = { title: "Invitation", robots: { index: false } };
export const dynamic = "force-dynamic";

const ENDED = {
  accepted: ["This invitation was already used", "It has been accepted. If that was you, sign in to continue."],
  cancelled: ["This invitation was cancelled", "Ask an admin of the organization to invite you again."],
  expired: [
    "This invitation has expired",
    "Invitations are valid for 7 days. Ask an admin of the organization to send a new one.",
  ],
} as const;

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await previewInvitation(token);
  if (!invitation) {
    return (
      <Frame title="This invitation link is not valid">
        <p>It may have been mistyped, or replaced by a newer invitation email. Use the link in the latest email you received.</p>
      </Frame>
    );
  }
  if (invitation.status !== "pending") {
    const [title, text] = ENDED[invitation.status];
    return (
      <Frame title={title}>
        <p>{text}</p>
        <p className="mt-4">
          <Link href="/sign-in" className="font-medium text-brand-600 hover:underline">
            Go to sign in
          </Link>
        </p>
      </Frame>
    );
  }

  const session = await getAuth().api.getSession({ headers: await headers() });
  const signedInAs = session?.user.email ?? null;
  const mode = signedInAs
    ? signedInAs.toLowerCase() === invitation.email.toLowerCase()
      ? "accept"
      : "wrong-account"
    : (await db.user.findUnique({ where: { email: invitation.email }, select: { id: true } }))
      ? "sign-in"
      : "sign-up";

  return (
    <Frame title={`Join ${invitation.organizationName}`}>
      <p>
        <strong className="text-slate-900">{invitation.inviterName}</strong> invited{" "}
        <strong className="text-slate-900">{invitation.email}</strong> to join{" "}
        <strong className="text-slate-900">{invitation.organizationName}</strong> as{" "}
        {invitation.role === "ADMIN" ? "an admin" : "a member"}.
      </p>
      <div className="mt-6">
        <InviteActions token={token} mode={mode} email={invitation.email} signedInAs={signedInAs} />
      </div>
    </Frame>
  );
}

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <Logo />
      <div className="mt-8 w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-xl font-semibold">{title}</h1>
        <div className="mt-2 text-sm text-slate-600">{children}</div>
      </div>
    </main>
  );
}
