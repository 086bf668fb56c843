#!/bin/sh
# test-before-stop (agent-hooks preset): a Stop hook that runs the project's tests when the agent
# wants to stop, and keeps it going once, with the failure as the reason, when they fail (exit 2:
# Stop is blocked, stderr is what the model reads). It never blocks twice in a row: when the agent
# is already continuing because of a Stop hook (stop_hook_active), it lets it stop.
# The test command: TEST_COMMAND (set it in the hook's "env"), else `npm test` when package.json
# has a test script, else `make test` when the Makefile has a test target, else nothing is run.
# POSIX sh, no jq. Docs: docs/presets.md of agent-hooks.
payload=$(cat)
# Whitespace removed, so "stop_hook_active": true and "stop_hook_active":true match alike.
compact=$(printf '%s' "$payload" | tr -d ' \t\n\r')
case "$compact" in
  *'"stop_hook_active":true'*) exit 0 ;;
esac
cd "${CLAUDE_PROJECT_DIR:-.}" || exit 0
cmd=${TEST_COMMAND:-}
if [ -z "$cmd" ]; then
  if [ -f package.json ] && grep -q '"test"[[:space:]]*:' package.json; then
    cmd='npm test --silent'
  elif [ -f Makefile ] && grep -q '^test:' Makefile; then
    cmd='make test'
  else
    exit 0
  fi
fi
out=$(sh -c "$cmd" 2>&1 </dev/null)
status=$?
[ "$status" -eq 0 ] && exit 0
{
  echo "The tests fail (\`$cmd\` exited $status): fix them, or say why they cannot pass, before stopping. Last lines:"
  printf '%s\n' "$out" | tail -n 30
} >&2
exit 2
