-- update-zipf: one event = UPDATE sbtestN SET c=<random 119 chars> WHERE id=<zipfian id>.
-- sysbench 1.0.20 has no --rand-type=zipfian (1.1 has), so ids are drawn here with
-- P(id) ~ id^-zipf_exp over 1..table_size (default exponent 0.8, sysbench 1.1's default), by
-- rejection-inversion (W. Hormann, G. Derflinger, "Rejection-inversion to generate variates
-- from monotone discrete distributions", 1996): O(1) setup and sampling, where the classic
-- Gray et al. method needs an O(table_size) zeta sum per thread. id 1 is the hottest row.
-- Find tagbench_common.lua next to this file, wherever the project is checked out.
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
require("tagbench_common")

function thread_init()
   drv = sysbench.sql.driver()
   con = drv:connect()
   tagbench_check(sysbench.opt.zipf_exp > 0, "--zipf-exp must be > 0")
   next_id = tagbench_zipf(sysbench.opt.table_size, sysbench.opt.zipf_exp)
end

function event()
   con:query(string.format("UPDATE %s SET c='%s' WHERE id=%d",
                           tagbench_table(), sysbench.rand.string(C_TEMPLATE), next_id()))
end
