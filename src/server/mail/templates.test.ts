import { describe, expect, it } from "vitest";
import { env } from "@/server/env";
import { fromHeader, headerSafe, layoutEmail } from "@/server/integrations/email";
import { verifyUrl } from "@/server/coverages/certificate";
import { customerReceipt, kybApproved, paymentReceived, renewalReminder } from "./templates";

describe("mail templates", () => {
  it("escape every value in the HTML and keep it readable in the text", () => {
    const mail = paymentReceived({
      business: "A&B <Ltd>",
      policy: `<img src=x onerror="alert(1)">`,
      amount: "150.00",
      currency: "NGN",
      email: "ada@example.test",
      reference: "cdp_ref",
    });
    expect(mail.subject).toBe(`Payment received: ₦150.00 for <img src=x onerror="alert(1)">`);
    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain("&#60;img src=x onerror=&#34;alert(1)&#34;&#62;");
    expect(mail.html).toContain("A&#38;B &#60;Ltd&#62;");
    expect(mail.text).toContain(`Policy: <img src=x onerror="alert(1)">`);
    expect(mail.text).toContain(`View the payment: ${env.APP_URL}/payments/cdp_ref`);
  });

  it("leave the button out when a mail has no action, and keep it for those that do", () => {
    const approved = kybApproved({ business: "Acme" });
    expect(approved.html).not.toContain("<a ");
    expect(approved.link).toBeUndefined();
    const invitation = layoutEmail({
      heading: "Join",
      paragraphs: ["p"],
      action: { label: "Accept", url: "https://x.test/i/1" },
      footer: "f",
    });
    expect(invitation.html).toContain(`<a href="https://x.test/i/1"`);
    expect(invitation.text).toBe("Join\n\np\n\nAccept: https://x.test/i/1\n\nf");
  });

  it("show the coverage dates on the receipt, and mention the attachment only when there is one", () => {
    const receipt = (hasAttachment: boolean) =>
      customerReceipt({
        business: "Acme",
        policy: "Fleet",
        amount: "150.00",
        currency: "NGN",
        reference: "cdp_ref",
        startsAt: "2026-01-05T10:00:00.000Z",
        endsAt: "2027-01-05T10:00:00.000Z",
        paidAt: "2026-01-05T10:00:00.000Z",
        hasAttachment,
      });
    expect(receipt(false).text).toContain("Coverage: 5 January 2026 – 5 January 2027");
    expect(receipt(false).text).toContain("Paid on: 5 January 2026");
    expect(receipt(false).text).not.toContain("attached");
    expect(receipt(true).text).toContain("Acme's receipt is attached.");
    // Before the coverage is known: no certificate links.
    expect(receipt(false).text).not.toContain("/portal/");
    expect(receipt(false).html).not.toContain("<a ");
  });

  it("link the receipt to the certificate on the policyholder portal, the portal, and the public check", () => {
    const mail = customerReceipt({
      business: "Acme",
      policy: "Fleet",
      amount: "150.00",
      currency: "NGN",
      reference: "cdp_ref",
      startsAt: "2026-01-05T10:00:00.000Z",
      endsAt: "2027-01-05T10:00:00.000Z",
      paidAt: "2026-01-05T10:00:00.000Z",
      hasAttachment: false,
      coverage: { organizationId: "org_1", coverageId: "cov_1", certificateNumber: "COI-0123456789ABCDEF0123" },
    });
    const certificate = `${env.APP_URL}/portal/org_1/coverages/cov_1`;
    const portal = `${env.APP_URL}/portal/org_1`;
    const verify = `${env.APP_URL}/verify/COI-0123456789ABCDEF0123`;
    expect(verify).toBe(verifyUrl("COI-0123456789ABCDEF0123"));
    expect(mail.text).toContain(`Your certificate of insurance: ${certificate}`);
    expect(mail.text).toContain(`Manage your cover: ${portal}`);
    expect(mail.text).toContain("Certificate number: COI-0123456789ABCDEF0123");
    expect(mail.text).toContain(`Verify it at: ${verify}`);
    expect(mail.html).toContain(`<a href="${certificate}"`);
    expect(mail.html).toContain(`<a href="${portal}"`);
    expect(mail.link).toBe(certificate);
    // The PDF itself is never linked: it names the policyholder.
    expect(mail.text).not.toContain("/certificate");
  });
});

describe("the From header", () => {
  it("keeps MAIL_FROM's address and puts the business only in the display name, on one line", () => {
    expect(fromHeader()).toBe(env.MAIL_FROM);
    expect(fromHeader("Acme\r\nBcc: x@evil.test")).toEqual({
      name: "Acme Bcc: x@evil.test via Coverdesk",
      address: "no-reply@coverdesk.local",
    });
    expect(fromHeader("\r\n\t ")).toBe(env.MAIL_FROM);
    expect(headerSafe(`a\u2028b\u0000c${"x".repeat(300)}`, 10)).toBe("a b cxxxxx");
  });
});

describe("the renewal reminder", () => {
  const base = {
    business: "A&B <Ltd>",
    policy: "Shop cover",
    endsAt: "2030-03-12T10:00:00.000Z",
    organizationId: "org_1",
    coverageId: "cov_1",
  };
  it("says when the cover ends and links to renewing it on the portal, every value escaped", () => {
    const mail = renewalReminder({ ...base, daysLeft: 3 });
    expect(mail.subject).toBe("Your Shop cover with A&B <Ltd> ends in 3 days");
    expect(mail.link).toBe(`${env.APP_URL}/portal/org_1/coverages/cov_1`);
    expect(mail.text).toContain("Your Shop cover with A&B <Ltd> ends on 12 March 2030.");
    expect(mail.text).toContain("Days left: 3");
    expect(mail.text).toContain(`Renew your cover: ${env.APP_URL}/portal/org_1/coverages/cov_1`);
    expect(mail.html).not.toContain("<Ltd>");
    expect(mail.html).toContain("A&#38;B &#60;Ltd&#62;");
  });
  it("1 day, and today", () => {
    expect(renewalReminder({ ...base, daysLeft: 1 }).subject).toMatch(/ends in 1 day$/);
    expect(renewalReminder({ ...base, daysLeft: 0 }).subject).toMatch(/ends today$/);
  });
});
