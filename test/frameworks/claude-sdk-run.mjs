// One Claude Agent SDK run, inside the loopback-only namespace the test starts (runInNamespace):
// `node claude-sdk-run.mjs <spec.json>`. The SDK spawns the cached Claude Code CLI, which talks
// to the fake model on loopback. The engine is loaded as a builder would (the test made the files
// and trusted the project); the result goes to spec.resultFile.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { claudeAgentHooks } from '../../dist/frameworks/claude-agent-sdk.js';
import { createHookEngine, loadConfig, loadTrustedConfig } from '../../dist/index.js';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { work, home, source } = spec;
const base = { cwd: work, homeDir: home, managedSettingsPath: source.noManaged };
const hooks = source.project
  ? (await loadTrustedConfig({ ...base, projectDir: work }, { ...source.project, homeDir: home })).config.hooks
  : (await loadConfig({ ...base, discover: false, settingsFiles: [source.settingsFile] })).hooks;
const engine = createHookEngine({ hooks, projectDir: work, cwd: work, homeDir: home });

const asked = [];
const options = {
  cwd: work,
  pathToClaudeCodeExecutable: spec.cli,
  settingSources: [], // the engine loads the hooks; the CLI must not run them a second time
  allowedTools: ['Bash'],
  model: 'claude-sonnet-4-5',
  ...(spec.withAdapter ? { hooks: claudeAgentHooks(engine) } : {}),
  ...(spec.noCanUseTool
    ? {}
    : {
        canUseTool: async (toolName, input) => {
          asked.push(toolName);
          return spec.answer === 'approve'
            ? { behavior: 'allow', updatedInput: input }
            : { behavior: 'deny', message: 'refused by the user' };
        },
      }),
  stderr: (line) => writeFileSync(join(spec.root, 'cli-stderr.log'), line, { flag: 'a' }),
};
let final = '';
let error = '';
try {
  for await (const m of query({ prompt: spec.prompt, options })) if (m.type === 'result') final = m.result ?? m.subtype;
} catch (err) {
  error = String(err?.stack ?? err);
}
await engine.close();
writeFileSync(spec.resultFile, JSON.stringify({ final, error, asked: asked.length > 0 }));
