-- update-inlist: one event = UPDATE sbtestN SET c=<random 119 chars> WHERE id IN (<random_points
-- random ids>), in autocommit (one statement, one transaction).
-- Find tagbench_common.lua next to this file, wherever the project is checked out.
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
require("tagbench_common")

function event()
   con:query(string.format("UPDATE %s SET c='%s' WHERE id IN (%s)",
                           tagbench_table(), sysbench.rand.string(C_TEMPLATE),
                           tagbench_random_list(sysbench.opt.random_points)))
end
