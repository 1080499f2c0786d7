"use client";

// A payment link's QR code, drawn in the browser by `qrcode` (loaded when the
// dialog opens): shown, and downloaded as PNG (for a flyer or a shop window)
// or SVG (for print at any size).
import { Download } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import type { PaymentLink } from "@/lib/schemas/payment-links";

function download(name: string, href: string) {
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function QrDialog({ link, onClose }: { link: PaymentLink | null; onClose: () => void }) {
  const [codes, setCodes] = useState<{ url: string; png: string; svg: string } | null>(null);
  const [failedFor, setFailedFor] = useState<string | null>(null);
  useEffect(() => {
    if (!link) return;
    let cancelled = false;
    void import("qrcode")
      .then(async (QR) => {
        const options = { errorCorrectionLevel: "M" as const, margin: 2 };
        const [png, svg] = await Promise.all([
          QR.toDataURL(link.url, { ...options, width: 512 }),
          QR.toString(link.url, { ...options, type: "svg" }),
        ]);
        if (!cancelled) setCodes({ url: link.url, png, svg });
      })
      .catch(() => !cancelled && setFailedFor(link.url));
    return () => {
      cancelled = true;
    };
  }, [link]);
  const ready = codes && link && codes.url === link.url ? codes : null;
  const failed = !!link && failedFor === link.url;
  const base = `payment-link-${link?.id ?? ""}`;
  return (
    <Dialog
      open={link !== null}
      onOpenChange={(open) => {
        if (open) return;
        setFailedFor(null); // drawn again when opened again
        onClose();
      }}
      title="QR code"
      description={link ? `Scanning it opens ${link.url}` : undefined}
    >
      <div className="space-y-4">
        <div className="mx-auto flex h-64 w-64 items-center justify-center rounded-md border border-slate-200 bg-white">
          {ready ? (
            // eslint-disable-next-line @next/next/no-img-element -- a data URL drawn here
            <img src={ready.png} alt={`QR code of ${link?.url}`} className="h-60 w-60" data-testid="payment-link-qr" />
          ) : failed ? (
            <p className="p-4 text-center text-sm text-red-700">The QR code could not be drawn. Close and try again.</p>
          ) : (
            <p className="text-sm text-slate-600">Drawing…</p>
          )}
        </div>
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-center">
          <Button variant="secondary" disabled={!ready} onClick={() => ready && download(`${base}.png`, ready.png)}>
            <Download className="h-4 w-4" aria-hidden /> Download PNG
          </Button>
          <Button
            variant="secondary"
            disabled={!ready}
            onClick={() => ready && download(`${base}.svg`, `data:image/svg+xml;charset=utf-8,${encodeURIComponent(ready.svg)}`)}
          >
            <Download className="h-4 w-4" aria-hidden /> Download SVG
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
