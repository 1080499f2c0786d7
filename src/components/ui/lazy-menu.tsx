"use client";

// A Radix dropdown menu whose code (menu, popper, floating-ui, focus and
// dismiss layers) loads when someone reaches for it, not with the page. Until
// then its trigger is the same button, with the attributes Radix gives a
// closed trigger; pointing at it or focusing it starts the download, pressing
// it (pointer, Enter, Space, ArrowDown) opens the menu as soon as it is there,
// and from then on the real Radix menu stays in place.
import {
  cloneElement,
  lazy,
  Suspense,
  useState,
  type ComponentType,
  type KeyboardEvent,
  type PointerEvent,
  type ReactElement,
} from "react";

/** What the menu component loaded gets: its trigger (to use as `DropdownMenu.Trigger asChild`) and `defaultOpen` for its Root. */
export interface LazyMenuProps {
  trigger: ReactElement<Record<string, unknown>>;
  defaultOpen: boolean;
}

export function lazyMenu<P extends object>(load: () => Promise<ComponentType<P & LazyMenuProps>>) {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  const preload = () => void load().catch(() => undefined);

  function LazyMenu(props: P & { trigger: ReactElement<Record<string, unknown>> }) {
    // Pressed once: the Radix menu replaces the placeholder, opened, and stays.
    const [pressed, setPressed] = useState(false);
    const open = () => setPressed(true);
    const placeholder = cloneElement(props.trigger, {
      type: "button",
      "aria-haspopup": "menu",
      "aria-expanded": false,
      "data-state": "closed",
      onPointerEnter: preload,
      onFocus: preload,
      onPointerDown: (event: PointerEvent) => {
        // As Radix: the primary button without Ctrl opens, and focus stays where it was.
        if (event.button !== 0 || event.ctrlKey) return;
        event.preventDefault();
        open();
      },
      onKeyDown: (event: KeyboardEvent) => {
        if (event.key === "Enter" || event.key === " " || event.key === "ArrowDown") {
          event.preventDefault();
          open();
        }
      },
      onClick: open,
    });
    if (!pressed) return placeholder;
    return (
      <Suspense fallback={placeholder}>
        <Lazy {...props} defaultOpen />
      </Suspense>
    );
  }
  return Object.assign(LazyMenu, { preload });
}
