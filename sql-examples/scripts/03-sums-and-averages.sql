-- Script 3: sums, averages, ranges, and a public table.
--
-- Sums need one more piece of policy: bounds. A single fare could be anything, so dpsql clamps each
-- FARE into [0, 100] dollars (FARE: {clamp: [0, 100]}) before adding it up. Then one rider, with at
-- most 10 trips, moves a sum by at most 1000 dollars, and the noise is sized for that. The
-- aggregates of one query share its budget; AVG is, in effect, a noisy sum over a noisy count.
SELECT COUNT(FARE) AS FARES, SUM(FARE) AS REVENUE, AVG(FARE) AS AVG_FARE FROM TRIPS;

-- The revenue falls short of the truth for two reasons: the bound of 10 trips per rider (as for
-- counts), and the clamp: a few fares are above 100 dollars (long airport runs, cleaning fees,
-- some up to 900), and each of them counts as 100. Clamping trades a little bias for much less
-- noise: without it, the noise would have to hide a 900-dollar fare.
--
-- Revenue and average fare by state, this time compared with the truth computed the way dpsql
-- computes it (fares clamped, at most 10 trips per rider), so the error left is the noise:
-- truth: SELECT STATE, SUM(W * LEAST(FARE, 100)), SUM(W * LEAST(FARE, 100)) / SUM(W) FROM
-- truth:   (SELECT STATE, FARE, LEAST(1.0, 10.0 / COUNT(*) OVER (PARTITION BY RIDER_ID)) AS W
-- truth:   FROM TRIPS) GROUP BY STATE
SELECT STATE, SUM(FARE) AS REVENUE, AVG(FARE) AS AVG_FARE FROM TRIPS GROUP BY STATE;

-- The noise on a sum is about 100 times the noise on a count: a sum has to hide a rider's 10 fares
-- of up to 100 dollars each (1000 dollars), a count only their 10 trips. On revenues of a million
-- dollars and more, that is still small.
--
-- Averages work for any clamped column. Mean trip length by payment method (DISTANCE_KM is
-- clamped to [0, 50] km; the true answer below is not, so it includes the few longer trips):
SELECT PAYMENT, AVG(DISTANCE_KM) AS AVG_KM FROM TRIPS GROUP BY PAYMENT;

-- Ordered columns (HOUR, AGE) have one cell per value in the policy (bin: 1). Coarser views, such
-- as age bands or parts of the day, are written as ranges in WHERE. Evening trips of young riders
-- (16 to 24), by state:
SELECT STATE, COUNT(*) AS TRIP_COUNT, AVG(FARE) AS AVG_FARE FROM TRIPS WHERE AGE BETWEEN 16 AND 24 AND "HOUR" >= 18 GROUP BY STATE;

-- Small groups are where noise hurts. The noise that is invisible on 60,000 trips swamps a group of
-- a few dozen: trips of riders aged 85 and over, by county. Judge an answer by its error relative
-- to its size, and ask about bigger groups (or spend more budget) when that error is too large.
SELECT COUNTY, COUNT(*) AS TRIP_COUNT FROM TRIPS WHERE AGE >= 85 GROUP BY COUNTY;

-- Public tables are not protected: any read-only SQL works, exactly, and costs no budget. COUNTIES
-- holds census figures; to relate them to trips, combine them with released DP counts (joins of
-- private and public tables inside dpsql come in a later version).
SELECT STATE, COUNT(*) AS N_COUNTIES, SUM(POPULATION) AS POPULATION, ROUND(SUM(POPULATION) / SUM(AREA_KM2)) AS PEOPLE_PER_KM2 FROM COUNTIES GROUP BY STATE ORDER BY POPULATION DESC;
