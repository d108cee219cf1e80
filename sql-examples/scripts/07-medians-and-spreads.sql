-- Script 7: medians, quartiles, minimums, spreads, and groups nobody can list in advance.
--
-- A median is not a sum: adding noise to the median itself would need a bound on how far one rider
-- can move it, and there is none. dpsql answers quantiles with the exponential mechanism instead:
-- the candidates are a public grid over the column's range (FARE is clamped to [0, 100]: 1,001
-- points 0.1 apart), the backend counts the bounded, clamped fares at each grid point, and a grid
-- point is drawn with a probability that falls exponentially in how many fares lie between it and
-- the true median. The answer is always a grid point.
--
-- The median fare per state:
SELECT STATE, MEDIAN(FARE) AS MEDIAN_FARE FROM TRIPS GROUP BY STATE ORDER BY STATE;

-- Three quartiles of one column in one statement are drawn jointly (JointExp, Gillenwater, Joseph
-- and Kulesza 2021): cheaper and more accurate than three separate medians, and always in order.
-- DISTANCE_KM is clamped to [0, 50]; its grid has 1,001 points 0.05 km apart.
SELECT PERCENTILE_CONT(0.25) WITHIN GROUP (ORDER BY DISTANCE_KM) AS Q1, PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY DISTANCE_KM) AS Q2, PERCENTILE_CONT(0.75) WITHIN GROUP (ORDER BY DISTANCE_KM) AS Q3 FROM TRIPS;

-- MIN and MAX are the 0- and 1-quantiles: a private minimum is a value that hardly any fare lies
-- below, not the exact smallest fare (that one fare could identify a rider), and it may land below
-- the true minimum, since every grid point under it is just as good a low quantile. Fares above
-- the clamp count as 100, so the maximum is near 100 whatever the outliers.
-- truth: SELECT MIN(FARE), MAX(LEAST(FARE, 100)) FROM TRIPS
SELECT MIN(FARE) AS LOWEST_FARE, MAX(FARE) AS HIGHEST_FARE FROM TRIPS;

-- Riders per state (each rider counted once, sensitivity 1 per rider), and the spread of fares,
-- computed from three noisy sums (count, sum, sum of squares) released together.
-- truth: none
SELECT STATE, COUNT(DISTINCT RIDER_ID) AS RIDERS, STDDEV_POP(FARE) AS FARE_SPREAD FROM TRIPS GROUP BY STATE ORDER BY STATE;

-- The busiest pick-up zones. PICKUP_ZONE has no list of values in the policy (900 zones, most of
-- them rarely used), so its groups cannot come from the policy: listing the zones that occur would
-- reveal the rider who alone uses one. The policy declares it keys: private instead: each rider
-- counts in at most 5 zones (and 10 trips), the backend counts the distinct riders per zone, noise
-- is added, and only zones whose noisy count clears a threshold set from delta are released
-- (EXPLAIN PLAN FOR shows it: about 120 riders). Half of the statement's rho selects the zones,
-- half counts their trips. The counts are of the bounded trips: a few riders lose trips.
-- truth: SELECT PICKUP_ZONE, COUNT(*) FROM TRIPS GROUP BY PICKUP_ZONE ORDER BY 2 DESC LIMIT 10
-- groups: selected
SELECT PICKUP_ZONE, COUNT(*) AS TRIPS FROM TRIPS GROUP BY PICKUP_ZONE ORDER BY TRIPS DESC LIMIT 10;

-- With a declared column the zones are selected within each state; counting the released rows
-- is post-processing. The true answer counts every zone with a trip, rare ones included: only
-- the zones enough riders use are released.
SELECT STATE, COUNT(*) AS BUSY_ZONES FROM (SELECT STATE, PICKUP_ZONE FROM TRIPS GROUP BY STATE, PICKUP_ZONE) Z GROUP BY STATE ORDER BY STATE;
