// How policy types and durations are named to people: the dashboard, and a payment link's public page.
import type { POLICY_DURATIONS, POLICY_TYPES } from "@/lib/enums";

export const TYPE_LABELS: Record<(typeof POLICY_TYPES)[number], string> = {
  auto: "Auto",
  home: "Home",
  health: "Health",
  life: "Life",
  travel: "Travel",
  property: "Property",
  liability: "Liability",
  business: "Business",
  other: "Other",
};

export const DURATION_LABELS: Record<(typeof POLICY_DURATIONS)[number], string> = {
  monthly: "Monthly",
  quarterly: "Quarterly",
  yearly: "Yearly",
};
