#!/usr/bin/env bash
# Runs the bundled examples through the real CLI and checks each outcome.
# Usage: bash examples/run-examples.sh   (after `npm run build`; `npm run examples` does both)
set -u
cd "$(dirname "$0")/.."
cli=(node dist/cli/bin.cjs)
ex=(--cwd examples --settings examples/settings.json)
failures=0

# case NAME EXPECTED_EXIT EXPECTED_TEXT -- ARGS...
case_() {
  local name=$1 want_exit=$2 want_text=$3
  shift 4
  local out rc
  out=$("${cli[@]}" "$@" 2>&1)
  rc=$?
  printf '\n$ agent-hooks %s\n%s\n' "$*" "$out"
  if [ "$rc" -ne "$want_exit" ] || ! grep -qF -- "$want_text" <<<"$out"; then
    printf '!! %s: expected exit %s and "%s", got exit %s\n' "$name" "$want_exit" "$want_text" "$rc"
    failures=$((failures + 1))
  fi
}

case_ "deny rm -rf"        2 '"decision": "deny"'      -- run PreToolUse "${ex[@]}" --tool Bash --input '{"command":"rm -rf build"}' --json
case_ "ask for git push"   3 'PreToolUse: ask'         -- run PreToolUse "${ex[@]}" --tool Bash --input '{"command":"git push origin main"}'
case_ "rewrite npm test"   0 'npm test --silent'       -- run PreToolUse "${ex[@]}" --tool Bash --input '{"command":"npm test"}'
case_ "reported bypass: ask denied" 2 'will not ask the user' -- run PreToolUse "${ex[@]}" --tool Bash --input '{"command":"git push"}' --permission-mode bypassPermissions
case_ "plan mode still guards" 2 '"decision": "deny"' -- run PreToolUse "${ex[@]}" --tool Bash --input '{"command":"rm -rf /"}' --permission-mode plan --json
case_ ".env in 3rd patch file" 2 'Editing .env files is not allowed' -- run PreToolUse "${ex[@]}" --payload examples/payloads/apply-patch-env.json
case_ "prompt context"     0 'additionalContext: Project: agent-hooks examples' -- run UserPromptSubmit "${ex[@]}" --payload examples/payloads/prompt.json
case_ "session start env"  0 'EXAMPLE_MODE'            -- run SessionStart "${ex[@]}" --payload examples/payloads/session-start.json
case_ "stop continues"     2 'Run the test suite'      -- run Stop "${ex[@]}" --payload examples/payloads/stop.json
case_ "plugin hook"        0 'audit-trail: Bash finished' -- run PostToolUse --cwd examples --plugin examples/plugins/audit-trail --tool Bash --input '{"command":"ls"}' --payload <(echo '{"tool_response":{"stdout":"ok"}}')
case_ "list"               0 'guard-bash.mjs'          -- list "${ex[@]}"

# The library example (examples/library.mjs) embeds the engine directly.
out=$(node examples/library.mjs 2>&1); rc=$?
printf '\n$ node examples/library.mjs\n%s\n' "$out"
if [ "$rc" -ne 0 ] || ! grep -qF 'looks like an AWS key' <<<"$out"; then
  printf '!! library example: expected the in-process hook to deny the write\n'
  failures=$((failures + 1))
fi

if [ "$failures" -gt 0 ]; then
  printf '\n%s example(s) did not behave as expected\n' "$failures"
  exit 1
fi
printf '\nall examples behaved as expected\n'
