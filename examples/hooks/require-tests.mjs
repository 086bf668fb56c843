#!/usr/bin/env node
// Stop: keep the agent going until it has mentioned running the tests, but never loop:
// stop_hook_active is true when the agent is already continuing because of a Stop hook.
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
if (!input.stop_hook_active && !/\btests? (pass|passed|ran)\b/i.test(String(input.last_assistant_message ?? ''))) {
  console.log(JSON.stringify({ decision: 'block', reason: 'Run the test suite and report the result before stopping.' }));
}
