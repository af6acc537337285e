-- Run inside Neovim after docs/editors.md's init.lua (tests/nvim/run.sh):
-- waits for trainforge's diagnostics on the buffer, asks for the code
-- actions at a finding, runs :TrainforgeFixAll, and writes what it saw
-- as key=value lines to $TF_NVIM_OUT. Quits Neovim.
local out = {}
local function say(k, v) table.insert(out, k .. '=' .. tostring(v)) end
local buf = vim.api.nvim_get_current_buf()
say('filetype', vim.bo[buf].filetype)
local got = vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
say('diagnostics', got and #vim.diagnostic.get(buf) or 0)
local codes = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(codes, (d.code or d.user_data and d.user_data.lsp and d.user_data.lsp.code or '?') .. '@' .. (d.lnum + 1))
end
table.sort(codes)
say('codes', table.concat(codes, ' '))
local want = os.getenv('TF_NVIM_ACTION_AT')
if want then
  local line = tonumber(want)
  local params = vim.lsp.util.make_range_params()
  params.range = { start = { line = line - 1, character = 0 }, ['end'] = { line = line - 1, character = 0 } }
  params.context = { diagnostics = {} }
  local answers = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 5000) or {}
  local titles = {}
  for _, answer in pairs(answers) do
    for _, action in ipairs(answer.result or {}) do table.insert(titles, action.title) end
  end
  say('actions', table.concat(titles, '|'))
end
if os.getenv('TF_NVIM_FIX_ALL') then
  vim.cmd('TrainforgeFixAll')
  say('fixed', table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\\n'))
end
vim.fn.writefile(out, os.getenv('TF_NVIM_OUT'))
vim.cmd('qa!')
