-- Neovim's built-in LSP client against `arbiter lsp` (tests/it/lsp.rs runs this headless,
-- with the recipe of docs/editors.md as init.lua and the scenario file as the argument): waits
-- for the server the recipe starts, then for the evaluation's diagnostics, asks for a hover,
-- a completion and the code actions, and writes what came back to $ARBITER_OUT, one line
-- each. Written for Neovim 0.7 (Debian's) and later.
local out = os.getenv("ARBITER_OUT")
local lines = {}
local function say(text)
  table.insert(lines, (string.gsub(text, "\n", " | ")))
end

local buf = vim.api.nvim_get_current_buf()
say("filetype: " .. vim.bo[buf].filetype)
local function clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.lsp.buf_get_clients(buf)
end
local attached = vim.wait(15000, function()
  return next(clients()) ~= nil
end, 50)
say("attached: " .. tostring(attached))

local evaluated = vim.wait(15000, function()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find("expected:", 1, true) then
      return true
    end
  end
  return false
end, 50)
say("evaluated: " .. tostring(evaluated))
for _, d in ipairs(vim.diagnostic.get(buf)) do
  say("diagnostic " .. d.lnum .. ":" .. d.col .. " " .. d.message)
end

local uri = vim.uri_from_bufnr(buf)
local function ask(method, params)
  local answers = vim.lsp.buf_request_sync(buf, method, params, 10000) or {}
  for _, answer in pairs(answers) do
    if answer.result then
      return answer.result
    end
  end
  return nil
end

local hover = ask("textDocument/hover", { textDocument = { uri = uri }, position = { line = 4, character = 10 } })
say("hover: " .. (hover and hover.contents.value or "none"))

local completion = ask("textDocument/completion", { textDocument = { uri = uri }, position = { line = 1, character = 25 } })
local labels = {}
for _, item in ipairs(completion or {}) do
  table.insert(labels, item.label)
end
say("completion: " .. table.concat(labels, " "))

local actions = ask("textDocument/codeAction", {
  textDocument = { uri = uri },
  range = { start = { line = 0, character = 0 }, ["end"] = { line = 12, character = 0 } },
  context = { diagnostics = {} },
})
for _, action in ipairs(actions or {}) do
  say("action: " .. action.title)
end

vim.fn.writefile(lines, out)
for _, client in pairs(clients()) do
  vim.lsp.stop_client(client.id)
end
vim.cmd("qa!")
