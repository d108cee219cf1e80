-- Script 8: the ledger, and the end of the budget.
--
-- Every charged query is recorded in DPSQL.LEDGER: what ran, with which mechanism, at what cost.
-- Repeated answers and refusals are not there, because they cost nothing.
SELECT * FROM DPSQL.LEDGER;

-- How much is left after scripts 1 to 7:
SELECT * FROM DPSQL.BUDGET;

-- The budget is a hard limit. A query that would spend more than what is left is refused
-- (XDP01: budget exhausted), and nothing is charged. This one asks for rho = 0.75, less than the
-- connection's total of 1.0 but more than what the scripts so far have left.
-- expect-error: XDP01
SELECT /*+ DP(rho='0.75') */ STATE, COUNT(*) AS TRIP_COUNT FROM TRIPS GROUP BY STATE;

-- The budget is the same as before the refused query:
SELECT * FROM DPSQL.BUDGET;

-- Answers released earlier stay available for free, even when the budget runs short: they are
-- already public. The first question of script 1, again:
-- truth: SELECT SUM(LEAST(N, 10)) FROM (SELECT COUNT(*) AS N FROM TRIPS GROUP BY RIDER_ID)
SELECT COUNT(*) AS TRIP_COUNT FROM TRIPS;

-- That is differential privacy in dpsql, in short:
--  * a private table only answers aggregates, over the columns and domains its policy lists;
--  * every answer carries noise, sized to hide any one rider (at most 10 trips, fares up to 100);
--  * each answer spends budget, more budget means less noise, and the total is capped;
--  * released answers can be reused freely; refusals tell you what to change.
