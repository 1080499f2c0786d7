import type { Metadata } from "next";
import { DocumentsView } from "./_components/documents-view";

export const metadata: Metadata = { title: "Documents" };

// Readable by every member; uploads, the active switch and deletion are for owners and admins.
export default function DocumentsPage() {
  return <DocumentsView />;
}
