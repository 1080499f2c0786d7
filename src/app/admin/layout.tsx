import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Logo } from "@/components/logo";
import { currentSession } from "@/server/session/current";
import { AdminAccount } from "./_components/admin-account";
import { AdminNav } from "./_components/admin-nav";

export const dynamic = "force-dynamic";

// Coverdesk's own operators only. The flag comes from the admin module (read
// from the database by currentSession); to anyone else this area does not exist.
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (!session) redirect("/sign-in");
  if (!session.platformAdmin) notFound();
  return (
    <div className="min-h-screen">
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3 sm:px-8">
          <Link href="/admin" className="flex min-w-0 items-center gap-2">
            <Logo compact />
            <span className="truncate text-base font-semibold tracking-tight text-slate-900 sm:text-lg">Coverdesk admin</span>
          </Link>
          <AdminAccount email={session.user.email} hasDashboard={session.me !== null} />
        </div>
        <div className="mx-auto max-w-6xl px-2 sm:px-6">
          <AdminNav />
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6 sm:px-8 sm:py-8">{children}</main>
    </div>
  );
}
