import type { Metadata } from "next";
import { WebhooksView } from "./_components/webhooks-view";

export const metadata: Metadata = { title: "Webhooks" };

// Readable by every member; the view shows changes only to those who may make them.
export default function WebhooksPage() {
  return <WebhooksView />;
}
