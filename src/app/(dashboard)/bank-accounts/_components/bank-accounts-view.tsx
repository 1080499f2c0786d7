"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Landmark, Plus } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "@/lib/toast";
import { lazyDialog } from "@/components/lazy-dialog";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { formatDate } from "@/lib/format";
import { errorInfo, useTRPC } from "@/trpc/react";
import type { BankAccount } from "../../earnings/_components/types";
import { ReadOnlyNotice, useMe } from "../../_components/me";
import { BankAccountStatusBadge } from "./bank-account-status";

// Loaded when first opened (their forms, schemas and zod with them).
const VerifyDialog = lazyDialog(
  () => import("./verify-dialog").then((m) => m.VerifyDialog),
  (props) => props.account !== null,
);
const AddBankAccountDialog = lazyDialog(() => import("./add-bank-account-dialog").then((m) => m.AddBankAccountDialog));

export function BankAccountsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const accounts = useInfiniteQuery(
    trpc.bankAccounts.list.infiniteQueryOptions({ limit: 50 }, { getNextPageParam: (l) => l.nextCursor ?? undefined }),
  );
  const [adding, setAdding] = useState(false);
  const [verifying, setVerifying] = useState<BankAccount | null>(null);
  const [removing, setRemovingState] = useState<BankAccount | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const setRemoving = (a: BankAccount | null) => {
    setRemoveError(null);
    setRemovingState(a);
  };
  // Withdrawing depends on the accounts too (the Earnings page's state).
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.bankAccounts.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.earnings.withdrawState.queryKey() }),
    ]);
  const onError = (err: unknown) => toast.error(errorInfo(err).message);

  const setDefault = useMutation(
    trpc.bankAccounts.setDefault.mutationOptions({
      onSuccess: (a) => {
        toast.success(`${a.bankName} ••••${a.accountNumberLast4} is now your default account`);
        void refresh();
      },
      onError,
    }),
  );
  const remove = useMutation(
    trpc.bankAccounts.remove.mutationOptions({
      onSuccess: () => {
        toast.success("Bank account removed");
        setRemoving(null);
        void refresh();
      },
      // E.g. 409 while a withdrawal to it is on its way: said in the dialog.
      onError: (err) => setRemoveError(errorInfo(err).message),
    }),
  );
  const rows = accounts.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <>
      <PageHeader
        title="Bank accounts"
        description={
          <>
            Where your{" "}
            <Link href="/earnings" className="font-medium text-brand-700 underline underline-offset-2 hover:no-underline">
              earnings
            </Link>{" "}
            are paid out. Each account is verified with a small deposit before it can receive withdrawals.
          </>
        }
        actions={
          can.admin && (
            <Button className="whitespace-nowrap" onClick={() => setAdding(true)}>
              <Plus className="h-4 w-4" aria-hidden /> Add bank account
            </Button>
          )
        }
      />
      {!can.admin && (
        <div className="mb-4">
          <ReadOnlyNotice>Only owners and admins add, verify and remove bank accounts.</ReadOnlyNotice>
        </div>
      )}
      <Card>
        {accounts.isPending ? (
          <div className="space-y-3 p-6" aria-label="Loading bank accounts">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-5 w-1/2" />
          </div>
        ) : accounts.isError ? (
          <ErrorState message={errorInfo(accounts.error).message} onRetry={() => accounts.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState
            icon={<Landmark className="h-10 w-10" />}
            title="No bank accounts yet"
            description="Add the account your earnings should be paid into."
            action={can.admin && <Button onClick={() => setAdding(true)}>Add your first bank account</Button>}
          />
        ) : (
          <ul role="list" aria-label="Bank accounts" className="divide-y divide-slate-200">
            {rows.map((a) => (
              <li
                key={a.id}
                data-testid="bank-account-row"
                className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:px-6"
              >
                <div className="min-w-0 space-y-1">
                  <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
                    <span className="font-medium text-slate-900">{a.bankName}</span>
                    <span className="font-mono text-slate-600">••••{a.accountNumberLast4}</span>
                  </p>
                  <p className="break-words text-sm text-slate-600">{a.accountName}</p>
                  <div className="flex flex-wrap items-center gap-1.5">
                    <BankAccountStatusBadge status={a.status} />
                    {a.isDefault && <Badge tone="blue">Default</Badge>}
                    <span className="text-xs text-slate-600">
                      {a.verifiedAt ? `Verified ${formatDate(a.verifiedAt)}` : `Added ${formatDate(a.createdAt)}`}
                    </span>
                  </div>
                  {a.status === "verification_failed" && (
                    <p className="text-xs text-red-700">Too many wrong codes. Remove this account and add it again.</p>
                  )}
                </div>
                {can.admin && (
                  <div className="flex flex-wrap gap-2">
                    {a.status === "pending_verification" && (
                      <Button size="sm" onClick={() => setVerifying(a)}>
                        Verify
                      </Button>
                    )}
                    {a.status === "verified" && !a.isDefault && (
                      <Button
                        variant="secondary"
                        size="sm"
                        loading={setDefault.isPending && setDefault.variables?.id === a.id}
                        onClick={() => setDefault.mutate({ id: a.id })}
                      >
                        Make default
                      </Button>
                    )}
                    <Button variant="danger" size="sm" onClick={() => setRemoving(a)}>
                      Remove
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
        {accounts.hasNextPage && (
          <div className="border-t border-slate-200 p-4 text-center">
            <Button variant="secondary" size="sm" loading={accounts.isFetchingNextPage} onClick={() => accounts.fetchNextPage()}>
              Load more
            </Button>
          </div>
        )}
      </Card>

      <AddBankAccountDialog
        open={adding}
        onOpenChange={setAdding}
        onAdded={(a) => {
          setAdding(false);
          toast.success("Bank account added. Verify it with the code from the deposit.");
          void refresh();
          setVerifying(a);
        }}
      />
      <VerifyDialog
        account={verifying}
        onOpenChange={(open) => !open && setVerifying(null)}
        onVerified={() => {
          setVerifying(null);
          toast.success("Bank account verified");
          void refresh();
        }}
        onFailed={() => void refresh()}
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove this bank account?"
        description={
          <>
            {removing?.bankName} ••••{removing?.accountNumberLast4} will no longer receive withdrawals. Past withdrawals keep
            their history.
            {removeError && (
              <span role="alert" className="mt-3 block rounded-md bg-red-50 px-3 py-2 text-red-700">
                {removeError}
              </span>
            )}
          </>
        }
        confirmLabel="Remove account"
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate({ id: removing.id })}
      />
    </>
  );
}
