#!/usr/bin/env node
// PreToolUse guard for Bash: denies destructive commands, asks for pushes, rewrites
// `npm test` to run quietly, and lets everything else through the normal permission flow.
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
const command = String(input.tool_input?.command ?? '');

const out = (permissionDecision, extra = {}) =>
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision, ...extra } }));

if (/\brm\s+-[a-z]*r[a-z]*f|\brm\s+-[a-z]*f[a-z]*r/.test(command)) {
  out('deny', { permissionDecisionReason: `Destructive command blocked: ${command}` });
} else if (/^git\s+push\b/.test(command)) {
  out('ask', { permissionDecisionReason: 'Pushing needs a human look' });
} else if (command === 'npm test') {
  out('allow', { updatedInput: { ...input.tool_input, command: 'npm test --silent' }, additionalContext: 'Tests run with --silent.' });
}
// No output: no decision; the agent's permission flow applies.
