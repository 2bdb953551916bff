#!/usr/bin/env bash
# One language-server session on a file: initialize, didOpen with the
# file's text, shutdown and exit, over stdin as an editor would (JSON-RPC
# with Content-Length headers); prints what the server answers.
# Usage: lsp-session.sh <server> <file.mlir>
set -euo pipefail
server=$1
file=$2
send() {
  printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1"
}
# The file's text as a JSON string.
text=$(sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' "$file" | awk '{printf "%s\\n", $0}')
uri="file://$(realpath "$file")"
{
  send '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}'
  send '{"jsonrpc":"2.0","method":"initialized","params":{}}'
  send "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"$uri\",\"languageId\":\"mlir\",\"version\":1,\"text\":\"$text\"}}}"
  sleep 1
  send '{"jsonrpc":"2.0","id":2,"method":"shutdown"}'
  send '{"jsonrpc":"2.0","method":"exit"}'
} | timeout 60 "$server"
