// Embedding the engine in an agent: load config, register an in-process hook, fire events.
// Run after `npm run build`:  node examples/library.mjs
import { createHookEngine, loadConfig } from '../dist/index.js';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const projectDir = dirname(fileURLToPath(import.meta.url));
const config = await loadConfig({ cwd: projectDir, discover: false, settingsFiles: [join(projectDir, 'settings.json')] });
for (const d of config.diagnostics) console.error(`${d.file}: ${d.path}: ${d.message}`);

const engine = createHookEngine({ hooks: config.hooks, projectDir, sessionId: 'library-example' });

// A typed in-process hook: never part of a trust digest, receives an AbortSignal.
engine.register({
  event: 'PreToolUse',
  matcher: 'Write',
  name: 'no-secrets-in-writes',
  fn: (input) =>
    /AKIA[0-9A-Z]{16}/.test(String(input.tool_input?.content ?? ''))
      ? {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'deny',
            permissionDecisionReason: 'looks like an AWS key',
          },
        }
      : undefined,
});

const calls = [
  ['Bash', { command: 'rm -rf build' }],
  ['Bash', { command: 'npm test' }],
  ['Write', { file_path: join(projectDir, 'notes.txt'), content: 'key=AKIAABCDEFGHIJKLMNOP' }],
];
for (const [tool, toolInput] of calls) {
  const decision = await engine.run('PreToolUse', { tool_name: tool, tool_input: toolInput, tool_use_id: `toolu_${tool}` });
  const input = decision.updatedInput ?? toolInput;
  console.log(
    `${tool} ${JSON.stringify(toolInput)} → ${decision.decision ?? 'no decision'}${decision.blocked ? ' (blocked)' : ''}` +
      `${decision.reason ? `: ${decision.reason}` : ''}${decision.updatedInput ? ` → runs ${JSON.stringify(input)}` : ''}`,
  );
}
await engine.close();
