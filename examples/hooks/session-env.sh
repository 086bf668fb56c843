#!/bin/sh
# SessionStart: add context and persist environment for later commands via CLAUDE_ENV_FILE.
cat >/dev/null
if [ -n "$CLAUDE_ENV_FILE" ]; then
  echo 'export EXAMPLE_MODE=demo' >> "$CLAUDE_ENV_FILE"
fi
echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Examples session ready.","sessionTitle":"agent-hooks examples"}}'
