// What a paid period leaves on its coverage for the next renewal: the premium
// it cost, the card to charge and the policyholder's consent. Written in the
// settlement's transaction, with the period's schedule (one statement).
import { Prisma, type Coverage as CoverageRow } from "@/generated/prisma/client";
import type { ScheduleWith } from "@/server/coverages/schedule";
import type { CardAuthorization } from "@/server/payments/provider";
import { seal } from "@/server/seal";

/** The seal purpose of saved cards' reusable authorizations. */
export const CARD_SEAL = "card-authorization";

/** The card columns of a coverage, all null: no saved card. */
export const NO_CARD = {
  cardProvider: null,
  cardAuthorizationSealed: null,
  cardBrand: null,
  cardLast4: null,
  cardExpMonth: null,
  cardExpYear: null,
} as const;

/**
 * The period's terms as assignments for the statement that schedules the
 * period (`scheduleCoverage`'s `also`), with the values its schedule depends
 * on as they will be: one UPDATE writes both (the renewal job's hot path).
 */
export function periodTerms(
  row: CoverageRow,
  terms: {
    premiumMinor: bigint;
    /** The customer's "Renew automatically": true, false, or null when not asked (nothing changes). */
    consent: boolean | null;
    card: (CardAuthorization & { provider: string }) | null;
  },
): ScheduleWith {
  // An announced price is used up once a period starting at or after its date is paid.
  const announcedUsed = row.nextPremiumFrom !== null && row.nextPremiumFrom.getTime() <= row.periodStartsAt.getTime();
  const cardData: {
    autoRenew?: boolean;
    cardProvider?: string | null;
    cardAuthorizationSealed?: string | null;
    cardBrand?: string | null;
    cardLast4?: string | null;
    cardExpMonth?: number | null;
    cardExpYear?: number | null;
  } =
    terms.consent === true && terms.card
      ? {
          autoRenew: true,
          cardProvider: terms.card.provider,
          cardAuthorizationSealed: seal(CARD_SEAL, terms.card.code),
          cardBrand: terms.card.brand,
          cardLast4: terms.card.last4,
          cardExpMonth: terms.card.expMonth,
          cardExpYear: terms.card.expYear,
        }
      : terms.consent === true
        ? // Consent without a card that can be charged again: on only with the card already saved.
          { autoRenew: row.cardAuthorizationSealed !== null }
        : terms.consent === false
          ? { autoRenew: false, ...NO_CARD }
          : {};
  const set: Prisma.Sql[] = [
    Prisma.sql`"premiumMinor" = ${terms.premiumMinor}`,
    Prisma.sql`"updatedAt" = ${new Date()}::timestamp`,
    ...(announcedUsed ? [Prisma.sql`"nextPremiumMinor" = NULL`, Prisma.sql`"nextPremiumFrom" = NULL`] : []),
    ...Object.entries(cardData).map(([column, value]) => Prisma.sql`${Prisma.raw(`"${column}"`)} = ${value}`),
  ];
  return {
    set,
    autoRenew: cardData.autoRenew ?? row.autoRenew,
    cardExpYear: cardData.cardExpYear !== undefined ? cardData.cardExpYear : row.cardExpYear,
    cardExpMonth: cardData.cardExpMonth !== undefined ? cardData.cardExpMonth : row.cardExpMonth,
  };
}
