/**
 * The Claude Code differential suite: every case × payload of cases.ts runs in the real Claude
 * Code 2.1.328 (offline, loopback-only namespace, fake model) twice — "native" with the hooks in
 * Claude Code's own settings and plugins, "engine" with `agent-hooks dispatch --agent claude`
 * running the same settings and plugins — and the two observations must agree: what ran (and
 * with which input), which hooks ran, which markers reached the model, how many model turns
 * (a Stop block makes one more), how many permission denials. A documented deliberate
 * difference (docs/configuration.md "Compatibility with Claude Code") is stated per case and asserted as such;
 * a `wider` case lets the engine's `if` run a hook for more calls, never for fewer.
 * Results: test/agents/claude-diff/results.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { ensureAgent, PINS } from '../harness/cache.js';
import { claudeEnv } from '../harness/claude.js';
import { dispatchCommand, makeRunDirs, namespaceUnavailable, runInNamespace, type RunDirs } from '../harness/run.js';
import { CASES, markers, type DiffCase, type DiffPayload } from './cases.js';

interface Observed {
  /** Claude Code's exit code. */
  code: number | null;
  ran: string[];
  hookRuns: string[];
  modelSaw: string[];
  turns: number;
  denials: number;
  error?: string;
}

// Not in test/agents/results/: that folder holds the per-agent matrix files the summary reads.
const RESULTS = join(import.meta.dirname, 'results.json');

function lines(file: string): string[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
    : [];
}

function has(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

/** Writes the case's scripts and plugins into the run folder; returns the settings hooks and plugin roots. */
function materialize(dirs: RunDirs, c: DiffCase): { hooks: Record<string, unknown[]>; plugins: string[]; events: string[] } {
  const scripts = join(dirs.root, 'scripts');
  mkdirSync(scripts, { recursive: true });
  for (const [name, body] of Object.entries(c.scripts ?? {})) {
    writeFileSync(join(scripts, name), body);
    chmodSync(join(scripts, name), 0o755);
  }
  const hooks = JSON.parse(JSON.stringify(c.hooks ?? {}).replaceAll('$HOOKS', scripts)) as Record<string, unknown[]>;
  const plugins: string[] = [];
  const events = new Set(Object.keys(hooks));
  for (const p of c.plugins ?? []) {
    const root = join(dirs.root, 'plugins', p.name);
    for (const [rel, body] of Object.entries(p.files)) {
      const file = join(root, rel);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, body);
      if (rel.endsWith('.sh')) chmodSync(file, 0o755);
      if (rel === 'hooks/hooks.json') for (const e of Object.keys((JSON.parse(body) as { hooks: object }).hooks)) events.add(e);
    }
    plugins.push(root);
  }
  return { hooks, plugins, events: [...events] };
}

async function runOnce(bin: string, c: DiffCase, payload: DiffPayload, mode: 'native' | 'engine'): Promise<Observed> {
  const dirs = makeRunDirs(`cdiff-${c.id}-${payload.id}-${mode}`);
  const { hooks, plugins, events } = materialize(dirs, c);
  let settings: Record<string, unknown>;
  const pluginArgs: string[] = [];
  if (mode === 'native') {
    settings = { hooks };
    for (const p of plugins) pluginArgs.push('--plugin-dir', p);
  } else {
    const engineFile = join(dirs.root, 'engine-settings.json');
    writeFileSync(engineFile, JSON.stringify({ hooks }, null, 2));
    const dispatch = dispatchCommand(
      'claude',
      engineFile,
      plugins.flatMap((p) => ['--plugin', p]),
    );
    settings = { hooks: Object.fromEntries(events.map((e) => [e, [{ hooks: [{ type: 'command', command: dispatch }] }]])) };
  }
  const settingsFile = join(dirs.root, 'claude-settings.json');
  writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
  const outcome = await runInNamespace(dirs, {
    command: bin,
    args: [
      '-p',
      payload.prompt ?? 'Do the task.',
      '--output-format',
      'json',
      '--settings',
      settingsFile,
      '--allowedTools',
      'Bash',
      'Write',
      'Edit',
      ...pluginArgs,
    ],
    env: claudeEnv(dirs),
    api: 'anthropic',
    script: { toolCalls: payload.calls },
    timeoutMs: 120_000,
  });
  const callMarkers = new Set(markers(JSON.stringify(payload.calls)));
  const seen = markers(outcome.requests.map((r) => JSON.stringify(r.body)).join('\n')).filter((m) => !callMarkers.has(m));
  let denials = 0;
  try {
    denials = ((JSON.parse(outcome.stdout) as { permission_denials?: unknown[] }).permission_denials ?? []).length;
  } catch {}
  const turns = outcome.requests.filter((r) => {
    const tools = (r.body as { tools?: unknown } | undefined)?.tools;
    return Array.isArray(tools) && tools.length > 0;
  }).length;
  const error = outcome.timedOut ? 'timed out' : (outcome.spawnError ?? undefined);
  // Matched hooks run in parallel in both, so the order they log in is a race: compared as a set.
  const observed: Observed = {
    code: outcome.code,
    ran: lines(join(dirs.work, 'ran.log')),
    hookRuns: lines(join(dirs.work, 'hook-runs.log')).sort(),
    modelSaw: seen,
    turns,
    denials,
    ...(error ? { error } : {}),
  };
  if (!process.env.AGENT_HOOKS_KEEP_RUNS) rmSync(dirs.root, { recursive: true, force: true });
  return observed;
}

