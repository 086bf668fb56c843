/**
 * Config load + validation + indexing of 1,000 hooks across five files (user, project and
 * local settings, two plugins): loadConfig() then createHookEngine() (which builds the plan
 * index). The floor is reading and JSON.parse-ing the same five files.
 */
import { readFile } from 'node:fs/promises';
import { createHookEngine, loadConfig } from 'agent-hooks';
import { interleave, pairedRow, timeMs, type BenchOptions, type Row } from '../harness.js';
import { scratch } from '../fixtures.js';

const TOOL_EVENTS = ['PreToolUse', 'PostToolUse', 'PermissionRequest', 'PostToolUseFailure'] as const;
const OTHER_EVENTS = ['UserPromptSubmit', 'SessionStart', 'SessionEnd', 'Stop', 'SubagentStop', 'Notification', 'PreCompact'] as const;
const MATCHERS = ['Bash', 'Edit|Write|MultiEdit', 'mcp__github__.*', '*', 'Read', '^(Glob|Grep)$'];
const IF_RULES = ['Bash(git commit:*)', 'Edit(src/**)', 'Bash(npm *)'];

/** `count` hooks in a `hooks` object: mixed events, matchers, `if` rules, shell and exec form. */
function hooksObject(tag: string, count: number): Record<string, unknown[]> {
  const hooks: Record<string, unknown[]> = {};
  for (let i = 0; i < count; i++) {
    const tool = i % 3 !== 2;
    const event = tool ? TOOL_EVENTS[i % TOOL_EVENTS.length]! : OTHER_EVENTS[i % OTHER_EVENTS.length]!;
    // Unique commands: identical hooks would be deduplicated and the count would drop.
    const handler: Record<string, unknown> =
      i % 2 === 0
        ? { type: 'command', command: `"$CLAUDE_PROJECT_DIR"/hooks/check.sh ${tag}-${i}`, timeout: 5 + (i % 30) }
        : { type: 'command', command: 'node', args: [`\${CLAUDE_PROJECT_DIR}/hooks/check.mjs`, `${tag}-${i}`] };
    if (tool && event !== 'PermissionRequest' && i % 4 === 1) handler.if = IF_RULES[i % IF_RULES.length];
    const group: Record<string, unknown> = { hooks: [handler] };
    if (tool) group.matcher = MATCHERS[i % MATCHERS.length];
    hooks[event] ??= [];
    hooks[event].push(group);
  }
  return hooks;
}

export async function configLoadSuite(opts: BenchOptions): Promise<Row[]> {
  const dir = scratch('config');
  try {
    const home = dir.path('home');
    const project = dir.path('project');
    const files = [
      dir.json('home/.claude/settings.json', { hooks: hooksObject('user', 200) }),
      dir.json('project/.claude/settings.json', { hooks: hooksObject('project', 200) }),
      dir.json('project/.claude/settings.local.json', { hooks: hooksObject('local', 200) }),
      dir.json('plugins/lint/hooks/hooks.json', { description: 'bench plugin', hooks: hooksObject('lint', 200) }),
      dir.json('plugins/audit/hooks/hooks.json', { description: 'bench plugin', hooks: hooksObject('audit', 200) }),
    ];
    const loadOpts = {
      cwd: project,
      projectDir: project,
      homeDir: home,
      discover: true,
      // Measures loading, not the trust gate (which leaves untrusted project hooks out).
      unsafeSkipTrustGate: true,
      managedSettingsPath: dir.path('no-managed-settings.json'),
      plugins: [dir.path('plugins/lint'), dir.path('plugins/audit')],
    };
    const check = await loadConfig(loadOpts);
    const errors = check.diagnostics.filter((d) => d.level === 'error');
    if (errors.length || check.hooks.length !== 1000) {
      throw new Error(
        `config suite: expected 1,000 hooks and no errors, got ${check.hooks.length} hooks, ${JSON.stringify(errors.slice(0, 3))}`,
      );
    }
    const full = () =>
      timeMs(async () => {
        const config = await loadConfig(loadOpts);
        const engine = createHookEngine({ hooks: config.hooks, projectDir: project, cwd: project });
        if (engine.list().length !== 1000) throw new Error('config suite: engine lost hooks');
        await engine.close();
      });
    const floor = () =>
      timeMs(async () => {
        for (const f of files) JSON.parse(await readFile(f, 'utf8'));
      });
    const sides = await interleave(full, floor, { warmup: opts.quick ? 3 : 5, runs: opts.quick ? 10 : 40 });
    const row = pairedRow(
      {
        suite: 'config',
        name: 'load + validate + index 1,000 hooks in 5 files',
        unit: 'ms',
        baselineName: 'read + JSON.parse',
        ratioNote: 'of parse',
      },
      sides,
    );
    row.notes = [`${((row.value * 1000) / 1000).toFixed(1)} µs per hook`];
    return [row];
  } finally {
    dir.cleanup();
  }
}
