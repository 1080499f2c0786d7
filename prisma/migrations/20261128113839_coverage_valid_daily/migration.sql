-- CreateTable
CREATE TABLE "coverage_valid_daily" (
    "organizationId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "coverages" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "coverage_valid_daily_pkey" PRIMARY KEY ("organizationId","day")
);

-- AddForeignKey
ALTER TABLE "coverage_valid_daily" ADD CONSTRAINT "coverage_valid_daily_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A coverage is valid cover until the later of its end and its grace's end,
-- unless cancelled (src/server/coverages/status.ts, validAt). Each coverage
-- counts once, on the UTC day that moment falls on; counting the valid cover
-- at a moment then reads the days after it and that day's rows alone, however
-- many coverages there are. Kept at each coverage's commit, deferred as the
-- other rollups are (the day rows are locked only for the add and the commit),
-- in the same transaction as the change: a moved end moves its count from the
-- old day to the new one. A delete only takes its count away (an update that
-- finds nothing when the organization itself is being deleted: its rows go
-- with it).
CREATE FUNCTION coverage_valid_until(cancelled timestamp, ends timestamp, grace timestamp) RETURNS date
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN cancelled IS NULL THEN greatest(ends, coalesce(grace, ends))::date END
$$;

CREATE FUNCTION coverage_valid_daily_on_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was date;
  now_day date;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    was := coverage_valid_until(OLD."cancelledAt", OLD."endsAt", OLD."graceEndsAt");
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    now_day := coverage_valid_until(NEW."cancelledAt", NEW."endsAt", NEW."graceEndsAt");
  END IF;
  IF was IS NOT DISTINCT FROM now_day THEN
    RETURN NULL;
  END IF;
  IF was IS NOT NULL THEN
    UPDATE coverage_valid_daily SET coverages = coverages - 1
    WHERE "organizationId" = OLD."organizationId" AND day = was;
  END IF;
  IF now_day IS NOT NULL THEN
    INSERT INTO coverage_valid_daily ("organizationId", day, coverages)
    VALUES (NEW."organizationId", now_day, 1)
    ON CONFLICT ("organizationId", day) DO UPDATE SET coverages = coverage_valid_daily.coverages + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER coverage_valid_daily AFTER INSERT OR UPDATE OR DELETE ON coverage
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION coverage_valid_daily_on_change();

-- What is already there.
INSERT INTO coverage_valid_daily ("organizationId", day, coverages)
SELECT "organizationId", coverage_valid_until("cancelledAt", "endsAt", "graceEndsAt"), count(*)::int
FROM coverage
WHERE "cancelledAt" IS NULL
GROUP BY 1, 2;
