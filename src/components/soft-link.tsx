"use client";

import { useRouter } from "next/navigation";
import type { AnchorHTMLAttributes } from "react";

/**
 * A link within the app that navigates client-side on a plain click, as
 * next/link does (a modified or middle click, or another target, is left to
 * the browser), without next/link's code. For the root error and not-found
 * pages: every page loads their code in case it is needed, and next/link in
 * them was a second and third copy of the one the dashboard already loads.
 */
export function SoftLink({ href, onClick, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const router = useRouter();
  return (
    <a
      href={href}
      {...props}
      onClick={(event) => {
        onClick?.(event);
        const modified = event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
        const elsewhere = props.target !== undefined && props.target !== "_self";
        if (event.defaultPrevented || event.button !== 0 || modified || elsewhere) return;
        event.preventDefault();
        router.push(href);
      }}
    />
  );
}
