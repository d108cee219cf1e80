-- Script 5: time series.
--
-- PICKUP_AT is a TIMESTAMP. The policy gives it a time domain, the days of 2025
-- (PICKUP_AT: {min: 2025-01-01, max: 2025-12-31, bin: 1 day}): each day is a cell, as each county
-- or age is. Anything that is the same for every instant of a day (its month, its date, its day of
-- the week) is then a public function of the cells, and a series can be grouped by it. Every bin
-- of the series is in the answer, an empty one too, since the bins come from the policy.
--
-- Trips per month (the data grow through the year):
SELECT DATE_TRUNC('month', PICKUP_AT) AS MONTH_START, COUNT(*) AS TRIP_COUNT FROM TRIPS GROUP BY DATE_TRUNC('month', PICKUP_AT) ORDER BY MONTH_START;

-- Whatever is computed from released rows is free post-processing: here, a bar per month drawn
-- with REPEAT over the series just released. The inner query is the same private aggregate as
-- above, so this costs nothing.
-- truth: none
SELECT MONTH_START, TRIP_COUNT, REPEAT('#', CAST(TRIP_COUNT / 500 AS INT)) AS BAR FROM (SELECT DATE_TRUNC('month', PICKUP_AT) AS MONTH_START, COUNT(*) AS TRIP_COUNT FROM TRIPS GROUP BY DATE_TRUNC('month', PICKUP_AT)) t ORDER BY MONTH_START;

-- A daily series for March, the date range written as BI tools write it (>= the first instant,
-- < the first instant after). Commutes happen on weekdays, so the weekends dip:
-- truth: none
SELECT PICKUP_DAY, TRIP_COUNT, REPEAT('#', CAST(TRIP_COUNT / 25 AS INT)) AS BAR FROM (SELECT CAST(PICKUP_AT AS DATE) AS PICKUP_DAY, COUNT(*) AS TRIP_COUNT FROM TRIPS WHERE PICKUP_AT >= TIMESTAMP '2025-03-01 00:00:00' AND PICKUP_AT < TIMESTAMP '2025-04-01 00:00:00' GROUP BY CAST(PICKUP_AT AS DATE)) t ORDER BY PICKUP_DAY;

-- Quarters and days of the week are functions of the day as well (ISODOW: Monday is 1):
SELECT EXTRACT(QUARTER FROM PICKUP_AT) AS QUARTER_OF_2025, EXTRACT(ISODOW FROM PICKUP_AT) AS WEEKDAY, COUNT(*) AS TRIP_COUNT FROM TRIPS GROUP BY EXTRACT(QUARTER FROM PICKUP_AT), EXTRACT(ISODOW FROM PICKUP_AT) ORDER BY 1, 2;

-- The hour of a pick-up is not: a day's bin holds every hour, so this is refused (XDP03), and the
-- message says what to use instead. (For hours, the policy has the HOUR column.)
-- expect-error: XDP03
SELECT EXTRACT(HOUR FROM PICKUP_AT) AS H, COUNT(*) FROM TRIPS GROUP BY EXTRACT(HOUR FROM PICKUP_AT);
