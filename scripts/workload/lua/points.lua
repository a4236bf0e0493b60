-- Point lookups by IN-list: random-points, hot-points and points-{covered,notcovered}-{pk,si}.
-- One event = one SELECT <select list> FROM sbtestN WHERE <id|k> IN (<random_points values>).
-- hot_points: every query asks for the same random_points adjacent ids in the middle of the
-- table, so the rows stay in cache and the test measures the per-row CPU cost.
-- Find tagbench_common.lua next to this file, wherever the project is checked out.
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
require("tagbench_common")

function thread_init()
   drv = sysbench.sql.driver()
   con = drv:connect()
   key_column = tagbench_key_column()
   select_list = tagbench_select_list()
   tagbench_check(sysbench.opt.select ~= "count", "--select=count is for ranges.lua")
   tagbench_check(sysbench.opt.random_points >= 1, "--random-points must be >= 1")
   if sysbench.opt.hot_points then
      local n = sysbench.opt.random_points
      local first = math.max(1, math.floor((sysbench.opt.table_size - n) / 2) + 1)
      local ids = {}
      for i = 1, n do ids[i] = first + i - 1 end
      hot_list = table.concat(ids, ",")
   end
end

function event()
   local list = hot_list or tagbench_random_list(sysbench.opt.random_points)
   con:query(string.format("SELECT %s FROM %s WHERE %s IN (%s)",
                           select_list, tagbench_table(), key_column, list))
end
