import { ArrowRight, BookOpen, KeyRound, Settings } from "lucide-react";
import Link from "next/link";
import { Card, PageHeader } from "@/components/ui/card";
import { currentSession } from "@/server/session/current";
import { env } from "@/server/env";

export default async function HomePage() {
  const session = await currentSession();
  const admin = session?.me?.can.admin ?? false;
  const firstName = session?.user.name.split(" ")[0] ?? "there";
  const steps = [
    admin && {
      href: "/api-keys",
      icon: KeyRound,
      title: "Create an API key",
      body: "Give your website or back office access to the Coverdesk API.",
    },
    {
      href: "/docs",
      icon: BookOpen,
      title: "Read the API reference",
      body: "Every endpoint, field and error code, with examples.",
    },
    admin && {
      href: "/settings",
      icon: Settings,
      title: "Complete your profile",
      body: "Your business details appear on checkout pages.",
    },
  ].filter(Boolean) as { href: string; icon: typeof KeyRound; title: string; body: string }[];

  return (
    <>
      <PageHeader title={`Welcome, ${firstName}`} description="Here is where to start with Coverdesk." />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {steps.map((s) => (
          <Link key={s.href} href={s.href} className="group">
            <Card className="h-full p-5 transition-shadow group-hover:shadow-md">
              <s.icon className="h-6 w-6 text-brand-600" aria-hidden />
              <h2 className="mt-3 font-semibold text-slate-900">{s.title}</h2>
              <p className="mt-1 text-sm text-slate-600">{s.body}</p>
              <span className="mt-3 inline-flex items-center gap-1 text-sm font-medium text-brand-600">
                Open <ArrowRight className="h-4 w-4" aria-hidden />
              </span>
            </Card>
          </Link>
        ))}
      </div>
      <Card className="mt-6 p-5">
        <h2 className="font-semibold">Call the API</h2>
        <p className="mt-1 text-sm text-slate-600">With a key from the API keys page:</p>
        <pre className="mt-3 overflow-x-auto rounded-md bg-slate-900 p-4 text-xs text-slate-100">
          {`curl ${env.APP_URL}/api/v1/business/api-keys \\\n  -H "Authorization: Bearer cd_live_…"`}
        </pre>
      </Card>
    </>
  );
}
