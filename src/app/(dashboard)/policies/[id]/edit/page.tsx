import type { Metadata } from "next";
import { EditPolicy } from "./edit-policy";

export const metadata: Metadata = { title: "Edit policy" };

export default async function EditPolicyPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <EditPolicy id={id} />;
}
