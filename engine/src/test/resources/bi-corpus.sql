-- Statements in the shapes BI tools and SQL consoles send, written from the SQL each tool is
-- documented to generate (Metabase's MBQL compiler, Tableau's generic ODBC/JDBC dialect, Superset's
-- SQLAlchemy-built charts, Looker's LookML SQL, Power BI DirectQuery, Mode/Redash hand-written SQL,
-- DBeaver/sqlline consoles), over TRIPS (private: STATE, PAYMENT, AGE, HOUR, FARE, DISTANCE_KM,
-- ZONE declared keys: private, unit RIDER_ID), RIDERS (private: PLAN, SIGNUP_YEAR, one row per rider; both unit: rider) and
-- COUNTIES (public).
-- Each entry: a header "-- <tool> | <shape> | answered" (or "| refused XDPnn" / "| refused 42")
-- and one statement ending with ";".

-- Metabase | count by category, fully qualified names | answered
SELECT "PUBLIC"."TRIPS"."STATE" AS "STATE", count(*) AS "count" FROM "PUBLIC"."TRIPS" GROUP BY "PUBLIC"."TRIPS"."STATE" ORDER BY "PUBLIC"."TRIPS"."STATE" ASC;
-- Metabase | average with limit 2000 | answered
SELECT "PUBLIC"."TRIPS"."PAYMENT" AS "PAYMENT", avg("PUBLIC"."TRIPS"."FARE") AS "avg" FROM "PUBLIC"."TRIPS" GROUP BY "PUBLIC"."TRIPS"."PAYMENT" ORDER BY "PUBLIC"."TRIPS"."PAYMENT" ASC LIMIT 2000;
-- Metabase | sum and count, two breakouts | answered
SELECT "PUBLIC"."TRIPS"."STATE" AS "STATE", "PUBLIC"."TRIPS"."PAYMENT" AS "PAYMENT", sum("PUBLIC"."TRIPS"."FARE") AS "sum", count(*) AS "count" FROM "PUBLIC"."TRIPS" GROUP BY "PUBLIC"."TRIPS"."STATE", "PUBLIC"."TRIPS"."PAYMENT" ORDER BY "PUBLIC"."TRIPS"."STATE" ASC, "PUBLIC"."TRIPS"."PAYMENT" ASC;
-- Metabase | filter then count | answered
SELECT count(*) AS "count" FROM "PUBLIC"."TRIPS" WHERE ("PUBLIC"."TRIPS"."AGE" >= 30 AND "PUBLIC"."TRIPS"."AGE" < 40);
-- Metabase | nested question (source query) | answered
SELECT "source"."STATE" AS "STATE", count(*) AS "count" FROM (SELECT "PUBLIC"."TRIPS"."STATE" AS "STATE", "PUBLIC"."TRIPS"."FARE" AS "FARE" FROM "PUBLIC"."TRIPS" WHERE "PUBLIC"."TRIPS"."PAYMENT" = 'CARD') AS "source" GROUP BY "source"."STATE" ORDER BY "source"."STATE" ASC;
-- Metabase | native query as source with custom column | answered
SELECT "source"."band" AS "band", count(*) AS "count" FROM (SELECT "TRIPS"."AGE" AS "AGE", CASE WHEN "TRIPS"."AGE" < 30 THEN 'under 30' ELSE '30+' END AS "band" FROM "TRIPS") AS "source" GROUP BY "source"."band" ORDER BY "source"."band" ASC;
-- Metabase | binned numeric breakout | answered
SELECT FLOOR(("PUBLIC"."TRIPS"."AGE" / 10)) * 10 AS "AGE", count(*) AS "count" FROM "PUBLIC"."TRIPS" GROUP BY FLOOR(("PUBLIC"."TRIPS"."AGE" / 10)) * 10 ORDER BY FLOOR(("PUBLIC"."TRIPS"."AGE" / 10)) * 10 ASC;
-- Metabase | table preview (raw rows) | refused XDP02
SELECT "PUBLIC"."TRIPS"."STATE" AS "STATE", "PUBLIC"."TRIPS"."FARE" AS "FARE" FROM "PUBLIC"."TRIPS" LIMIT 2000;
-- Metabase | field fingerprint sample (raw rows) | refused XDP02
SELECT "PUBLIC"."TRIPS"."PAYMENT" AS "PAYMENT" FROM "PUBLIC"."TRIPS" LIMIT 10000;
-- Metabase | distinct values for a filter widget (declared domain, free) | answered
SELECT DISTINCT "PUBLIC"."TRIPS"."STATE" AS "STATE" FROM "PUBLIC"."TRIPS" ORDER BY "PUBLIC"."TRIPS"."STATE" ASC LIMIT 1000;
-- Metabase | filter-widget values of a declared domain (the issue's statement) | answered
SELECT DISTINCT PAYMENT FROM TRIPS ORDER BY PAYMENT LIMIT 1000;
-- Superset | filter values of a declared domain, GROUP BY without aggregates | answered
SELECT payment AS payment FROM trips GROUP BY payment ORDER BY payment LIMIT 10000;
-- Metabase | filter-widget values of a column without a declared domain | refused XDP02
SELECT DISTINCT "PUBLIC"."TRIPS"."FARE" AS "FARE" FROM "PUBLIC"."TRIPS" ORDER BY "PUBLIC"."TRIPS"."FARE" ASC LIMIT 1000;
-- Superset | conditional average metric | answered
SELECT state AS state, AVG(fare) FILTER (WHERE payment = 'APP') AS "avg_app_fare" FROM trips GROUP BY state ORDER BY "avg_app_fare" DESC LIMIT 100;
-- Metabase | cumulative count | answered
SELECT "STATE", sum(count(*)) OVER (ORDER BY "STATE" ROWS UNBOUNDED PRECEDING) AS "count" FROM "PUBLIC"."TRIPS" GROUP BY "STATE" ORDER BY "STATE";
-- Metabase | public table browse | answered
SELECT "PUBLIC"."COUNTIES"."COUNTY" AS "COUNTY", "PUBLIC"."COUNTIES"."POPULATION" AS "POPULATION" FROM "PUBLIC"."COUNTIES" LIMIT 2000;
-- Tableau | connection probe | answered
SELECT * FROM "TRIPS" WHERE (1 = 0);
-- Tableau | number of records | answered
SELECT "TRIPS"."STATE" AS "STATE", SUM(1) AS "sum:Number of Records:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1;
-- Tableau | measure sum, two dimensions | answered
SELECT "TRIPS"."STATE" AS "STATE", "TRIPS"."PAYMENT" AS "PAYMENT", SUM("TRIPS"."FARE") AS "sum:FARE:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1, 2;
-- Tableau | average | answered
SELECT "TRIPS"."PAYMENT" AS "PAYMENT", AVG("TRIPS"."DISTANCE_KM") AS "avg:DISTANCE_KM:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1;
-- Tableau | count distinct of the person | answered
SELECT "TRIPS"."STATE" AS "STATE", COUNT(DISTINCT "TRIPS"."RIDER_ID") AS "ctd:RIDER_ID:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1;
-- Tableau | count distinct of a dimension | answered
SELECT COUNT(DISTINCT "TRIPS"."PAYMENT") AS "ctd:PAYMENT:ok" FROM "PUBLIC"."TRIPS" "TRIPS";
-- Tableau | custom SQL query as source | answered
SELECT "Custom SQL Query"."STATE" AS "STATE", SUM("Custom SQL Query"."FARE") AS "sum:FARE:ok" FROM (SELECT STATE, FARE FROM TRIPS WHERE PAYMENT <> 'CASH') "Custom SQL Query" GROUP BY 1;
-- Tableau | calculated field (IIF as CASE) in a sum | answered
SELECT "TRIPS"."STATE" AS "STATE", SUM((CASE WHEN ("TRIPS"."PAYMENT" = 'CASH') THEN "TRIPS"."FARE" ELSE 0 END)) AS "sum:Calculation_cash:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1;
-- Tableau | calculated dimension (age group) | answered
SELECT (CASE WHEN ("TRIPS"."AGE" < 25) THEN 'young' WHEN ("TRIPS"."AGE" < 60) THEN 'adult' ELSE 'senior' END) AS "Calculation_age", SUM(1) AS "sum:Number of Records:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1;
-- Tableau | filter on a set of values | answered
SELECT "TRIPS"."PAYMENT" AS "PAYMENT", SUM(1) AS "sum:Number of Records:ok" FROM "PUBLIC"."TRIPS" "TRIPS" WHERE ("TRIPS"."STATE" IN ('CA', 'NY')) GROUP BY 1;
-- Tableau | top N filter as inner join of two aggregates | answered
SELECT "t0"."STATE" AS "STATE", "t0"."n" AS "n" FROM (SELECT "TRIPS"."STATE" AS "STATE", SUM(1) AS "n" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1) "t0" INNER JOIN (SELECT "TRIPS"."STATE" AS "STATE", SUM("TRIPS"."FARE") AS "$__alias__0" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1 ORDER BY 2 DESC LIMIT 2) "t1" ON ("t0"."STATE" = "t1"."STATE");
-- Tableau | table calculation percent of total (done in SQL) | answered
SELECT "TRIPS"."STATE" AS "STATE", SUM(1) * 1.0 / SUM(SUM(1)) OVER () AS "pcto:Number of Records:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1;
-- Tableau | min and max of a measure (the 0- and 1-quantiles) | answered
SELECT MIN("TRIPS"."FARE") AS "min:FARE:ok", MAX("TRIPS"."FARE") AS "max:FARE:ok" FROM "PUBLIC"."TRIPS" "TRIPS";
-- Tableau | median per dimension | answered
SELECT "TRIPS"."STATE" AS "STATE", PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY "TRIPS"."FARE") AS "med:FARE:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1;
-- Superset | bar chart | answered
SELECT "STATE" AS "STATE", COUNT(*) AS "count" FROM "PUBLIC"."TRIPS" GROUP BY "STATE" ORDER BY "count" DESC LIMIT 10000;
-- Superset | big number | answered
SELECT COUNT(*) AS "count" FROM "PUBLIC"."TRIPS" LIMIT 50000;
-- Superset | pie with metric alias | answered
SELECT "PAYMENT" AS "PAYMENT", SUM("FARE") AS "SUM(FARE)" FROM "PUBLIC"."TRIPS" GROUP BY "PAYMENT" ORDER BY "SUM(FARE)" DESC LIMIT 100;
-- Superset | virtual dataset | answered
SELECT "STATE" AS "STATE", AVG("FARE") AS "AVG(FARE)" FROM (SELECT STATE, FARE, AGE FROM TRIPS WHERE AGE BETWEEN 18 AND 65) AS virtual_table GROUP BY "STATE" ORDER BY "AVG(FARE)" DESC LIMIT 10000;
-- Superset | adhoc SQL metric | answered
SELECT "STATE" AS "STATE", SUM(FARE) / COUNT(*) AS "fare_per_trip" FROM "PUBLIC"."TRIPS" GROUP BY "STATE" LIMIT 10000;
-- Superset | adhoc SQL filter with functions | answered
SELECT "PAYMENT" AS "PAYMENT", COUNT(*) AS "count" FROM "PUBLIC"."TRIPS" WHERE (UPPER("STATE") = 'NY') GROUP BY "PAYMENT" LIMIT 10000;
-- Superset | having on metric | answered
SELECT "STATE" AS "STATE", COUNT(*) AS "count" FROM "PUBLIC"."TRIPS" GROUP BY "STATE" HAVING COUNT(*) > 10 ORDER BY "count" DESC LIMIT 10000;
-- Superset | series limit via join with top groups | answered
SELECT "PAYMENT" AS "PAYMENT", "STATE" AS "STATE", COUNT(*) AS "count" FROM "PUBLIC"."TRIPS" JOIN (SELECT "STATE" AS "STATE__", COUNT(*) AS "mme_inner__" FROM "PUBLIC"."TRIPS" GROUP BY "STATE" ORDER BY "mme_inner__" DESC LIMIT 2) AS "series_limit" ON "STATE" = "STATE__" GROUP BY "PAYMENT", "STATE" LIMIT 10000;
-- Superset | samples pane (raw rows) | refused XDP02
SELECT * FROM "PUBLIC"."TRIPS" LIMIT 100;
-- Superset | dataset column probe | answered
SELECT * FROM (SELECT STATE, FARE FROM TRIPS) AS virtual_table LIMIT 0;
-- Looker | explore with FETCH | answered
SELECT trips.state AS "trips.state", COUNT(*) AS "trips.count" FROM public.trips AS trips GROUP BY 1 ORDER BY 2 DESC FETCH NEXT 500 ROWS ONLY;
-- Looker | measure with COALESCE | answered
SELECT trips.payment AS "trips.payment", COALESCE(SUM(trips.fare), 0) AS "trips.total_fare" FROM public.trips AS trips GROUP BY 1 ORDER BY 2 DESC FETCH NEXT 500 ROWS ONLY;
-- Looker | average derived in SQL | answered
SELECT trips.state AS "trips.state", AVG(trips.distance_km) AS "trips.average_distance" FROM public.trips AS trips GROUP BY 1 ORDER BY 1 FETCH NEXT 500 ROWS ONLY;
-- Looker | count distinct persons | answered
SELECT trips.payment AS "trips.payment", COUNT(DISTINCT trips.rider_id) AS "trips.riders" FROM public.trips AS trips GROUP BY 1 FETCH NEXT 500 ROWS ONLY;
-- Looker | tier dimension | answered
SELECT CASE WHEN trips.age < 20 THEN '0' WHEN trips.age >= 20 AND trips.age < 40 THEN '1' WHEN trips.age >= 40 AND trips.age < 60 THEN '2' ELSE '3' END AS "trips.age_tier__sort_", COUNT(*) AS "trips.count" FROM public.trips AS trips GROUP BY 1 ORDER BY 1 FETCH NEXT 500 ROWS ONLY;
-- Looker | derived table in a CTE | answered
WITH rider_facts AS (SELECT state, fare FROM trips WHERE hour BETWEEN 7 AND 9) SELECT rider_facts.state AS "rider_facts.state", SUM(rider_facts.fare) AS "rider_facts.total" FROM rider_facts GROUP BY 1 ORDER BY 2 DESC FETCH NEXT 500 ROWS ONLY;
-- Looker | per-row derived table with fanout (aggregate over an aggregate per person) | refused XDP02
WITH per_rider AS (SELECT rider_id, COUNT(*) AS n FROM trips GROUP BY rider_id) SELECT AVG(n) FROM per_rider;
-- Power BI | DirectQuery aggregate over a source subquery | answered
select "STATE", count(1) as "a0" from (select "STATE", "PAYMENT", "FARE" from "PUBLIC"."TRIPS") as "$Table" group by "STATE";
-- Power BI | DirectQuery sum with filter on a derived source | answered
select "PAYMENT", sum("FARE") as "a0" from (select "PAYMENT", "FARE", "AGE" from "PUBLIC"."TRIPS") as "$Table" where "AGE" >= 40 group by "PAYMENT";
-- Power BI | TOP N over an aggregate | answered
select top_n."STATE", top_n."a0" from (select "STATE", count(*) as "a0" from "PUBLIC"."TRIPS" group by "STATE") as top_n order by top_n."a0" desc limit 3;
-- Mode / Redash | share of trips by payment, CTE and window | answered
WITH by_payment AS (SELECT payment, COUNT(*) AS trips FROM trips GROUP BY payment) SELECT payment, trips, 100.0 * trips / SUM(trips) OVER () AS pct FROM by_payment ORDER BY trips DESC;
-- Mode / Redash | rank states by revenue | answered
SELECT state, SUM(fare) AS revenue, RANK() OVER (ORDER BY SUM(fare) DESC) AS rnk FROM trips GROUP BY state;
-- Mode / Redash | per-capita with a public table | answered
SELECT t.county, t.trips * 1000.0 / c.population AS trips_per_1000 FROM (SELECT county, COUNT(*) AS trips FROM trips GROUP BY county) t JOIN counties c ON c.county = t.county ORDER BY 2 DESC;
-- Mode / Redash | comparison of two segments in one row | answered
SELECT a.n AS cash_trips, b.n AS card_trips, a.n - b.n AS diff FROM (SELECT COUNT(*) AS n FROM trips WHERE payment = 'CASH') a CROSS JOIN (SELECT COUNT(*) AS n FROM trips WHERE payment = 'CARD') b;
-- Mode / Redash | union of segments | answered
SELECT 'morning' AS slot, COUNT(*) AS trips FROM trips WHERE hour BETWEEN 6 AND 11 UNION ALL SELECT 'evening', COUNT(*) FROM trips WHERE hour BETWEEN 17 AND 22;
-- Mode / Redash | hourly profile | answered
SELECT hour, COUNT(*) AS trips, AVG(fare) AS avg_fare FROM trips GROUP BY hour ORDER BY hour;
-- Mode / Redash | revenue with tip estimate | answered
SELECT state, SUM(fare * 1.15 + 1) AS est_revenue FROM trips GROUP BY state ORDER BY 2 DESC;
-- Mode / Redash | average of a sum of two measures | answered
SELECT payment, AVG(fare + distance_km) AS score FROM trips GROUP BY payment;
-- Mode / Redash | ratio of conditional sums | answered
SELECT state, SUM(CASE WHEN payment = 'CASH' THEN 1 ELSE 0 END) * 1.0 / COUNT(*) AS cash_share FROM trips GROUP BY state;
-- Mode / Redash | lowercase names and keywords as aliases | answered
select state as "value", count(*) as "count", sum(fare) as "sum" from trips group by state order by "count" desc;
-- Mode / Redash | back-ticked identifiers (MySQL habit) | answered
select `STATE`, count(*) as `count` from `TRIPS` group by `STATE`;
-- Mode / Redash | GROUP BY alias and ordinal | answered
select payment as p, count(*) as c from trips group by p order by 2 desc;
-- Mode / Redash | OFFSET paging | answered
SELECT county, COUNT(*) AS n FROM trips GROUP BY county ORDER BY county LIMIT 5 OFFSET 5;
-- Mode / Redash | division by a column inside a sum | refused XDP03
SELECT SUM(fare / distance_km) FROM trips;
-- Mode / Redash | group by a measure (unbounded keys) | refused XDP02
SELECT fare, COUNT(*) FROM trips GROUP BY fare;
-- Mode / Redash | group by the person | refused XDP02
SELECT rider_id, COUNT(*) FROM trips GROUP BY rider_id;
-- Mode / Redash | filter on a subquery over the private table (semi-join with a release) | answered
SELECT COUNT(*) FROM trips WHERE state IN (SELECT state FROM trips GROUP BY state HAVING COUNT(*) > 5);
-- DBeaver / sqlline | plain count | answered
SELECT COUNT(*) FROM TRIPS;
-- DBeaver / sqlline | read everything | refused XDP02
SELECT * FROM TRIPS;
-- DBeaver / sqlline | two filters | answered
SELECT COUNT(*) AS n FROM TRIPS WHERE STATE = 'NY' AND PAYMENT = 'CASH';
-- DBeaver / sqlline | explain | answered
EXPLAIN PLAN FOR SELECT state, COUNT(*) FROM trips GROUP BY state HAVING COUNT(*) > 10;
-- DBeaver / sqlline | write attempt | refused XDP02
DELETE FROM TRIPS;
-- DBeaver / sqlline | roll-up | answered
SELECT state, payment, COUNT(*) FROM trips GROUP BY ROLLUP(state, payment);
-- Mode / Redash | keywords as unquoted aliases | answered
SELECT state AS year, COUNT(*) AS month, SUM(fare) AS value, AVG(fare) AS date FROM trips GROUP BY state;
-- Mode / Redash | keywords as unquoted column and table aliases | answered
SELECT t.hour, COUNT(*) AS count FROM trips AS t GROUP BY t.hour ORDER BY t.hour;
-- Metabase | time series by month (date_trunc) | answered
SELECT DATE_TRUNC('month', "PUBLIC"."TRIPS"."PICKUP_AT") AS "PICKUP_AT", count(*) AS "count" FROM "PUBLIC"."TRIPS" GROUP BY DATE_TRUNC('month', "PUBLIC"."TRIPS"."PICKUP_AT") ORDER BY DATE_TRUNC('month', "PUBLIC"."TRIPS"."PICKUP_AT") ASC;
-- Metabase | time series by day (cast to date) with a date range filter | answered
SELECT CAST("PUBLIC"."TRIPS"."PICKUP_AT" AS date) AS "PICKUP_AT", count(*) AS "count" FROM "PUBLIC"."TRIPS" WHERE ("PUBLIC"."TRIPS"."PICKUP_AT" >= timestamp '2024-03-01 00:00:00.000' AND "PUBLIC"."TRIPS"."PICKUP_AT" < timestamp '2024-04-01 00:00:00.000') GROUP BY CAST("PUBLIC"."TRIPS"."PICKUP_AT" AS date) ORDER BY CAST("PUBLIC"."TRIPS"."PICKUP_AT" AS date) ASC;
-- Metabase | relative date filter (previous 30 days) | answered
SELECT count(*) AS "count" FROM "PUBLIC"."TRIPS" WHERE "PUBLIC"."TRIPS"."PICKUP_AT" >= CURRENT_DATE + INTERVAL '-30' DAY;
-- Tableau | month of a date, truncated and cast | answered
SELECT CAST(DATE_TRUNC('MONTH', "TRIPS"."PICKUP_AT") AS DATE) AS "tmn:PICKUP_AT:ok", SUM(1) AS "sum:Number of Records:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1;
-- Tableau | year and quarter parts | answered
SELECT EXTRACT(YEAR FROM "TRIPS"."PICKUP_AT") AS "yr:PICKUP_AT:ok", CAST(EXTRACT(QUARTER FROM "TRIPS"."PICKUP_AT") AS INTEGER) AS "qr:PICKUP_AT:ok", SUM("TRIPS"."FARE") AS "sum:FARE:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1, 2;
-- Superset | daily time-series chart with time range | answered
SELECT DATE_TRUNC('day', "PICKUP_AT") AS "__timestamp", COUNT(*) AS "count" FROM "TRIPS" WHERE "PICKUP_AT" >= TIMESTAMP '2024-01-01 00:00:00.000000' AND "PICKUP_AT" < TIMESTAMP '2024-02-01 00:00:00.000000' GROUP BY DATE_TRUNC('day', "PICKUP_AT") ORDER BY "count" DESC LIMIT 10000;
-- Looker | month dimension formatted as text | answered
SELECT TO_CHAR(DATE_TRUNC('month', trips.PICKUP_AT), 'YYYY-MM') AS "trips.pickup_month", COUNT(*) AS "trips.count" FROM TRIPS AS trips GROUP BY 1 ORDER BY 1 DESC LIMIT 500;
-- Mode/Redash | weekly series by ordinal | answered
SELECT date_trunc('week', pickup_at) AS week, count(*) AS trips FROM trips GROUP BY 1 ORDER BY 1;
-- Mode/Redash | trips by weekday | answered
SELECT EXTRACT(ISODOW FROM pickup_at) AS weekday, count(*) AS trips FROM trips GROUP BY 1 ORDER BY 1;
-- Mode/Redash | hour of a day-binned timestamp | refused XDP03
SELECT EXTRACT(HOUR FROM pickup_at) AS hr, count(*) FROM trips GROUP BY 1;
-- consoles | month filter with YEAR() and MONTH() | answered
SELECT state, count(*) FROM trips WHERE YEAR(pickup_at) = 2024 AND MONTH(pickup_at) = 7 GROUP BY state;
-- Metabase | standard deviation of a measure | answered
SELECT "PUBLIC"."TRIPS"."STATE" AS "STATE", stddev_pop("PUBLIC"."TRIPS"."FARE") AS "stddev" FROM "PUBLIC"."TRIPS" GROUP BY "PUBLIC"."TRIPS"."STATE" ORDER BY "PUBLIC"."TRIPS"."STATE" ASC;
-- Tableau | sample variance and standard deviation | answered
SELECT "TRIPS"."PAYMENT" AS "PAYMENT", VAR_SAMP("TRIPS"."DISTANCE_KM") AS "var:DISTANCE_KM:ok", STDDEV_SAMP("TRIPS"."FARE") AS "std:FARE:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1;
-- Metabase | join to a second private table (left join), breakout on its column | answered
SELECT "Riders"."PLAN" AS "Riders__PLAN", count(*) AS "count" FROM "PUBLIC"."TRIPS" LEFT JOIN "PUBLIC"."RIDERS" AS "Riders" ON "PUBLIC"."TRIPS"."RIDER_ID" = "Riders"."RIDER_ID" GROUP BY "Riders"."PLAN" ORDER BY "Riders"."PLAN" ASC;
-- Tableau | inner join of two private tables, measure and two dimensions | answered
SELECT "RIDERS"."PLAN" AS "PLAN", "TRIPS"."STATE" AS "STATE", SUM("TRIPS"."FARE") AS "sum:FARE:ok" FROM "PUBLIC"."TRIPS" "TRIPS" INNER JOIN "PUBLIC"."RIDERS" "RIDERS" ON ("TRIPS"."RIDER_ID" = "RIDERS"."RIDER_ID") GROUP BY 1, 2;
-- Looker | left_outer join, count distinct of the unit | answered
SELECT riders.PLAN AS "riders.plan", COUNT(DISTINCT trips.RIDER_ID) AS "trips.rider_count" FROM PUBLIC.TRIPS AS trips LEFT JOIN PUBLIC.RIDERS AS riders ON trips.RIDER_ID = riders.RIDER_ID GROUP BY 1 ORDER BY 2 DESC FETCH NEXT 500 ROWS ONLY;
-- Power BI | left outer join with a filter on the joined table | answered
SELECT "t1"."SIGNUP_YEAR", SUM("t0"."FARE") AS "a0" FROM "PUBLIC"."TRIPS" AS "t0" LEFT OUTER JOIN "PUBLIC"."RIDERS" AS "t1" ON ("t0"."RIDER_ID" = "t1"."RIDER_ID") WHERE ("t1"."PLAN" IN ('plus', 'pass')) GROUP BY "t1"."SIGNUP_YEAR";
-- Superset | virtual dataset joining two private tables | answered
SELECT plan AS plan, COUNT(*) AS count FROM (SELECT t.STATE AS state, r.PLAN AS plan FROM TRIPS t JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID) AS virtual_table GROUP BY plan ORDER BY count DESC LIMIT 10000;
-- SQL console | self-join on the unit (pairs of one rider's trips) | refused XDP03
SELECT a.STATE, COUNT(*) FROM TRIPS a JOIN TRIPS b ON a.RIDER_ID = b.RIDER_ID GROUP BY a.STATE;
-- SQL console | filter by the units of a table with one row per unit (IN subquery, the join on the unit) | answered
SELECT COUNT(*) FROM TRIPS WHERE RIDER_ID IN (SELECT RIDER_ID FROM RIDERS WHERE PLAN = 'plus');
-- SQL console | filter by the units of a table with many rows per unit (IN subquery) | refused XDP03
SELECT COUNT(*) FROM RIDERS WHERE RIDER_ID IN (SELECT RIDER_ID FROM TRIPS WHERE STATE = 'NY');
-- Mode | left join with a condition on the joined table in ON | refused XDP03
SELECT r.PLAN, COUNT(*) FROM TRIPS t LEFT JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID AND r.SIGNUP_YEAR > 2020 GROUP BY r.PLAN;
-- Metabase | top 10 of a breakout without a declared domain (keys: private) | answered
SELECT "PUBLIC"."TRIPS"."ZONE" AS "ZONE", count(*) AS "count" FROM "PUBLIC"."TRIPS" GROUP BY "PUBLIC"."TRIPS"."ZONE" ORDER BY "count" DESC, "PUBLIC"."TRIPS"."ZONE" ASC LIMIT 10;
-- Metabase | distinct values for a filter widget, keys: private | answered
SELECT DISTINCT "PUBLIC"."TRIPS"."ZONE" AS "ZONE" FROM "PUBLIC"."TRIPS" ORDER BY "PUBLIC"."TRIPS"."ZONE" ASC LIMIT 1000;
-- Tableau | measure by a keys: private dimension, ordinal GROUP BY | answered
SELECT "TRIPS"."ZONE" AS "ZONE", SUM("TRIPS"."FARE") AS "sum:FARE:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1;
-- Superset | declared and keys: private dimensions, top rows | answered
SELECT state AS state, zone AS zone, COUNT(*) AS count FROM trips GROUP BY state, zone ORDER BY count DESC LIMIT 100;
-- Looker | riders per zone, count distinct of the unit | answered
SELECT trips.ZONE AS "trips.zone", COUNT(DISTINCT trips.RIDER_ID) AS "trips.count_riders" FROM TRIPS AS trips GROUP BY 1 ORDER BY 2 DESC FETCH NEXT 500 ROWS ONLY;
-- DBeaver | roll-up over a keys: private column | refused XDP03
SELECT STATE, ZONE, COUNT(*) FROM TRIPS GROUP BY ROLLUP(STATE, ZONE);

-- Parameterized twins: the statements above that have literals, as applications and BI tools
-- with bind variables send them (a prepared statement, values bound at execute). A line
-- "-- bind: v1; v2" gives the values: integers, decimals, 'text', DATE '...', TIMESTAMP '...'.
-- Metabase | average with limit 2000, values bound | answered
-- bind: 2000
SELECT "PUBLIC"."TRIPS"."PAYMENT" AS "PAYMENT", avg("PUBLIC"."TRIPS"."FARE") AS "avg" FROM "PUBLIC"."TRIPS" GROUP BY "PUBLIC"."TRIPS"."PAYMENT" ORDER BY "PUBLIC"."TRIPS"."PAYMENT" ASC LIMIT ?;
-- Metabase | filter then count, values bound | answered
-- bind: 30; 40
SELECT count(*) AS "count" FROM "PUBLIC"."TRIPS" WHERE ("PUBLIC"."TRIPS"."AGE" >= ? AND "PUBLIC"."TRIPS"."AGE" < ?);
-- Metabase | nested question (source query), values bound | answered
-- bind: 'CARD'
SELECT "source"."STATE" AS "STATE", count(*) AS "count" FROM (SELECT "PUBLIC"."TRIPS"."STATE" AS "STATE", "PUBLIC"."TRIPS"."FARE" AS "FARE" FROM "PUBLIC"."TRIPS" WHERE "PUBLIC"."TRIPS"."PAYMENT" = ?) AS "source" GROUP BY "source"."STATE" ORDER BY "source"."STATE" ASC;
-- Metabase | native query as source with custom column, values bound | answered
-- bind: 30
SELECT "source"."band" AS "band", count(*) AS "count" FROM (SELECT "TRIPS"."AGE" AS "AGE", CASE WHEN "TRIPS"."AGE" < ? THEN 'under 30' ELSE '30+' END AS "band" FROM "TRIPS") AS "source" GROUP BY "source"."band" ORDER BY "source"."band" ASC;
-- Tableau | custom SQL query as source, values bound | answered
-- bind: 'CASH'
SELECT "Custom SQL Query"."STATE" AS "STATE", SUM("Custom SQL Query"."FARE") AS "sum:FARE:ok" FROM (SELECT STATE, FARE FROM TRIPS WHERE PAYMENT <> ?) "Custom SQL Query" GROUP BY 1;
-- Tableau | calculated field (IIF as CASE) in a sum, values bound | answered
-- bind: 'CASH'
SELECT "TRIPS"."STATE" AS "STATE", SUM((CASE WHEN ("TRIPS"."PAYMENT" = ?) THEN "TRIPS"."FARE" ELSE 0 END)) AS "sum:Calculation_cash:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1;
-- Tableau | calculated dimension (age group), values bound | answered
-- bind: 25; 60
SELECT (CASE WHEN ("TRIPS"."AGE" < ?) THEN 'young' WHEN ("TRIPS"."AGE" < ?) THEN 'adult' ELSE 'senior' END) AS "Calculation_age", SUM(1) AS "sum:Number of Records:ok" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1;
-- Tableau | filter on a set of values, values bound | answered
-- bind: 'CA'; 'NY'
SELECT "TRIPS"."PAYMENT" AS "PAYMENT", SUM(1) AS "sum:Number of Records:ok" FROM "PUBLIC"."TRIPS" "TRIPS" WHERE ("TRIPS"."STATE" IN (?, ?)) GROUP BY 1;
-- Tableau | top N filter as inner join of two aggregates, values bound | answered
-- bind: 2
SELECT "t0"."STATE" AS "STATE", "t0"."n" AS "n" FROM (SELECT "TRIPS"."STATE" AS "STATE", SUM(1) AS "n" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1) "t0" INNER JOIN (SELECT "TRIPS"."STATE" AS "STATE", SUM("TRIPS"."FARE") AS "$__alias__0" FROM "PUBLIC"."TRIPS" "TRIPS" GROUP BY 1 ORDER BY 2 DESC LIMIT ?) "t1" ON ("t0"."STATE" = "t1"."STATE");
-- Superset | bar chart, values bound | answered
-- bind: 10000
SELECT "STATE" AS "STATE", COUNT(*) AS "count" FROM "PUBLIC"."TRIPS" GROUP BY "STATE" ORDER BY "count" DESC LIMIT ?;
-- Superset | virtual dataset, values bound | answered
-- bind: 18; 65; 10000
SELECT "STATE" AS "STATE", AVG("FARE") AS "AVG(FARE)" FROM (SELECT STATE, FARE, AGE FROM TRIPS WHERE AGE BETWEEN ? AND ?) AS virtual_table GROUP BY "STATE" ORDER BY "AVG(FARE)" DESC LIMIT ?;
-- Superset | adhoc SQL filter with functions, values bound | answered
-- bind: 'NY'
SELECT "PAYMENT" AS "PAYMENT", COUNT(*) AS "count" FROM "PUBLIC"."TRIPS" WHERE (UPPER("STATE") = ?) GROUP BY "PAYMENT" LIMIT 10000;
-- Superset | having on metric, values bound | answered
-- bind: 10; 10000
SELECT "STATE" AS "STATE", COUNT(*) AS "count" FROM "PUBLIC"."TRIPS" GROUP BY "STATE" HAVING COUNT(*) > ? ORDER BY "count" DESC LIMIT ?;
-- Superset | series limit via join with top groups, values bound | answered
-- bind: 2
SELECT "PAYMENT" AS "PAYMENT", "STATE" AS "STATE", COUNT(*) AS "count" FROM "PUBLIC"."TRIPS" JOIN (SELECT "STATE" AS "STATE__", COUNT(*) AS "mme_inner__" FROM "PUBLIC"."TRIPS" GROUP BY "STATE" ORDER BY "mme_inner__" DESC LIMIT ?) AS "series_limit" ON "STATE" = "STATE__" GROUP BY "PAYMENT", "STATE" LIMIT 10000;
-- Looker | tier dimension, values bound | answered
-- bind: 20; 500
SELECT CASE WHEN trips.age < ? THEN '0' WHEN trips.age >= 20 AND trips.age < 40 THEN '1' WHEN trips.age >= 40 AND trips.age < 60 THEN '2' ELSE '3' END AS "trips.age_tier__sort_", COUNT(*) AS "trips.count" FROM public.trips AS trips GROUP BY 1 ORDER BY 1 FETCH NEXT ? ROWS ONLY;
-- Looker | derived table in a CTE, values bound | answered
-- bind: 7; 9; 500
WITH rider_facts AS (SELECT state, fare FROM trips WHERE hour BETWEEN ? AND ?) SELECT rider_facts.state AS "rider_facts.state", SUM(rider_facts.fare) AS "rider_facts.total" FROM rider_facts GROUP BY 1 ORDER BY 2 DESC FETCH NEXT ? ROWS ONLY;
-- Power BI | DirectQuery sum with filter on a derived source, values bound | answered
-- bind: 40
select "PAYMENT", sum("FARE") as "a0" from (select "PAYMENT", "FARE", "AGE" from "PUBLIC"."TRIPS") as "$Table" where "AGE" >= ? group by "PAYMENT";
-- Power BI | TOP N over an aggregate, values bound | answered
-- bind: 3
select top_n."STATE", top_n."a0" from (select "STATE", count(*) as "a0" from "PUBLIC"."TRIPS" group by "STATE") as top_n order by top_n."a0" desc limit ?;
-- Mode / Redash | comparison of two segments in one row, values bound | answered
-- bind: 'CASH'; 'CARD'
SELECT a.n AS cash_trips, b.n AS card_trips, a.n - b.n AS diff FROM (SELECT COUNT(*) AS n FROM trips WHERE payment = ?) a CROSS JOIN (SELECT COUNT(*) AS n FROM trips WHERE payment = ?) b;
-- Mode / Redash | union of segments, values bound | answered
-- bind: 6; 11; 17; 22
SELECT 'morning' AS slot, COUNT(*) AS trips FROM trips WHERE hour BETWEEN ? AND ? UNION ALL SELECT 'evening', COUNT(*) FROM trips WHERE hour BETWEEN ? AND ?;
-- Mode / Redash | ratio of conditional sums, values bound | answered
-- bind: 'CASH'
SELECT state, SUM(CASE WHEN payment = ? THEN 1 ELSE 0 END) * 1.0 / COUNT(*) AS cash_share FROM trips GROUP BY state;
-- Mode / Redash | OFFSET paging, values bound | answered
-- bind: 5; 5
SELECT county, COUNT(*) AS n FROM trips GROUP BY county ORDER BY county LIMIT ? OFFSET ?;
-- Mode / Redash | filter on a subquery over the private table (semi-join with a release), values bound | answered
-- bind: 5
SELECT COUNT(*) FROM trips WHERE state IN (SELECT state FROM trips GROUP BY state HAVING COUNT(*) > ?);
-- DBeaver / sqlline | two filters, values bound | answered
-- bind: 'NY'; 'CASH'
SELECT COUNT(*) AS n FROM TRIPS WHERE STATE = ? AND PAYMENT = ?;
-- DBeaver / sqlline | explain, values bound | answered
-- bind: 10
EXPLAIN PLAN FOR SELECT state, COUNT(*) FROM trips GROUP BY state HAVING COUNT(*) > ?;
-- Metabase | time series by day (cast to date) with a date range filter, values bound | answered
-- bind: TIMESTAMP '2024-03-01 00:00:00'; TIMESTAMP '2024-04-01 00:00:00'
SELECT CAST("PUBLIC"."TRIPS"."PICKUP_AT" AS date) AS "PICKUP_AT", count(*) AS "count" FROM "PUBLIC"."TRIPS" WHERE ("PUBLIC"."TRIPS"."PICKUP_AT" >= ? AND "PUBLIC"."TRIPS"."PICKUP_AT" < ?) GROUP BY CAST("PUBLIC"."TRIPS"."PICKUP_AT" AS date) ORDER BY CAST("PUBLIC"."TRIPS"."PICKUP_AT" AS date) ASC;
-- Superset | daily time-series chart with time range, values bound | answered
-- bind: TIMESTAMP '2024-01-01 00:00:00'; TIMESTAMP '2024-02-01 00:00:00'; 10000
SELECT DATE_TRUNC('day', "PICKUP_AT") AS "__timestamp", COUNT(*) AS "count" FROM "TRIPS" WHERE "PICKUP_AT" >= ? AND "PICKUP_AT" < ? GROUP BY DATE_TRUNC('day', "PICKUP_AT") ORDER BY "count" DESC LIMIT ?;
-- consoles | month filter with YEAR() and MONTH(), values bound | answered
-- bind: 2024; 7
SELECT state, count(*) FROM trips WHERE YEAR(pickup_at) = ? AND MONTH(pickup_at) = ? GROUP BY state;
-- Power BI | left outer join with a filter on the joined table, values bound | answered
-- bind: 'plus'; 'pass'
SELECT "t1"."SIGNUP_YEAR", SUM("t0"."FARE") AS "a0" FROM "PUBLIC"."TRIPS" AS "t0" LEFT OUTER JOIN "PUBLIC"."RIDERS" AS "t1" ON ("t0"."RIDER_ID" = "t1"."RIDER_ID") WHERE ("t1"."PLAN" IN (?, ?)) GROUP BY "t1"."SIGNUP_YEAR";
-- Metabase | top 10 of a breakout without a declared domain (keys: private), values bound | answered
-- bind: 10
SELECT "PUBLIC"."TRIPS"."ZONE" AS "ZONE", count(*) AS "count" FROM "PUBLIC"."TRIPS" GROUP BY "PUBLIC"."TRIPS"."ZONE" ORDER BY "count" DESC, "PUBLIC"."TRIPS"."ZONE" ASC LIMIT ?;
-- Superset | declared and keys: private dimensions, top rows, values bound | answered
-- bind: 100
SELECT state AS state, zone AS zone, COUNT(*) AS count FROM trips GROUP BY state, zone ORDER BY count DESC LIMIT ?;
-- Superset | metric with an aggregate FILTER clause | answered
SELECT "STATE" AS "STATE", COUNT(*) FILTER (WHERE "PAYMENT" = 'APP') AS "app_trips" FROM "PUBLIC"."TRIPS" GROUP BY "STATE" ORDER BY "app_trips" DESC LIMIT 10000;
