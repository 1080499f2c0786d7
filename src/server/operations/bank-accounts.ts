// Bank accounts for withdrawals: the REST API and the dashboard call the same services.
import { z } from "@/lib/messages";
import {
  AddBankAccountInput,
  BankAccount,
  BankAccountList,
  SandboxHint,
  VerifyBankAccountInput,
} from "@/lib/schemas/bank-accounts";
import { IdParam } from "@/lib/schemas/ids";
import {
  addBankAccount,
  listBankAccounts,
  removeBankAccount,
  sandboxHint,
  setDefaultBankAccount,
  verifyBankAccount,
} from "@/server/bank-accounts/service";
import { PageQuery } from "@/server/pagination";
import { operation } from "./operation";

const tag = "Payouts";
const base = "/business/payment-methods/bank-accounts";

export const bankAccountOperations = [
  // GET /api/v1/business/payment-methods/bank-accounts — newest first, removed ones not listed
  operation({
    name: "bankAccounts.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: PageQuery,
    output: BankAccountList,
    dashboard: true,
    rest: {
      method: "GET",
      path: base,
      operationId: "listBankAccounts",
      summary: "List bank accounts",
      description:
        "The organization's bank accounts for withdrawals, newest first. Only the last 4 digits of an account number are shown.",
      tag,
      query: PageQuery,
    },
    handler: ({ actor, input }) => listBankAccounts(actor, input),
  }),
  // POST /api/v1/business/payment-methods/bank-accounts — 201 pending_verification; a micro-deposit is sent
  operation({
    name: "bankAccounts.add",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: AddBankAccountInput,
    output: BankAccount,
    dashboard: true,
    rest: {
      method: "POST",
      path: base,
      operationId: "addBankAccount",
      summary: "Add a bank account",
      description:
        "Adds the account as `pending_verification` and sends it a small deposit whose descriptor carries a code (the sandbox's is always `SM11AA`); verify the account with that code. The same account number twice in the organization → 409 `conflict`. Needs an OWNER or ADMIN key creator.",
      tag,
      body: AddBankAccountInput,
      status: 201,
      errors: ["conflict"],
    },
    handler: ({ actor, input }) => addBankAccount(actor, input),
  }),
  // POST /api/v1/business/payment-methods/bank-accounts/{id}/verify — the micro-deposit's code.
  // A wrong code: 422 (UNPROCESSABLE_CONTENT on tRPC) with `attemptsRemaining`.
  operation({
    name: "bankAccounts.verify",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: IdParam.extend(VerifyBankAccountInput.shape),
    output: BankAccount,
    dashboard: true,
    rest: {
      method: "POST",
      path: `${base}/{id}/verify`,
      operationId: "verifyBankAccount",
      summary: "Verify a bank account",
      description:
        "The right code makes the account `verified` (the organization's first verified account becomes the default). A wrong one → 422 `validation_failed` with a top-level `attemptsRemaining` (2, 1, 0); the third wrong code makes the account `verification_failed`. An account not pending verification → 409 `invalid_state`.",
      tag,
      params: IdParam,
      body: VerifyBankAccountInput,
      errors: ["invalid_state"],
    },
    handler: ({ actor, input: { id, ...code } }) => verifyBankAccount(actor, id, code),
  }),
  // PATCH /api/v1/business/payment-methods/bank-accounts/{id}/default
  operation({
    name: "bankAccounts.setDefault",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: IdParam,
    output: BankAccount,
    dashboard: true,
    rest: {
      method: "PATCH",
      path: `${base}/{id}/default`,
      operationId: "setDefaultBankAccount",
      summary: "Make a bank account the default",
      description: "Only a verified account (else 409 `bank_account_not_verified`); the previous default stops being one.",
      tag,
      params: IdParam,
      errors: ["bank_account_not_verified"],
    },
    handler: ({ actor, input }) => setDefaultBankAccount(actor, input.id),
  }),
  // DELETE /api/v1/business/payment-methods/bank-accounts/{id} — 204, soft
  operation({
    name: "bankAccounts.remove",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: IdParam,
    output: z.void(),
    dashboard: true,
    rest: {
      method: "DELETE",
      path: `${base}/{id}`,
      operationId: "removeBankAccount",
      summary: "Remove a bank account",
      description:
        "Hides the account (past withdrawals keep naming it). 409 `invalid_state` while a withdrawal to it is pending or processing. Removing the default makes the newest other verified account the default, if any.",
      tag,
      params: IdParam,
      status: 204,
      errors: ["invalid_state"],
    },
    handler: ({ actor, input }) => removeBankAccount(actor, input.id),
  }),
  operation({
    name: "bankAccounts.sandboxHint",
    auth: ["session"],
    permission: "read",
    kind: "query",
    output: SandboxHint,
    dashboard: true,
    handler: async ({ actor }) => sandboxHint(actor),
  }),
] as const;
