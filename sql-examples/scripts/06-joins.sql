-- Script 6: joining the trips with the riders who took them.
--
-- RIDERS is private too: one row per rider, with the year they signed up and their plan (basic,
-- plus, or the monthly pass). The policy gives both tables the same unit (unit: rider), which says
-- that TRIPS.RIDER_ID and RIDERS.RIDER_ID identify the same person. Joined on RIDER_ID, every row
-- of the join is one rider's trip together with that rider's own facts, so the join is one private
-- table whose unit is the rider. Each rider is bounded to 10 rows of the join (the larger of the
-- two tables' bounds) inside the database, after the join, so the noise is what a single table
-- with that bound needs.
--
-- Trips and average fare by plan. The pass row comes out lower than the true count by more than
-- the noise: the heavy riders (50 to 300 trips) mostly hold the pass, and each of them counts with
-- at most 10 trips, as in script 1.
SELECT r.PLAN, COUNT(*) AS TRIP_COUNT, AVG(t.FARE) AS AVG_FARE FROM TRIPS t JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID GROUP BY r.PLAN ORDER BY r.PLAN;

-- Columns of both tables in one GROUP BY, and a filter on each: morning-rush trips by state and
-- plan, of the riders who signed up since 2023.
SELECT t.STATE, r.PLAN, COUNT(*) AS TRIP_COUNT FROM TRIPS t JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID WHERE r.SIGNUP_YEAR >= 2023 AND t."HOUR" BETWEEN 7 AND 9 GROUP BY t.STATE, r.PLAN ORDER BY t.STATE, r.PLAN;

-- Riders, not trips: COUNT(DISTINCT t.RIDER_ID) counts each rider once (sensitivity 1).
SELECT r.PLAN, COUNT(DISTINCT t.RIDER_ID) AS RIDERS_WITH_TRIPS FROM TRIPS t JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID GROUP BY r.PLAN ORDER BY r.PLAN;

-- Pairs of trips of the same rider would multiply each rider's rows (a rider with 300 trips has
-- 90,000 pairs), so a table joined with itself is refused (XDP03), and the message says what to
-- do instead.
-- expect-error: XDP03
SELECT a.STATE, COUNT(*) FROM TRIPS a JOIN TRIPS b ON a.RIDER_ID = b.RIDER_ID GROUP BY a.STATE;

-- BI tools often write LEFT JOIN (Metabase and Looker do by default). On the unit it is answered
-- as well: a trip whose rider had no RIDERS row would keep its trip with NULL rider columns, and
-- that row still belongs to one rider, so the same bound holds. Here every rider has a row, so
-- the true answer is the first query's; it is another relation, so it is measured (and charged)
-- anew.
SELECT r.PLAN, COUNT(*) AS TRIP_COUNT, AVG(t.FARE) AS AVG_FARE FROM TRIPS t LEFT JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID GROUP BY r.PLAN ORDER BY r.PLAN;
