-- scan: one event = one full scan of one table that returns no row (LENGTH(c) is never
-- negative, and no index helps), so the cost is reading every row. The runner reports
-- rows scanned per second = events per second x the rows the table holds, counted right
-- before each timed repeat (run-step-repeat.js countScanRows), not the configured size.
-- Find tagbench_common.lua next to this file, wherever the project is checked out.
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
require("tagbench_common")

function event()
   con:query("SELECT * FROM " .. tagbench_table() .. " WHERE LENGTH(c) < 0")
end
