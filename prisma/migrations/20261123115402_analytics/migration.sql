-- CreateTable
CREATE TABLE "daily_stats" (
    "organizationId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "paymentsCreated" INTEGER NOT NULL DEFAULT 0,
    "paymentsSucceeded" INTEGER NOT NULL DEFAULT 0,
    "paymentsFailed" INTEGER NOT NULL DEFAULT 0,
    "grossMinor" BIGINT NOT NULL DEFAULT 0,
    "feesMinor" BIGINT NOT NULL DEFAULT 0,
    "withdrawnMinor" BIGINT NOT NULL DEFAULT 0,
    "reversedMinor" BIGINT NOT NULL DEFAULT 0,
    "purchases" INTEGER NOT NULL DEFAULT 0,
    "renewals" INTEGER NOT NULL DEFAULT 0,
    "claimsFiled" INTEGER NOT NULL DEFAULT 0,
    "claimedMinor" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "daily_stats_pkey" PRIMARY KEY ("organizationId","day")
);

-- CreateTable
CREATE TABLE "policy_daily_stats" (
    "organizationId" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "paymentsCreated" INTEGER NOT NULL DEFAULT 0,
    "paymentsSucceeded" INTEGER NOT NULL DEFAULT 0,
    "paymentsFailed" INTEGER NOT NULL DEFAULT 0,
    "grossMinor" BIGINT NOT NULL DEFAULT 0,
    "feesMinor" BIGINT NOT NULL DEFAULT 0,
    "purchases" INTEGER NOT NULL DEFAULT 0,
    "renewals" INTEGER NOT NULL DEFAULT 0,
    "claimsFiled" INTEGER NOT NULL DEFAULT 0,
    "claimedMinor" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "policy_daily_stats_pkey" PRIMARY KEY ("organizationId","policyId","day")
);

-- CreateTable
CREATE TABLE "api_usage" (
    "organizationId" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "minute" TIMESTAMP(3) NOT NULL,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "requests" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,
    "serverErrors" INTEGER NOT NULL,
    "latencyMsSum" DOUBLE PRECISION NOT NULL,
    "latencyBuckets" INTEGER[],

    CONSTRAINT "api_usage_pkey" PRIMARY KEY ("organizationId","minute","apiKeyId","method","route")
);

-- CreateIndex
CREATE INDEX "policy_daily_stats_organizationId_day_idx" ON "policy_daily_stats"("organizationId", "day");

-- AddForeignKey
ALTER TABLE "daily_stats" ADD CONSTRAINT "daily_stats_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "policy_daily_stats" ADD CONSTRAINT "policy_daily_stats_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_usage" ADD CONSTRAINT "api_usage_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- ---------------------------------------------------------------------------
-- What the daily rollups count, recomputed from the source tables: one row per
-- contribution (a payment created, a payment settled, a ledger entry, a
-- coverage created or renewed, a claim filed). Used once below to fill the
-- rollups from the data already there, and by `npm run ledger:check` to prove
-- the triggers kept them equal.
CREATE VIEW "analytics_source" AS
  SELECT "organizationId", "policyId", "createdAt"::date AS day,
         1 AS "paymentsCreated", 0 AS "paymentsSucceeded", 0 AS "paymentsFailed",
         0::bigint AS "grossMinor", 0::bigint AS "feesMinor", 0::bigint AS "withdrawnMinor", 0::bigint AS "reversedMinor",
         0 AS purchases, 0 AS renewals, 0 AS "claimsFiled", 0::bigint AS "claimedMinor"
  FROM payment
  UNION ALL
  SELECT "organizationId", "policyId", coalesce("paidAt", "updatedAt")::date, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0
  FROM payment WHERE status = 'success'
  UNION ALL
  SELECT "organizationId", "policyId", "updatedAt"::date, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0
  FROM payment WHERE status = 'failed'
  UNION ALL
  SELECT "organizationId", "policyId", "createdAt"::date, 0, 0, 0,
         CASE WHEN type = 'payment' THEN "amountMinor" ELSE 0 END,
         CASE WHEN type = 'fee' THEN -"amountMinor" ELSE 0 END,
         CASE WHEN type = 'withdrawal' THEN -"amountMinor" ELSE 0 END,
         CASE WHEN type = 'withdrawal_reversal' THEN "amountMinor" ELSE 0 END,
         0, 0, 0, 0
  FROM ledger_transaction
  UNION ALL
  -- a coverage counts its purchase on the day it was created; its renewals are
  -- counted by the trigger on the day each happens (the view, not knowing those
  -- days, puts them on the day of the last change)
  SELECT "organizationId", "policyId", "createdAt"::date, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 FROM coverage
  UNION ALL
  SELECT "organizationId", "policyId", "updatedAt"::date, 0, 0, 0, 0, 0, 0, 0, 0, "renewalCount", 0, 0
  FROM coverage WHERE "renewalCount" > 0
  UNION ALL
  SELECT "organizationId", "policyId", "createdAt"::date, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, "amountMinor" FROM claim;

