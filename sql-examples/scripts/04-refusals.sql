-- Script 4: what dpsql refuses, and why.
--
-- A refusal is an SQLException whose SQLState says what kind of problem it is, and whose message
-- says what to change. A refused statement costs no budget: nothing was measured.
--
-- Raw rows of a private table are never returned; that is the whole point. (XDP02: not allowed)
-- expect-error: XDP02
SELECT * FROM TRIPS;

-- Only the columns the policy lists can be used. TRIP_ID is not one of them: grouping by it would
-- put every trip in a group of its own, a noisy copy of the table.
-- expect-error: XDP02
SELECT TRIP_ID, COUNT(*) AS TRIP_COUNT FROM TRIPS GROUP BY TRIP_ID;

-- Neither is RIDER_ID, the privacy unit: a filter on it would single out one person.
-- expect-error: XDP02
SELECT COUNT(*) AS TRIP_COUNT FROM TRIPS WHERE RIDER_ID = 17;

-- Private tables are read-only through dpsql. (This DELETE would match no row anyway, no fare is
-- above 1000 dollars; it is refused before it gets anywhere near the data.)
-- expect-error: XDP02
DELETE FROM TRIPS WHERE FARE > 1000;

-- Some aggregates have no private version here. The average fare per kilometre divides by a
-- column: a trip of 0.01 km can make one value as large as it likes, so no bound on a rider's
-- influence exists and no amount of noise would hide it. XDP03 means "not supported", not "not
-- allowed". (MAX(FARE) is answered, as a high quantile: see script 7.)
-- expect-error: XDP03
SELECT AVG(FARE / DISTANCE_KM) AS FARE_PER_KM FROM TRIPS;

-- Privacy parameters must make sense: a budget is a positive number. (XDP05: bad privacy parameter)
-- expect-error: XDP05
SELECT /*+ DP(rho='-1') */ COUNT(*) AS TRIP_COUNT FROM TRIPS;

-- The same for an epsilon, which the zCDP budget would convert to rho = epsilon^2 / 2.
-- expect-error: XDP05
SELECT /*+ DP(epsilon='-1') */ COUNT(*) AS TRIP_COUNT FROM TRIPS;

-- And a mechanism must be one dpsql knows.
-- expect-error: XDP05
SELECT /*+ DP(mechanism='magic') */ COUNT(*) AS TRIP_COUNT FROM TRIPS;
