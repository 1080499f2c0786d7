import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { currentSession } from "@/server/session/current";
import { navIcons } from "./_components/nav-icons";
import { Shell } from "./_components/shell";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (!session) redirect("/sign-in");
  // A platform operator needs no organization: their place is the admin area, not onboarding.
  if (!session.me) redirect(session.platformAdmin ? "/admin" : "/onboarding");
  if (session.mustEnrol) redirect("/two-factor-setup");
  return (
    <Shell
      user={{ name: session.user.name, email: session.user.email, twoFactor: session.user.twoFactorEnabled === true }} me={session.me} icons={navIcons()}>
      {children}
    </Shell>
  );
}
