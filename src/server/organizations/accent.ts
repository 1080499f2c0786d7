// The business's accent colour and a text colour readable on it (black or
// white, whichever contrasts more: at least 4.5:1 for any colour).
import { DEFAULT_ACCENT } from "@/server/organizations/branding";

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function accentColors(accent: string | null): { accent: string; onAccent: string } {
  const color = accent && /^#[0-9a-fA-F]{6}$/.test(accent) ? accent : DEFAULT_ACCENT;
  const l = luminance(color);
  const onWhite = 1.05 / (l + 0.05);
  const onBlack = (l + 0.05) / 0.05;
  return { accent: color, onAccent: onWhite >= onBlack ? "#ffffff" : "#000000" };
}
