#!/bin/sh
# UserPromptSubmit: plain stdout on exit 0 becomes context for the model.
cat >/dev/null
echo "Project: agent-hooks examples. Current time: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
