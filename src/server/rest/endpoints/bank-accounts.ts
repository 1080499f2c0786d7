import {
  AddBankAccountInput,
  BankAccount,
  BankAccountList,
  VerifyBankAccountInput,
} from "@/lib/schemas/bank-accounts";
import {
  addBankAccount,
  listBankAccounts,
  removeBankAccount,
  setDefaultBankAccount,
  verifyBankAccount,
} from "@/server/bank-accounts/service";
import { PageQuery } from "@/server/pagination";
import { endpoint, IdParam } from "../endpoint";

const tag = "Payouts";
const base = "/business/payment-methods/bank-accounts";

export const bankAccountEndpoints = [
  // GET /api/v1/business/payment-methods/bank-accounts — newest first, removed ones not listed
  endpoint({
    method: "GET",
    path: base,
    operationId: "listBankAccounts",
    summary: "List bank accounts",
    description: "The organization's bank accounts for withdrawals, newest first. Only the last 4 digits of an account number are shown.",
    tag,
    permission: "read",
    query: PageQuery,
    response: BankAccountList,
    handler: ({ actor, query }) => listBankAccounts(actor, query),
  }),
  // POST /api/v1/business/payment-methods/bank-accounts — 201 pending_verification; a micro-deposit is sent
  endpoint({
    method: "POST",
    path: base,
    operationId: "addBankAccount",
    summary: "Add a bank account",
    description:
      "Adds the account as `pending_verification` and sends it a small deposit whose descriptor carries a code (the sandbox's is always `SM11AA`); verify the account with that code. The same account number twice in the organization → 409 `conflict`. Needs an OWNER or ADMIN key creator.",
    tag,
    permission: "write",
    body: AddBankAccountInput,
    response: BankAccount,
    status: 201,
    errors: ["conflict"],
    handler: ({ actor, body }) => addBankAccount(actor, body),
  }),
  // POST /api/v1/business/payment-methods/bank-accounts/{id}/verify — the micro-deposit's code
  endpoint({
    method: "POST",
    path: `${base}/{id}/verify`,
    operationId: "verifyBankAccount",
    summary: "Verify a bank account",
    description:
      "The right code makes the account `verified` (the organization's first verified account becomes the default). A wrong one → 422 `validation_failed` with a top-level `attemptsRemaining` (2, 1, 0); the third wrong code makes the account `verification_failed`. An account not pending verification → 409 `invalid_state`.",
    tag,
    permission: "write",
    params: IdParam,
    body: VerifyBankAccountInput,
    response: BankAccount,
    errors: ["invalid_state"],
    handler: ({ actor, params, body }) => verifyBankAccount(actor, params.id, body),
  }),
  // PATCH /api/v1/business/payment-methods/bank-accounts/{id}/default
  endpoint({
    method: "PATCH",
    path: `${base}/{id}/default`,
    operationId: "setDefaultBankAccount",
    summary: "Make a bank account the default",
    description: "Only a verified account (else 409 `bank_account_not_verified`); the previous default stops being one.",
    tag,
    permission: "write",
    params: IdParam,
    response: BankAccount,
    errors: ["bank_account_not_verified"],
    handler: ({ actor, params }) => setDefaultBankAccount(actor, params.id),
  }),
  // DELETE /api/v1/business/payment-methods/bank-accounts/{id} — 204, soft
  endpoint({
    method: "DELETE",
    path: `${base}/{id}`,
    operationId: "removeBankAccount",
    summary: "Remove a bank account",
    description:
      "Hides the account (past withdrawals keep naming it). 409 `invalid_state` while a withdrawal to it is pending or processing. Removing the default makes the newest other verified account the default, if any.",
    tag,
    permission: "write",
    params: IdParam,
    status: 204,
    errors: ["invalid_state"],
    handler: ({ actor, params }) => removeBankAccount(actor, params.id),
  }),
];
