-- The job runner's wake-up (src/server/jobs/notify.ts): an insert into an
-- outbox table notifies channel coverdesk_jobs, delivered when the inserting
-- transaction commits, so every instance's runner starts on the new rows at
-- once instead of at its next poll. A statement trigger: one notification per
-- statement (PostgreSQL folds equal ones of one transaction into one), and no
-- writer — service, script or raw SQL — can forget it. Written by hand:
-- Prisma's schema does not describe triggers, and its diff leaves them alone.

CREATE OR REPLACE FUNCTION "coverdesk_jobs_notify"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('coverdesk_jobs', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "event_jobs_notify" AFTER INSERT ON "event"
  FOR EACH STATEMENT EXECUTE FUNCTION "coverdesk_jobs_notify"();

CREATE TRIGGER "mail_task_jobs_notify" AFTER INSERT ON "mail_task"
  FOR EACH STATEMENT EXECUTE FUNCTION "coverdesk_jobs_notify"();

CREATE TRIGGER "withdrawal_jobs_notify" AFTER INSERT ON "withdrawal"
  FOR EACH STATEMENT EXECUTE FUNCTION "coverdesk_jobs_notify"();
