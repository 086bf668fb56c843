#!/usr/bin/env node
// Plugin hook (exec form): adds a one-line summary of the finished tool call as context.
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
console.log(
  JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PostToolUse',
      additionalContext: `audit-trail: ${input.tool_name} finished (plugin root ${process.env.CLAUDE_PLUGIN_ROOT ? 'set' : 'missing'})`,
    },
  }),
);
