-- wrk script of ./pinfeed bench reads: every request is a random reader's own read, with his token.
-- wrk -s reads.lua URL -- READERS_FILE MODE
--   READERS_FILE: lines 'USER_ID TOKEN [CURSOR]' (the cursor of his first page, for MODE next)
--   MODE: first (his home feed's first page), next (the page after his first page's cursor),
--         user (the user object, no token needed)
local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  readers = {}
  mode = args[2]
  for line in io.lines(args[1]) do
    local id, token, cursor = line:match("^(%S+)%s+(%S+)%s*(%S*)$")
    if id and (mode ~= "next" or cursor ~= "") then
      table.insert(readers, { id = id, token = token, cursor = cursor })
    end
  end
  if #readers == 0 then error("no readers for mode " .. mode .. " in " .. args[1]) end
  math.randomseed(os.time() * 1000 + id)
end

function request()
  local r = readers[math.random(#readers)]
  if mode == "user" then return wrk.format("GET", "/v1/users/" .. r.id) end
  local path = "/v1/users/" .. r.id .. "/feed?limit=25"
  if mode == "next" then path = path .. "&cursor=" .. r.cursor end
  return wrk.format("GET", path, { ["Authorization"] = "Bearer " .. r.token })
end
