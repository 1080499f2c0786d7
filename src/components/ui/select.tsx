import type { SelectHTMLAttributes } from "react";
import { cn } from "@/lib/cn";

/** A native select: accessible, keyboard- and phone-friendly by default. */
export function NativeSelect({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      className={cn(
        "h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100 aria-[invalid=true]:border-red-500",
        className,
      )}
      {...props}
    />
  );
}
