"use client";

import { useState } from "react";
import { PageHeader } from "@/components/ui/card";
import { tabPanelProps, Tabs } from "@/components/ui/tabs";
import { ReadOnlyNotice, useMe } from "../../_components/me";
import { CertificatesSection } from "./certificates-section";
import { ReceiptSamplesSection } from "./receipt-samples-section";

type Tab = "certificates" | "receipt-samples";

export function DocumentsView() {
  const { can } = useMe();
  const [tab, setTab] = useState<Tab>("certificates");

  return (
    <>
      <PageHeader
        title="Documents"
        description="Your licences and certificates, and the receipt template attached to customers' receipts."
      />
      {!can.admin && (
        <div className="mb-4">
          <ReadOnlyNotice>
            Only owners and admins upload, change or delete documents. You can view and download them.
          </ReadOnlyNotice>
        </div>
      )}
      <Tabs<Tab>
        id="documents"
        label="Documents"
        value={tab}
        onChange={setTab}
        items={[
          { value: "certificates", label: "Certificates" },
          { value: "receipt-samples", label: "Receipt samples" },
        ]}
      />
      <div {...tabPanelProps("documents", tab)} className="pt-6 focus-visible:outline-none">
        {tab === "certificates" ? <CertificatesSection canChange={can.admin} /> : <ReceiptSamplesSection canChange={can.admin} />}
      </div>
    </>
  );
}
