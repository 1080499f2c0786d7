import type { Metadata } from "next";
import { NewPolicy } from "./new-policy";

export const metadata: Metadata = { title: "New policy" };

export default function NewPolicyPage() {
  return <NewPolicy />;
}