INSERT INTO "daily_stats" ("organizationId", day, "paymentsCreated", "paymentsSucceeded", "paymentsFailed", "grossMinor",
  "feesMinor", "withdrawnMinor", "reversedMinor", purchases, renewals, "claimsFiled", "claimedMinor")
SELECT "organizationId", day, sum("paymentsCreated"), sum("paymentsSucceeded"), sum("paymentsFailed"), sum("grossMinor"),
  sum("feesMinor"), sum("withdrawnMinor"), sum("reversedMinor"), sum(purchases), sum(renewals), sum("claimsFiled"), sum("claimedMinor")
FROM "analytics_source" GROUP BY "organizationId", day;

INSERT INTO "policy_daily_stats" ("organizationId", "policyId", day, "paymentsCreated", "paymentsSucceeded", "paymentsFailed",
  "grossMinor", "feesMinor", purchases, renewals, "claimsFiled", "claimedMinor")
SELECT "organizationId", "policyId", day, sum("paymentsCreated"), sum("paymentsSucceeded"), sum("paymentsFailed"),
  sum("grossMinor"), sum("feesMinor"), sum(purchases), sum(renewals), sum("claimsFiled"), sum("claimedMinor")
FROM "analytics_source" WHERE "policyId" IS NOT NULL GROUP BY "organizationId", "policyId", day;

