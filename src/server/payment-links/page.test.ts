// The public page's HTML: every value escaped, the tags a shared link previews
// with, the errors beside their fields; and the checkout's expiry as typed.
import { describe, expect, it } from "vitest";
import { formatExpiry } from "@/app/pay/[reference]/checkout-form";
import { escapeHtml } from "@/server/html";
import { buyPage } from "./page";

const brand = {
  name: `Ada & Co "Insure"`,
  accent: "#1d4ed8",
  onAccent: "#ffffff",
  logoUrl: "https://app.test/api/portal/o/logo",
};
const policy = {
  name: "<script>alert(1)</script>",
  type: "auto",
  duration: "monthly",
  priceMinor: 250_000n,
  currency: "NGN",
  description: null,
  coverage: "Fire & theft",
  benefits: ["Towing <24h>"],
  exclusions: [],
};

describe("the payment link's page", () => {
  it("escapes every value and carries Open Graph and Twitter tags", () => {
    const html = buyPage({
      brand,
      url: "https://app.test/buy/abc",
      livemode: true,
      policy,
      collectPhone: false,
      state: { values: { name: "", email: "", phone: "" }, errors: {} },
    });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    expect(html).toContain("<li>Towing &#60;24h&#62;</li>");
    expect(html).toContain(`<meta property="og:site_name" content="Ada &#38; Co &#34;Insure&#34;">`);
    expect(html).toContain(`<meta property="og:image" content="https://app.test/api/portal/o/logo">`);
    expect(html).toContain(`<meta name="twitter:card" content="summary">`);
    expect(html).toContain("₦2,500.00");
    expect(html).not.toContain('id="phone"'); // not asked
    expect(escapeHtml(`'"<>&`)).toBe("&#39;&#34;&#60;&#62;&#38;");
  });

  it("shows every error beside its field, and keeps what was typed", () => {
    const html = buyPage({
      brand,
      url: "https://app.test/buy/abc",
      livemode: false,
      policy,
      collectPhone: true,
      state: {
        values: { name: "", email: `x"><b>`, phone: "12" },
        errors: { name: "Enter your name", email: "Enter a valid email", phone: "Enter a valid phone number" },
      },
    });
    expect(html).toContain("Check the 3 fields marked below.");
    for (const id of ["name", "email", "phone"]) {
      expect(html).toContain(`id="${id}-error"`);
      expect(html).toMatch(new RegExp(`id="${id}"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]*${id}-error`));
    }
    expect(html).toContain('value="x&#34;&#62;&#60;b&#62;"');
    expect(html).toContain('<span class="test">TEST</span>');
  });
});

describe("the checkout's expiry", () => {
  it("is formatted as it is typed", () => {
    expect(["1", "12", "122", "1229", "12/29", "5", "529", "12345"].map(formatExpiry)).toEqual([
      "1",
      "12/",
      "12/2",
      "12/29",
      "12/29",
      "05/",
      "05/29",
      "12/34",
    ]);
  });
});
