// The wording of field errors: every issue a request can raise reads as a
// human instruction, never zod's own English ("Invalid input: expected …").
import { describe, expect, it } from "vitest";
import { CreateClaimInput, UpdateClaimStatusInput } from "@/lib/schemas/claims";
import { CreateOrganizationInput } from "@/lib/schemas/organizations";
import { PageQuery } from "@/lib/schemas/pagination";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { UpdateSettingsInput } from "@/lib/schemas/settings";
import { CreateWebhookInput } from "@/lib/schemas/webhooks";
import { M, z } from "./messages";

const ZOD_ENGLISH = /Invalid input|expected |received |Too (small|big)|Unrecognized key|Invalid (string|option|enum)/;
const messages = (schema: z.ZodType, value: unknown) =>
  (schema.safeParse(value).error?.issues ?? []).map((i) => ({ path: i.path.join("."), message: i.message }));

describe("field-error wording", () => {
  it("names what a missing or empty field asks for", () => {
    expect(messages(CreatePolicyInput, {})).toEqual([
      { path: "name", message: "Enter a name" },
      { path: "type", message: "Choose a type: auto, home, health, life, travel, property, liability, business, other" },
      { path: "duration", message: "Choose a duration: monthly, quarterly, yearly" },
      { path: "price", message: "Enter a price" },
    ]);
    expect(messages(CreatePolicyInput, { name: " ", type: "home", duration: "yearly", price: "1" })).toEqual([
      { path: "name", message: "Enter a name" },
    ]);
  });

  it("says the limit, the format or the choices", () => {
    expect(messages(CreatePolicyInput, { name: "n".repeat(121), type: "boat", duration: "yearly", price: "1.23456" })).toEqual([
      { path: "name", message: "Use at most 120 characters" },
      { path: "type", message: "Choose one of: auto, home, health, life, travel, property, liability, business, other" },
      { path: "price", message: M.amount },
    ]);
    expect(messages(CreateWebhookInput, { url: "ftp://example.com", events: ["claim.submitted"] })).toEqual([
      { path: "url", message: M.url },
    ]);
    expect(messages(CreateOrganizationInput, { name: "A", email: "nope", phone: "0801" })).toEqual([
      { path: "email", message: M.email },
      { path: "phone", message: M.phone },
    ]);
    expect(messages(UpdateSettingsInput, { api: { rateLimit: 0.5 } })[0]?.message).toBe("Enter a whole number from 1 to 100000");
    expect(messages(InitializePaymentInput, { amount: -1, policyId: "p", email: "a@b.co" })).toEqual([
      { path: "amount", message: M.amountPositive },
    ]);
    expect(messages(CreateClaimInput, { policyId: "p", type: "theft", description: "d", amount: 1, extra: 1 })).toEqual([
      { path: "", message: "Remove the unknown field: extra" },
    ]);
    expect(messages(PageQuery, { limit: "0" })[0]?.message).toBe("Enter at least 1");
  });

  it("never lets zod's own English through, whatever the input", () => {
    const hostile = [undefined, null, 0, -1, 1.5, "", " ", "x".repeat(6000), [], {}, [1], { a: 1 }, true, "2026-13-45"];
    const schemas: z.ZodType[] = [
      CreatePolicyInput,
      CreateOrganizationInput,
      CreateWebhookInput,
      CreateClaimInput,
      UpdateClaimStatusInput,
      InitializePaymentInput,
      CheckoutInput,
      UpdateSettingsInput,
    ];
    for (const schema of schemas) {
      const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      for (const value of hostile) {
        for (const body of [value, ...Object.keys(shape).map((k) => ({ [k]: value }))]) {
          for (const issue of messages(schema, body)) {
            expect(issue.message, `${JSON.stringify(body)?.slice(0, 60)} → ${issue.path}`).not.toMatch(ZOD_ENGLISH);
            expect(issue.message).toMatch(/^[A-Z]/);
          }
        }
      }
    }
  });
});