const results: Record<string, { native?: Observed; engine?: Observed; agree?: boolean; note?: string }> = {};
let bin = '';
let why: string | null = namespaceUnavailable();

describe.concurrent(`Claude Code ${PINS.claude.version}: native hooks vs agent-hooks dispatch`, () => {
  beforeAll(() => {
    if (why) return;
    try {
      bin = ensureAgent('claude');
    } catch (err) {
      why = `install failed: ${String((err as Error).message).slice(0, 300)}`;
    }
  }, 660_000);

  afterAll(() => {
    mkdirSync(dirname(RESULTS), { recursive: true });
    // A filtered run (vitest -t) updates only its cases; the others are kept for the same version.
    let kept: Record<string, unknown> = {};
    try {
      const previous = JSON.parse(readFileSync(RESULTS, 'utf8')) as { version?: string; cases?: Record<string, unknown> };
      if (previous.version === PINS.claude.version && !why) kept = previous.cases ?? {};
    } catch {}
    const cases: Record<string, unknown> = {};
    for (const c of CASES)
      for (const p of c.payloads)
        if (results[`${c.id}/${p.id}`] ?? kept[`${c.id}/${p.id}`])
          cases[`${c.id}/${p.id}`] = results[`${c.id}/${p.id}`] ?? kept[`${c.id}/${p.id}`];
    writeFileSync(RESULTS, `${JSON.stringify({ agent: 'claude', version: PINS.claude.version, notRunnable: why, cases }, null, 2)}\n`);
  });

  for (const c of CASES) {
    for (const payload of c.payloads) {
      const key = `${c.id}/${payload.id}`;
      it(key, async (ctx) => {
        if (why) ctx.skip(`not runnable here: ${why}`);
        const missing = (c.needs ?? []).filter((p) => !has(p));
        if (missing.length) ctx.skip(`needs ${missing.join(', ')}`);
        const [native, engine] = [await runOnce(bin, c, payload, 'native'), await runOnce(bin, c, payload, 'engine')];
        const agree = JSON.stringify(native) === JSON.stringify(engine);
        const deliberate = c.deliberate?.payloads.includes(payload.id) ? c.deliberate : undefined;
        results[key] = { native, engine, agree, ...(deliberate ? { note: deliberate.why } : {}) };
        expect(native.error, `native run of ${key}`).toBeUndefined();
        if (deliberate) expect(agree, `${key} is a documented difference (${deliberate.why}) but agreed`).toBe(false);
        else if (c.wider) {
          // Every hook run of Claude Code's is one of the engine's (a guard is never skipped); the engine's extras are recorded.
          const extra = engine.hookRuns.filter((h) => !native.hookRuns.includes(h));
          results[key] = { ...results[key], note: `${c.wider}; engine only: ${extra.length}` };
          expect(
            native.hookRuns.filter((h) => !engine.hookRuns.includes(h)),
            `${key}: Claude Code ran hooks the engine skipped`,
          ).toEqual([]);
          expect({ ...engine, hookRuns: [] }, `${key}: agent-hooks differs from Claude Code`).toEqual({ ...native, hookRuns: [] });
        } else expect(engine, `${key}: agent-hooks differs from Claude Code`).toEqual(native);
      });
    }
  }
});
