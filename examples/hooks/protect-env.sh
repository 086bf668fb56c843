#!/bin/sh
# PreToolUse for file edits (matched through an `if` rule on .env files): exit 2 blocks,
# and stderr becomes the reason the model sees.
cat >/dev/null
echo "Editing .env files is not allowed; use .env.example" >&2
exit 2
