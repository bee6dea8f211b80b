// Starts `arbiter lsp` for scenario files and definitions. The TextMate grammar still colours
// the text; the server gives diagnostics, hover, completion, code actions, formatting and
// symbols. Plain JavaScript: nothing to compile, `npm install` fetches the client library.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function start() {
  const config = vscode.workspace.getConfiguration("arbiter");
  const command = config.get("serverPath") || "arbiter";
  const args = [...(config.get("serverArgs") || []), "lsp"];
  client = new LanguageClient(
    "arbiter",
    "arbiter",
    { run: { command, args }, debug: { command, args } },
    {
      documentSelector: [
        { language: "arbiter-scenario" },
        { language: "arbiter-definition" },
      ],
    }
  );
  return client.start().catch((error) => {
    vscode.window.showErrorMessage(
      `arbiter: cannot start \`${command} lsp\` (${error.message}); set arbiter.serverPath to the arbiter binary`
    );
  });
}

async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("arbiter")) {
        if (client) {
          await client.stop();
        }
        await start();
      }
    })
  );
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
