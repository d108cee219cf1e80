-- Script 2: how much noise, and what budget buys.
--
-- To see the noise alone, the "true" answers in this script are counted the way dpsql counts:
-- every rider with at most 10 trips (a heavy rider's trips weighted down to 10 in all, which is
-- what keeping 10 of them gives on average). The bias from that bound was script 1's lesson.
--
-- Trips by hour of the day, at the default budget (rho = 0.02). Each of the 24 hours is one cell
-- of the policy's HOUR domain (0..23), and each cell gets its own noise.
-- truth: SELECT "HOUR", SUM(W) FROM (SELECT "HOUR",
-- truth:   LEAST(1.0, 10.0 / COUNT(*) OVER (PARTITION BY RIDER_ID)) AS W FROM TRIPS) GROUP BY "HOUR"
SELECT "HOUR", COUNT(*) AS TRIP_COUNT FROM TRIPS GROUP BY "HOUR";

-- The morning and evening rush hours stand out clearly: with thousands of trips per hour, an error
-- of a few dozen hardly matters.
--
-- A query can name its own budget in a hint: /*+ DP(rho='...') */. The same question with ten
-- times less budget, rho = 0.002: the truth is the same, the noise about sqrt(10) = 3.2 times
-- larger. Compare the RMSE (root mean squared error) lines.
-- truth: SELECT "HOUR", SUM(W) FROM (SELECT "HOUR",
-- truth:   LEAST(1.0, 10.0 / COUNT(*) OVER (PARTITION BY RIDER_ID)) AS W FROM TRIPS) GROUP BY "HOUR"
SELECT /*+ DP(rho='0.002') */ "HOUR", COUNT(*) AS TRIP_COUNT FROM TRIPS GROUP BY "HOUR";

-- And with a large budget, rho = 0.2, a fifth of the whole connection's budget: the noise shrinks
-- to a third of the default's. Budget buys accuracy, and once spent it is gone for this connection.
-- truth: SELECT "HOUR", SUM(W) FROM (SELECT "HOUR",
-- truth:   LEAST(1.0, 10.0 / COUNT(*) OVER (PARTITION BY RIDER_ID)) AS W FROM TRIPS) GROUP BY "HOUR"
SELECT /*+ DP(rho='0.2') */ "HOUR", COUNT(*) AS TRIP_COUNT FROM TRIPS GROUP BY "HOUR";

-- The noise is random, but its distribution is public, so dpsql can say how uncertain each answer
-- is. ci='0.95' adds a 95% confidence interval after each noisy column: TRIP_COUNT_LOW and
-- TRIP_COUNT_HIGH. About 19 intervals in 20 contain the truth; the interval accounts for the noise
-- only, not for the contribution bound. Trips of riders aged 65 and over, by payment (older riders
-- pay cash more often):
-- truth: SELECT PAYMENT, SUM(W) FROM (SELECT PAYMENT,
-- truth:   LEAST(1.0, 10.0 / COUNT(*) OVER (PARTITION BY RIDER_ID)) AS W FROM TRIPS WHERE AGE >= 65)
-- truth:   GROUP BY PAYMENT
SELECT /*+ DP(rho='0.02', ci='0.95') */ PAYMENT, COUNT(*) AS TRIP_COUNT FROM TRIPS WHERE AGE >= 65 GROUP BY PAYMENT;

-- The hint can also pick the mechanism, i.e. the shape of the noise. 'geometric' is the classic
-- two-sided geometric noise of pure DP (the integer version of Laplace noise); under zCDP
-- accounting, rho = 0.02 gives it epsilon = sqrt(2 * rho) = 0.2.
-- truth: SELECT COUNTY, SUM(W) FROM (SELECT COUNTY,
-- truth:   LEAST(1.0, 10.0 / COUNT(*) OVER (PARTITION BY RIDER_ID)) AS W FROM TRIPS WHERE STATE = 'CA')
-- truth:   GROUP BY COUNTY
SELECT /*+ DP(rho='0.02', mechanism='geometric') */ COUNTY, COUNT(*) AS TRIP_COUNT FROM TRIPS WHERE STATE = 'CA' GROUP BY COUNTY;

-- 'discrete_gaussian' adds bell-shaped integer noise, the natural match for zCDP. Same budget, same
-- question: errors of the same order, the Gaussian's typically somewhat smaller (with only 15
-- cells, chance can reverse that).
-- truth: SELECT COUNTY, SUM(W) FROM (SELECT COUNTY,
-- truth:   LEAST(1.0, 10.0 / COUNT(*) OVER (PARTITION BY RIDER_ID)) AS W FROM TRIPS WHERE STATE = 'CA')
-- truth:   GROUP BY COUNTY
SELECT /*+ DP(rho='0.02', mechanism='discrete_gaussian') */ COUNTY, COUNT(*) AS TRIP_COUNT FROM TRIPS WHERE STATE = 'CA' GROUP BY COUNTY;
