import { Logo } from "@/components/logo";
import { SoftLink } from "@/components/soft-link";
import { Button } from "@/components/ui/button";

export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <SoftLink href="/">
        <Logo />
      </SoftLink>
      <div className="mt-8 w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-xl font-semibold">Page not found</h1>
        <p className="mt-2 text-sm text-slate-600">This address does not lead anywhere. Check the link, or go back to your dashboard.</p>
        <Button asChild className="mt-6">
          <SoftLink href="/">Go to the dashboard</SoftLink>
        </Button>
      </div>
    </main>
  );
}
