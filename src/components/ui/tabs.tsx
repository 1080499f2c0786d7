"use client";

// Simple tabs (WAI-ARIA tabs pattern): arrow keys move between tabs, the
// panel is labelled by its tab. The parent renders the panel with `tabPanelProps`.
import { useRef, type KeyboardEvent } from "react";
import { cn } from "@/lib/cn";

export interface TabItem<T extends string> {
  value: T;
  label: string;
}

const tabId = (id: string, value: string) => `${id}-tab-${value}`;
const panelId = (id: string) => `${id}-panel`;

export function Tabs<T extends string>({
  id,
  label,
  items,
  value,
  onChange,
}: {
  id: string;
  label: string;
  items: TabItem<T>[];
  value: T;
  onChange: (value: T) => void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: items.length - 1 };
    const target = moves[e.key];
    if (target === undefined) return;
    e.preventDefault();
    const next = items[(target + items.length) % items.length];
    if (!next) return;
    onChange(next.value);
    list.current?.querySelector<HTMLButtonElement>(`#${CSS.escape(tabId(id, next.value))}`)?.focus();
  };

  return (
    <div ref={list} role="tablist" aria-label={label} className="flex gap-1 overflow-x-auto border-b border-slate-200">
      {items.map((item, index) => {
        const selected = item.value === value;
        return (
          <button
            key={item.value}
            id={tabId(id, item.value)}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={panelId(id)}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(item.value)}
            onKeyDown={(e) => onKeyDown(e, index)}
            className={cn(
              "-mb-px shrink-0 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium",
              selected ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900",
            )}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}

/** Props for the panel of the selected tab. */
export const tabPanelProps = (id: string, value: string) => ({
  id: panelId(id),
  role: "tabpanel" as const,
  "aria-labelledby": tabId(id, value),
  tabIndex: 0,
});
