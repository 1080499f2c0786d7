-- CreateTable
CREATE TABLE "api_usage_hourly" (
    "organizationId" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "requests" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,
    "serverErrors" INTEGER NOT NULL,
    "latencyMsSum" DOUBLE PRECISION NOT NULL,
    "latencyBuckets" INTEGER[],

    CONSTRAINT "api_usage_hourly_pkey" PRIMARY KEY ("organizationId","hour","apiKeyId","method","route")
);

-- AddForeignKey
ALTER TABLE "api_usage_hourly" ADD CONSTRAINT "api_usage_hourly_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The hours of the minutes already metered.
INSERT INTO "api_usage_hourly" ("organizationId", "apiKeyId", hour, method, route, requests, errors, "serverErrors", "latencyMsSum", "latencyBuckets")
WITH per_bucket AS (
  SELECT "organizationId" AS o, "apiKeyId" AS k, date_trunc('hour', minute) AS h, method, route, t.i, sum(t.n)::int AS n
  FROM api_usage, unnest("latencyBuckets") WITH ORDINALITY AS t(n, i)
  GROUP BY 1, 2, 3, 4, 5, 6
), histograms AS (
  SELECT o, k, h, method, route, array_agg(n ORDER BY i) AS buckets FROM per_bucket GROUP BY 1, 2, 3, 4, 5
), totals AS (
  SELECT "organizationId" AS o, "apiKeyId" AS k, date_trunc('hour', minute) AS h, method, route,
    sum(requests)::int AS requests, sum(errors)::int AS errors, sum("serverErrors")::int AS "serverErrors", sum("latencyMsSum") AS "latencyMsSum"
  FROM api_usage GROUP BY 1, 2, 3, 4, 5
)
SELECT t.o, t.k, t.h, t.method, t.route, t.requests, t.errors, t."serverErrors", t."latencyMsSum", h.buckets
FROM totals t JOIN histograms h USING (o, k, h, method, route);
