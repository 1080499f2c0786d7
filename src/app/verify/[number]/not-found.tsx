import { Logo } from "@/components/logo";

export default function CertificateNotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <Logo />
      <div className="mt-8 w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-xl font-semibold">Certificate not found</h1>
        <p className="mt-2 text-sm text-slate-600">
          No certificate of insurance has this number. Check it against the certificate (it reads COI- and 20 letters and digits),
          or ask the business that issued it.
        </p>
      </div>
    </main>
  );
}
