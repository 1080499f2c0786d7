-- CreateTable
CREATE TABLE "ledger_daily" (
    "organizationId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "type" "LedgerType" NOT NULL,
    "amountMinor" BIGINT NOT NULL DEFAULT 0,
    "entries" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ledger_daily_pkey" PRIMARY KEY ("organizationId","day","type")
);

-- AddForeignKey
ALTER TABLE "ledger_daily" ADD CONSTRAINT "ledger_daily_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Kept at each ledger row's commit, as the analytics rollups are (deferred: the
-- organization's day row is locked only for the add and the commit, not for the
-- rest of the writing transaction), in the same transaction as the row: the
-- rollup commits with the entries it counts, or not at all. The ledger is
-- append-only, so an insert is all there is to count.
CREATE FUNCTION ledger_daily_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_daily ("organizationId", day, type, "amountMinor", entries)
  VALUES (NEW."organizationId", NEW."createdAt"::date, NEW.type, NEW."amountMinor", 1)
  ON CONFLICT ("organizationId", day, type) DO UPDATE
    SET "amountMinor" = ledger_daily."amountMinor" + EXCLUDED."amountMinor", entries = ledger_daily.entries + 1;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER ledger_daily AFTER INSERT ON ledger_transaction
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_daily_on_insert();

-- What is already there.
INSERT INTO ledger_daily ("organizationId", day, type, "amountMinor", entries)
SELECT "organizationId", "createdAt"::date, type, sum("amountMinor"), count(*)::int
FROM ledger_transaction GROUP BY 1, 2, 3;
