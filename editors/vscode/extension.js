// Starts tile-lsp-server for .tile files (diagnostics as you type, hover,
// go-to-definition, completion of tl.* built-ins). The server is looked up
// on PATH unless the `tile.server.path` setting names it.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('tile');
  const command = config.get('server.path') || 'tile-lsp-server';
  client = new LanguageClient(
    'tile', 'Tile language server',
    { run: { command }, debug: { command } },
    { documentSelector: [{ scheme: 'file', language: 'tile' }] });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