-- One contribution added to the organization's day and, with a policy, to the
-- policy's day. Rows are locked in that order by every caller (no deadlock).
CREATE FUNCTION analytics_add(
  org text, pol text, d date,
  created int DEFAULT 0, succeeded int DEFAULT 0, failed int DEFAULT 0,
  gross bigint DEFAULT 0, fees bigint DEFAULT 0, withdrawn bigint DEFAULT 0, reversed bigint DEFAULT 0,
  bought int DEFAULT 0, renewed int DEFAULT 0, filed int DEFAULT 0, claimed bigint DEFAULT 0
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO daily_stats AS s ("organizationId", day, "paymentsCreated", "paymentsSucceeded", "paymentsFailed", "grossMinor",
    "feesMinor", "withdrawnMinor", "reversedMinor", purchases, renewals, "claimsFiled", "claimedMinor")
  VALUES (org, d, created, succeeded, failed, gross, fees, withdrawn, reversed, bought, renewed, filed, claimed)
  ON CONFLICT ("organizationId", day) DO UPDATE SET
    "paymentsCreated" = s."paymentsCreated" + EXCLUDED."paymentsCreated",
    "paymentsSucceeded" = s."paymentsSucceeded" + EXCLUDED."paymentsSucceeded",
    "paymentsFailed" = s."paymentsFailed" + EXCLUDED."paymentsFailed",
    "grossMinor" = s."grossMinor" + EXCLUDED."grossMinor",
    "feesMinor" = s."feesMinor" + EXCLUDED."feesMinor",
    "withdrawnMinor" = s."withdrawnMinor" + EXCLUDED."withdrawnMinor",
    "reversedMinor" = s."reversedMinor" + EXCLUDED."reversedMinor",
    purchases = s.purchases + EXCLUDED.purchases,
    renewals = s.renewals + EXCLUDED.renewals,
    "claimsFiled" = s."claimsFiled" + EXCLUDED."claimsFiled",
    "claimedMinor" = s."claimedMinor" + EXCLUDED."claimedMinor";
  IF pol IS NOT NULL THEN
    INSERT INTO policy_daily_stats AS s ("organizationId", "policyId", day, "paymentsCreated", "paymentsSucceeded",
      "paymentsFailed", "grossMinor", "feesMinor", purchases, renewals, "claimsFiled", "claimedMinor")
    VALUES (org, pol, d, created, succeeded, failed, gross, fees, bought, renewed, filed, claimed)
    ON CONFLICT ("organizationId", "policyId", day) DO UPDATE SET
      "paymentsCreated" = s."paymentsCreated" + EXCLUDED."paymentsCreated",
      "paymentsSucceeded" = s."paymentsSucceeded" + EXCLUDED."paymentsSucceeded",
      "paymentsFailed" = s."paymentsFailed" + EXCLUDED."paymentsFailed",
      "grossMinor" = s."grossMinor" + EXCLUDED."grossMinor",
      "feesMinor" = s."feesMinor" + EXCLUDED."feesMinor",
      purchases = s.purchases + EXCLUDED.purchases,
      renewals = s.renewals + EXCLUDED.renewals,
      "claimsFiled" = s."claimsFiled" + EXCLUDED."claimsFiled",
      "claimedMinor" = s."claimedMinor" + EXCLUDED."claimedMinor";
  END IF;
END $$;

CREATE FUNCTION analytics_on_payment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM analytics_add(NEW."organizationId", NEW."policyId", NEW."createdAt"::date, created => 1);
  ELSIF OLD.status IS NOT DISTINCT FROM NEW.status THEN
    RETURN NULL;
  ELSE
    IF OLD.status = 'success' THEN
      PERFORM analytics_add(OLD."organizationId", OLD."policyId", coalesce(OLD."paidAt", OLD."updatedAt")::date, succeeded => -1);
    ELSIF OLD.status = 'failed' THEN
      PERFORM analytics_add(OLD."organizationId", OLD."policyId", OLD."updatedAt"::date, failed => -1);
    END IF;
  END IF;
  IF NEW.status = 'success' THEN
    PERFORM analytics_add(NEW."organizationId", NEW."policyId", coalesce(NEW."paidAt", NEW."updatedAt")::date, succeeded => 1);
  ELSIF NEW.status = 'failed' THEN
    PERFORM analytics_add(NEW."organizationId", NEW."policyId", NEW."updatedAt"::date, failed => 1);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER payment_analytics AFTER INSERT OR UPDATE OF status ON payment
  FOR EACH ROW EXECUTE FUNCTION analytics_on_payment();

CREATE FUNCTION analytics_on_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM analytics_add(NEW."organizationId", NEW."policyId", NEW."createdAt"::date,
    gross => CASE WHEN NEW.type = 'payment' THEN NEW."amountMinor" ELSE 0 END,
    fees => CASE WHEN NEW.type = 'fee' THEN -NEW."amountMinor" ELSE 0 END,
    withdrawn => CASE WHEN NEW.type = 'withdrawal' THEN -NEW."amountMinor" ELSE 0 END,
    reversed => CASE WHEN NEW.type = 'withdrawal_reversal' THEN NEW."amountMinor" ELSE 0 END);
  RETURN NULL;
END $$;
CREATE TRIGGER ledger_analytics AFTER INSERT ON ledger_transaction
  FOR EACH ROW EXECUTE FUNCTION analytics_on_ledger();

CREATE FUNCTION analytics_on_coverage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM analytics_add(NEW."organizationId", NEW."policyId", NEW."createdAt"::date, bought => 1, renewed => NEW."renewalCount");
  ELSIF NEW."renewalCount" <> OLD."renewalCount" THEN
    PERFORM analytics_add(NEW."organizationId", NEW."policyId", NEW."updatedAt"::date, renewed => NEW."renewalCount" - OLD."renewalCount");
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER coverage_analytics AFTER INSERT OR UPDATE OF "renewalCount" ON coverage
  FOR EACH ROW EXECUTE FUNCTION analytics_on_coverage();

CREATE FUNCTION analytics_on_claim() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM analytics_add(NEW."organizationId", NEW."policyId", NEW."createdAt"::date, filed => 1, claimed => NEW."amountMinor");
  RETURN NULL;
END $$;
CREATE TRIGGER claim_analytics AFTER INSERT ON claim
  FOR EACH ROW EXECUTE FUNCTION analytics_on_claim();
