-- A plain GET of the URL given to wrk (headers from -H); only reports its numbers.
dofile("bench/report.lua")
