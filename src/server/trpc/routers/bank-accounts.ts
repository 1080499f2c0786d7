// Bank accounts for the dashboard's money-out pages; the service enforces every rule.
import { z } from "@/lib/messages";
import {
  AddBankAccountInput,
  BankAccount,
  BankAccountList,
  SandboxHint,
  VerifyBankAccountInput,
} from "@/lib/schemas/bank-accounts";
import {
  addBankAccount,
  listBankAccounts,
  removeBankAccount,
  sandboxHint,
  setDefaultBankAccount,
  verifyBankAccount,
} from "@/server/bank-accounts/service";
import { IdParam } from "@/lib/schemas/ids";
import { PageQuery } from "@/server/pagination";
import { orgProcedure, router } from "../init";

export const bankAccountsRouter = router({
  list: orgProcedure
    .input(PageQuery)
    .output(BankAccountList)
    .query(({ ctx, input }) => listBankAccounts(ctx.actor, input)),
  add: orgProcedure
    .input(AddBankAccountInput)
    .output(BankAccount)
    .mutation(({ ctx, input }) => addBankAccount(ctx.actor, input)),
  /** A wrong code: UNPROCESSABLE_CONTENT with `data.attemptsRemaining`. */
  verify: orgProcedure
    .input(IdParam.extend(VerifyBankAccountInput.shape))
    .output(BankAccount)
    .mutation(({ ctx, input }) => verifyBankAccount(ctx.actor, input.id, input)),
  setDefault: orgProcedure
    .input(IdParam)
    .output(BankAccount)
    .mutation(({ ctx, input }) => setDefaultBankAccount(ctx.actor, input.id)),
  remove: orgProcedure
    .input(IdParam)
    .output(z.void())
    .mutation(({ ctx, input }) => removeBankAccount(ctx.actor, input.id)),
  sandboxHint: orgProcedure.output(SandboxHint).query(({ ctx }) => sandboxHint(ctx.actor)),
});
