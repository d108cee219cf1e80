-- Script 1: counting with noise.
--
-- This connection talks to a database of ride-hailing trips, but it never shows a single trip.
-- It answers aggregate questions (counts, sums, averages) with a little random noise, chosen so
-- that no answer reveals whether any one rider is in the data. That promise is called
-- differential privacy (DP): whatever you learn, you would have learnt almost the same without
-- any particular rider's trips.
--
-- Every noisy answer spends some privacy budget. The data owner's policy (demo-policy.yaml) gives
-- each connection a total budget, and the system table DPSQL.BUDGET shows it. Reading it is free.
SELECT * FROM DPSQL.BUDGET;

-- The budget is counted in rho (zero-concentrated DP, "zcdp"): the costs of queries add up, and
-- when they reach TOTAL the connection cannot ask anything more. The EPSILON columns express the
-- same amounts as the classic (epsilon, delta) guarantee.
--
-- First question: how many trips are there? The query names no budget, so it spends the policy's
-- default, rho = 0.02. The noise this buys has a standard deviation of about 50 trips.
SELECT COUNT(*) AS TRIP_COUNT FROM TRIPS;

-- The error is larger than the noise alone explains, and it goes one way. The policy counts each
-- rider with at most 10 trips (max_rows_per_unit: 10): if one rider could add 300 trips, the noise
-- would have to hide a change of 300 and be 30 times larger. So the trips of a few heavy riders
-- beyond their 10th are left out before counting: a small, deliberate bias.
--
-- Asking the very same question again costs nothing: dpsql returns the answer it has already
-- released (publishing a released number again reveals nothing new). This time the "true" answer
-- printed is the count with at most 10 trips per rider, so the error left is the noise alone.
-- truth: SELECT SUM(LEAST(N, 10)) FROM (SELECT COUNT(*) AS N FROM TRIPS GROUP BY RIDER_ID)
SELECT COUNT(*) AS TRIP_COUNT FROM TRIPS;

-- GROUP BY gives one noisy count per group. The groups come from the policy, not from the data:
-- all four states are listed, in the policy's order.
SELECT STATE, COUNT(*) AS TRIP_COUNT FROM TRIPS GROUP BY STATE;

-- Why from the policy? If dpsql listed only the groups present in the data, the mere presence of a
-- group could give away one rider's trip. So every group the statement can contain comes back, an
-- empty one with a noisy value around zero; only groups that the statement's own filter rules out
-- are left out, which follows from the statement and the policy alone. Trips in Texas, by county:
-- the policy lists each county under its state, so the filter rules out the 12 counties outside
-- Texas and the 3 Texan counties come back.
SELECT COUNTY, COUNT(*) AS TRIP_COUNT FROM TRIPS WHERE STATE = 'TX' GROUP BY COUNTY;

-- Filters combine =, <, <=, >, >=, BETWEEN, IN, AND, OR and NOT on the policy's columns. How do
-- people pay for morning rush-hour trips in New York and Chicago (Cook county)? HOUR is an SQL
-- keyword, so the column is written in double quotes.
SELECT PAYMENT, COUNT(*) AS TRIP_COUNT FROM TRIPS WHERE (STATE = 'NY' OR COUNTY = 'Cook') AND "HOUR" BETWEEN 7 AND 9 GROUP BY PAYMENT;
