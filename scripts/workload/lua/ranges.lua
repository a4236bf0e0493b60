-- Range reads: range-{covered,notcovered}-{pk,si} (rows returned to the client) and
-- read-only-count (count(c), aggregated in the server).
-- One event = one SELECT <select list> FROM sbtestN WHERE <id|k> BETWEEN a AND a+range_size-1.
-- The start a is drawn from 1..table_size-range_size+1 so every range lies inside the loaded
-- key space and each query does the same work (stock sysbench may run past the last id).
-- Find tagbench_common.lua next to this file, wherever the project is checked out.
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
require("tagbench_common")

function thread_init()
   drv = sysbench.sql.driver()
   con = drv:connect()
   key_column = tagbench_key_column()
   select_list = tagbench_select_list()
   tagbench_check(sysbench.opt.range_size >= 1, "--range-size must be >= 1")
   last_start = math.max(1, sysbench.opt.table_size - sysbench.opt.range_size + 1)
end

function event()
   local a = sysbench.rand.default(1, last_start)
   con:query(string.format("SELECT %s FROM %s WHERE %s BETWEEN %d AND %d",
                           select_list, tagbench_table(), key_column,
                           a, a + sysbench.opt.range_size - 1))
end
