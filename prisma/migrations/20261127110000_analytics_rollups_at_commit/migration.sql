-- The analytics rollups are added to when the writing transaction commits, not
-- at each write. Every payment, ledger row, renewal and claim of an
-- organization adds to the same daily_stats row (the organization's day): a
-- row trigger firing at the write held that row's lock from the write until
-- the commit, so every other settlement of the organization waited for the
-- whole rest of the transaction (the renewal job's settlements ran one at a
-- time: 45 covers/s). Deferred to the commit, the same functions add the same
-- amounts in the same transaction — the rollups still commit with the rows
-- they count, or not at all — and the lock is held only for the adds and the
-- commit itself. The trigger names stay (bench/seed.ts disables them by name).

DROP TRIGGER payment_analytics ON payment;
CREATE CONSTRAINT TRIGGER payment_analytics AFTER INSERT OR UPDATE OF status ON payment
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION analytics_on_payment();

DROP TRIGGER ledger_analytics ON ledger_transaction;
CREATE CONSTRAINT TRIGGER ledger_analytics AFTER INSERT ON ledger_transaction
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION analytics_on_ledger();

DROP TRIGGER coverage_analytics ON coverage;
CREATE CONSTRAINT TRIGGER coverage_analytics AFTER INSERT OR UPDATE OF "renewalCount" ON coverage
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION analytics_on_coverage();

DROP TRIGGER claim_analytics ON claim;
CREATE CONSTRAINT TRIGGER claim_analytics AFTER INSERT ON claim
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION analytics_on_claim();
