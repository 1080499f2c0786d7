"use client";

// The export menu's Radix part, loaded when the menu is first pressed (see lazyMenu).
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { FileSpreadsheet, FileText } from "lucide-react";
import { Fragment } from "react";
import type { LazyMenuProps } from "@/components/ui/lazy-menu";
import { exportHref, LABEL, type ExportType } from "./export-menu";

const FORMATS = [
  { format: "csv", label: "CSV", icon: FileText },
  { format: "xlsx", label: "Excel", icon: FileSpreadsheet },
] as const;

/** ExportMenu's menu of download links (see ./export-menu). */
export function ExportMenuContent({
  trigger,
  defaultOpen,
  types,
  range,
  granularity,
}: LazyMenuProps & {
  types: ExportType[];
  range: { from: string; to: string };
  /** Sent with the API-usage export (its buckets). */
  granularity?: "hour" | "day";
}) {
  return (
    <DropdownMenu.Root defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          collisionPadding={8}
          className="z-50 w-60 max-w-[calc(100vw-16px)] rounded-md border border-slate-200 bg-white p-1 shadow-lg"
        >
          {types.map((type, i) => (
            <Fragment key={type}>
              {i > 0 && <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />}
              <DropdownMenu.Group>
                <DropdownMenu.Label className="px-2 pb-1 pt-1.5 text-xs font-medium text-slate-600">
                  {LABEL[type]}
                </DropdownMenu.Label>
                <div className="grid grid-cols-2 gap-1">
                  {FORMATS.map(({ format, label, icon: Icon }) => (
                    <DropdownMenu.Item key={format} asChild>
                      <a
                        href={exportHref(type, format, range, type === "api-usage" ? granularity : undefined)}
                        download
                        aria-label={`${LABEL[type]}, ${label}`}
                        className="flex cursor-pointer items-center gap-2 rounded px-2 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100"
                      >
                        <Icon className="h-4 w-4 text-slate-600" aria-hidden /> {label}
                      </a>
                    </DropdownMenu.Item>
                  ))}
                </div>
              </DropdownMenu.Group>
            </Fragment>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
