// The policy form validates with the API's own CreatePolicyInput over the input
// its fields make, and sends that same input: what it refuses, says and sends.
import { describe, expect, it } from "vitest";
import { GivenAmount } from "@/lib/money";
import { CreatePolicyInput, UpdatePolicyInput, type Policy } from "@/lib/schemas/policies";
import { formSchemaFor, resolver } from "./policy-form.schema";
import {
  policyFormValues,
  policyInputs,
  toCreatePolicyInput,
  toUpdatePolicyInput,
  type PolicyFormValues,
} from "./policy-form.values";

const filled: PolicyFormValues = {
  ...policyFormValues(),
  name: "Motor Comprehensive",
  type: "auto",
  duration: "quarterly",
  price: "2500.5",
};

const issues = (values: PolicyFormValues) =>
  (formSchemaFor("NGN").safeParse(values).error?.issues ?? []).map((i) => ({ path: i.path.join("."), message: i.message }));

/** What react-hook-form gets from the resolver: the messages under each field, or the values submitted. */
const resolve = (values: PolicyFormValues) =>
  resolver(values, { currency: "NGN" }, { fields: {}, shouldUseNativeValidation: false, criteriaMode: "firstError" });

describe("policy form → API input", () => {
  it("leaves an empty description and coverage out of a create, and keeps the price as typed", () => {
    expect(toCreatePolicyInput(filled)).toEqual({
      name: "Motor Comprehensive",
      type: "auto",
      duration: "quarterly",
      price: "2500.5",
      benefits: [],
      exclusions: [],
    });
    const input = CreatePolicyInput.parse(
      toCreatePolicyInput({ ...filled, description: "  ", benefits: ["Roadside assistance"] }),
    );
    expect(input.price).toEqual(new GivenAmount(25_005_000n));
    expect(input.description).toBeUndefined();
    expect(input.benefits).toEqual(["Roadside assistance"]);
  });

  it("clears an emptied description or coverage on update (null), and sends text as typed", () => {
    const update = toUpdatePolicyInput({ ...filled, description: "", coverage: "Fire and theft" });
    expect(update).toMatchObject({ description: null, coverage: "Fire and theft" });
    expect(UpdatePolicyInput.parse(update)).toMatchObject({
      description: null,
      coverage: "Fire and theft",
      price: new GivenAmount(25_005_000n),
    });
  });

  it("starts an edit from the policy as the API returns it, which the API takes back unchanged", () => {
    const policy: Policy = {
      id: "pol_1",
      name: "Home Basic",
      type: "home",
      description: null,
      duration: "yearly",
      price: "150.00",
      currency: "NGN",
      coverage: "Fire",
      benefits: ["Temporary housing"],
      exclusions: [],
      isActive: true,
      createdAt: new Date(0).toISOString(),
      updatedAt: new Date(0).toISOString(),
    };
    const values = policyFormValues(policy);
    expect(values).toMatchObject({ description: "", coverage: "Fire", price: "150.00" });
    expect(issues(values)).toEqual([]);
    expect(UpdatePolicyInput.parse(toUpdatePolicyInput(values))).toMatchObject({
      price: new GivenAmount(1_500_000n),
      description: null,
      coverage: "Fire",
    });
  });
});

describe("policy form validation (the API's schema)", () => {
  it("says what an empty form needs, in the API's words", () => {
    expect(issues(policyFormValues())).toEqual([
      { path: "name", message: "Enter a name" },
      { path: "price", message: "Enter an amount greater than 0, like 150 or 150.50" },
    ]);
  });

  it("refuses what the API refuses, with its sentences", () => {
    expect(issues({ ...filled, price: "0" })).toEqual([{ path: "price", message: "Enter an amount greater than 0" }]);
    expect(issues({ ...filled, price: "12.345" })).toEqual([
      { path: "price", message: "NGN amounts have at most 2 decimals, like 150.50" },
    ]);
    expect(issues({ ...filled, price: "12.34567" })).toEqual([
      { path: "price", message: "Enter an amount greater than 0, like 150 or 150.50" },
    ]);
    // The business's currency decides: whole yen, fils to three decimals.
    const inCurrency = (currency: string, price: string) =>
      formSchemaFor(currency).safeParse({ ...filled, price }).error?.issues ?? [];
    expect(inCurrency("JPY", "1500.5").map((i) => i.message)).toEqual(["JPY amounts are whole numbers, like 1500"]);
    expect(inCurrency("JPY", "1500")).toEqual([]);
    expect(inCurrency("KWD", "12.345")).toEqual([]);
    expect(issues({ ...filled, price: "10000000000000" })).toEqual([{ path: "price", message: "This amount is too large" }]);
    expect(issues({ ...filled, name: "x".repeat(121) })).toEqual([{ path: "name", message: "Use at most 120 characters" }]);
    expect(issues({ ...filled, description: "x".repeat(5001) })).toEqual([
      { path: "description", message: "Use at most 5000 characters" },
    ]);
    expect(issues({ ...filled, benefits: ["ok", "x".repeat(501)] })).toEqual([
      { path: "benefits.1", message: "Use at most 500 characters" },
    ]);
    expect(issues({ ...filled, exclusions: Array.from({ length: 51 }, (_, i) => `E${i}`) })).toEqual([
      { path: "exclusions", message: "Give at most 50 items" },
    ]);
    // (The list's own "Give a list of text values" is for a value that is not a list at all.)
    expect(CreatePolicyInput.safeParse({ ...toCreatePolicyInput(filled), benefits: "x" }).error?.issues[0]?.message).toBe(
      "Give a list of text values",
    );
    // Anything the API takes, the form takes: each of these is a valid body.
    for (const values of [filled, { ...filled, price: " 150 " }, { ...filled, name: "x".repeat(120), benefits: ["a"] }]) {
      expect(issues(values)).toEqual([]);
      expect(CreatePolicyInput.safeParse(toCreatePolicyInput(values)).success).toBe(true);
    }
  });

  it("gives react-hook-form the messages per field, and the form's own values on success", async () => {
    const bad = await resolve({ ...filled, name: " ", benefits: ["x".repeat(501)] });
    expect(bad.errors.name?.message).toBe("Enter a name");
    expect((bad.errors.benefits as unknown as { message: string }[])[0]?.message).toBe("Use at most 500 characters");
    const good = await resolve(filled);
    expect(good.errors).toEqual({});
    expect(good.values).toEqual(filled); // raw: the page maps them (toCreatePolicyInput), the price stays a string
  });
});

describe("what the form hands its page", () => {
  it("is both inputs, made from the same fields", () => {
    const inputs = policyInputs({ ...filled, description: "" });
    expect(inputs.create).toEqual(toCreatePolicyInput({ ...filled, description: "" }));
    expect(inputs.update).toMatchObject({ description: null, coverage: null, price: "2500.5" });
  });
});
