import { Logo } from "@/components/logo";

export default function PaymentNotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <Logo />
      <div className="mt-8 w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-xl font-semibold">Payment not found</h1>
        <p className="mt-2 text-sm text-slate-600">This payment link is not valid. Ask the business for a new one.</p>
      </div>
    </main>
  );
}
