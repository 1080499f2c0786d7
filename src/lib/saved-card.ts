// How a saved card is shown (dashboard and portal): "Visa •••• 4242 · 12/28".
import type { SavedCard } from "@/lib/schemas/coverages";

const brandName = (b: string) => (b === "card" ? "Card" : b.charAt(0).toUpperCase() + b.slice(1));

export const savedCardLabel = (c: SavedCard) =>
  `${brandName(c.brand)} •••• ${c.last4} · ${String(c.expMonth).padStart(2, "0")}/${String(c.expYear).slice(-2)}`;
