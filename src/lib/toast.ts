// The toasts, without sonner on the page's first load: `toast.success(…)` and
// friends load sonner on first use (the lazily mounted <Toaster /> of the root
// layout shows what was raised before it subscribed: sonner replays active toasts).
type Sonner = typeof import("sonner");
type Args = Parameters<Sonner["toast"]["success"]>;

let sonner: Promise<Sonner> | undefined;
/** sonner itself, loaded once. */
export const loadSonner = () => (sonner ??= import("sonner"));

const raise = (kind: "success" | "error" | "warning" | "info") => (...args: Args) => {
  void loadSonner().then(({ toast: t }) => t[kind](...args));
};

export const toast = {
  success: raise("success"),
  error: raise("error"),
  warning: raise("warning"),
  info: raise("info"),
};
