-- Amounts are ISO 4217 minor units of their currency. Until now every currency
-- was stored in hundredths: right for NGN or USD, 100 times too much for a
-- currency without decimals (a JPY price of 1000 was stored as 100000) and a
-- tenth of a currency with 3 (KWD). Rows of those currencies are rescaled:
-- hundredths → units (rounded half away from zero; whole amounts are exact),
-- → thousandths (×10), → ten-thousandths (×100). Two-decimal rows do not move.
-- The table matches src/lib/money-format.ts (EXPONENTS). The analytics triggers
-- fire on inserts and status changes only, so these updates change nothing else;
-- the rollups and customer totals, kept in the organization's currency, are
-- rescaled here too.

CREATE FUNCTION coverdesk_rescale_minor(v BIGINT, currency TEXT) RETURNS BIGINT
LANGUAGE SQL IMMUTABLE AS $$
  SELECT CASE
    WHEN v IS NULL THEN NULL
    WHEN upper(currency) IN ('BIF','CLP','DJF','GNF','ISK','JPY','KMF','KRW','PYG','RWF','UGX','UYI','VND','VUV','XAF','XOF','XPF')
      THEN round(v / 100.0)::BIGINT
    WHEN upper(currency) IN ('BHD','IQD','JOD','KWD','LYD','OMR','TND') THEN v * 10
    WHEN upper(currency) IN ('CLF','UYW') THEN v * 100
    ELSE v
  END
$$;

CREATE FUNCTION coverdesk_rescales(currency TEXT) RETURNS BOOLEAN
LANGUAGE SQL IMMUTABLE AS $$ SELECT coverdesk_rescale_minor(1000, currency) <> 1000 $$;

UPDATE "policy" SET "priceMinor" = coverdesk_rescale_minor("priceMinor", currency) WHERE coverdesk_rescales(currency);
UPDATE "payment" SET
  "amountMinor" = coverdesk_rescale_minor("amountMinor", currency),
  "feeMinor" = coverdesk_rescale_minor("feeMinor", currency),
  "refundedMinor" = coverdesk_rescale_minor("refundedMinor", currency)
WHERE coverdesk_rescales(currency);
UPDATE "claim" SET
  "amountMinor" = coverdesk_rescale_minor("amountMinor", currency),
  "approvedAmountMinor" = coverdesk_rescale_minor("approvedAmountMinor", currency)
WHERE coverdesk_rescales(currency);
UPDATE "ledger_transaction" SET "amountMinor" = coverdesk_rescale_minor("amountMinor", currency) WHERE coverdesk_rescales(currency);
UPDATE "withdrawal" SET "amountMinor" = coverdesk_rescale_minor("amountMinor", currency) WHERE coverdesk_rescales(currency);
UPDATE "refund" SET "amountMinor" = coverdesk_rescale_minor("amountMinor", currency) WHERE coverdesk_rescales(currency);
UPDATE "claim_payout" SET "amountMinor" = coverdesk_rescale_minor("amountMinor", currency) WHERE coverdesk_rescales(currency);

UPDATE "daily_stats" s SET
  "grossMinor" = coverdesk_rescale_minor(s."grossMinor", o.currency),
  "feesMinor" = coverdesk_rescale_minor(s."feesMinor", o.currency),
  "withdrawnMinor" = coverdesk_rescale_minor(s."withdrawnMinor", o.currency),
  "reversedMinor" = coverdesk_rescale_minor(s."reversedMinor", o.currency),
  "claimedMinor" = coverdesk_rescale_minor(s."claimedMinor", o.currency)
FROM "organization" o WHERE o.id = s."organizationId" AND coverdesk_rescales(o.currency);
UPDATE "policy_daily_stats" s SET
  "grossMinor" = coverdesk_rescale_minor(s."grossMinor", o.currency),
  "feesMinor" = coverdesk_rescale_minor(s."feesMinor", o.currency),
  "claimedMinor" = coverdesk_rescale_minor(s."claimedMinor", o.currency)
FROM "organization" o WHERE o.id = s."organizationId" AND coverdesk_rescales(o.currency);
UPDATE "customer" c SET "totalPaidMinor" = coverdesk_rescale_minor(c."totalPaidMinor", o.currency)
FROM "organization" o WHERE o.id = c."organizationId" AND coverdesk_rescales(o.currency);

DROP FUNCTION coverdesk_rescales(TEXT);
DROP FUNCTION coverdesk_rescale_minor(BIGINT, TEXT);
