-- Shared part of tagbench's own sysbench 1.0.x scripts (the non-stock tests of the standard
-- suite). Written for sysbench 1.0.20: it has no --warmup-time and no zipfian --rand-type,
-- so the runner uses --report-checkpoints for warm-up and update-zipf.lua draws its own ids.
--
-- Each script puts its own folder first on package.path to find this file. Every script
-- declares the same options so one command line shape fits all; a script ignores the ones it
-- does not use.
-- Queries are sent as text (con:query), like the stock scripts under --db-ps-mode=disable, so
-- own and stock tests pay the same parse/optimize cost per statement.

sysbench.cmdline.options = {
   tables = {"Number of tables sbtest1..N", 1},
   table_size = {"Rows per table at load: ids and k values are drawn from 1..table_size", 10000},
   range_size = {"Rows per range query (id or k BETWEEN a AND a+range_size-1)", 100},
   random_points = {"Values per IN-list", 100},
   key_index = {"Index the query uses: pk (WHERE id ...) or si (WHERE k ..., secondary index)", "pk"},
   select = {"Select list: covered (index columns only), notcovered (adds c), all (every column), count (count(c), ranges only)", "all"},
   hot_points = {"Use the same random_points adjacent ids in every query", false},
   zipf_exp = {"Exponent s of the zipfian id distribution, P(id) ~ id^-s (update-zipf.lua)", 0.8},
}

-- 119 characters: 10 groups of 11 random digits joined by dashes, the shape of sbtest.c.
C_TEMPLATE = string.rep("###########-", 9) .. "###########"

function tagbench_check(cond, msg)
   if not cond then
      error("tagbench: " .. msg)
   end
end

function thread_init()
   drv = sysbench.sql.driver()
   con = drv:connect()
end

function thread_done()
   con:disconnect()
end

function tagbench_table()
   return "sbtest" .. sysbench.rand.uniform(1, sysbench.opt.tables)
end

-- The indexed column of key_index: id for the primary key, k for the secondary index k_N.
function tagbench_key_column()
   local ki = sysbench.opt.key_index
   tagbench_check(ki == "pk" or ki == "si", "--key-index must be pk or si, got " .. tostring(ki))
   if ki == "pk" then return "id" end
   return "k"
end

-- "Covered" reads only columns stored in the index used: id for the primary key (the key
-- itself), id and k for the secondary index (InnoDB and MyRocks store the PK in it).
function tagbench_select_list()
   local s = sysbench.opt.select
   local ki = sysbench.opt.key_index
   if s == "covered" then
      if ki == "pk" then return "id" end
      return "id, k"
   elseif s == "notcovered" then
      return "id, c"
   elseif s == "all" then
      return "id, k, c, pad"
   elseif s == "count" then
      return "count(c)"
   end
   tagbench_check(false, "--select must be covered, notcovered, all or count, got " .. tostring(s))
end

-- A comma-separated list of n values in 1..table_size (--rand-type distribution).
function tagbench_random_list(n)
   local vals = {}
   for i = 1, n do
      vals[i] = sysbench.rand.default(1, sysbench.opt.table_size)
   end
   return table.concat(vals, ",")
end

-- A sampler of zipfian ids in 1..n, P(id) ~ id^-s (used by update-zipf.lua; see there).
-- H(x) = integral of x^-s from 1 to x, and its inverse; log forms when s is (nearly) 1.
function tagbench_zipf(n, s)
   local one_minus_s = 1 - s
   local H, Hinv
   if math.abs(one_minus_s) < 1e-9 then
      H = function(x) return math.log(x) end
      Hinv = function(y) return math.exp(y) end
   else
      H = function(x) return (x ^ one_minus_s - 1) / one_minus_s end
      Hinv = function(y) return (1 + y * one_minus_s) ^ (1 / one_minus_s) end
   end
   local function h(x) return x ^ (-s) end
   local h_x1 = H(1.5) - 1
   local h_n = H(n + 0.5)
   local s_diff = 2 - Hinv(H(2.5) - h(2))
   return function()
      while true do
         local u = h_n + sysbench.rand.uniform_double() * (h_x1 - h_n)
         local x = Hinv(u)
         local k = math.floor(x + 0.5)
         if k < 1 then k = 1 elseif k > n then k = n end
         if k - x <= s_diff or u >= H(k + 0.5) - h(k) then
            return k
         end
      end
   end
end
