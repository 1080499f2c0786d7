import type { Metadata } from "next";
import { AnalyticsView } from "./_components/analytics-view";

export const metadata: Metadata = { title: "Analytics" };

// Readable by every member: the figures are read-only.
export default function AnalyticsPage() {
  return <AnalyticsView />;
}
