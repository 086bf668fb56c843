/**
 * Command hook through the engine vs a bare child_process.spawn of the same command with
 * the same stdin and environment (the physical floor), in shell form and exec form. All
 * six sides run interleaved, round by round, so every ratio is paired.
 */
import { spawn } from 'node:child_process';
import { createHookEngine, loadConfig, type HookEngine, type RunInput } from 'agent-hooks';
import { buildHookEnv, encodePayload, spawnerReady } from 'agent-hooks/stages';
import { batchUs, calibrateBatch, interleaveAll, pairedRow, timeMs, type BenchOptions, type Row } from '../harness.js';
import { summarize } from '../stats.js';
import { preToolUseInput, scratch } from '../fixtures.js';

/**
 * Spawn, write stdin, collect both streams, resolve at 'close': what any runner must do.
 * `detached` (its own session and process group, as the engine spawns hooks so that it can
 * kill the whole tree) is measured as a third side, because a new session is scheduled as
 * a group of its own where the kernel has autogroup scheduling on.
 */
function bareSpawn(file: string, args: string[], stdin: string, env: Record<string, string>, cwd: string, detached = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, detached, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited ${code}: ${Buffer.concat(err)}`))));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

/**
 * The engine's own work per command hook (plan, validation, payload, env, parse, reduce),
 * with the process taken out: the same engine with a command backend that returns at once.
 */
async function engineOwnWork(cwd: string, input: RunInput<'PreToolUse'>, bareMs: number, opts: BenchOptions): Promise<Row> {
  const config = await loadConfig({
    cwd,
    discover: false,
    settingsFiles: [
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'wc', args: ['-c'] }] }] } }),
    ],
  });
  const done = {
    status: 'completed',
    exitCode: 0,
    signal: null,
    stdout: '253\n',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    stdinTruncated: false,
    durationMs: 1,
  } as const;
  const engine = createHookEngine({ hooks: config.hooks, projectDir: cwd, cwd, backends: { command: async () => ({ ...done }) } });
  const fire = () => engine.run('PreToolUse', input);
  const sample = batchUs(fire, await calibrateBatch(fire, opts.quick ? 10 : 25));
  const samples: number[] = [];
  for (let i = 0; i < (opts.quick ? 10 : 30); i++) samples.push(await sample());
  const s = summarize(samples);
  return {
    suite: 'command',
    // The stub backend skips what the command backend does before the spawn (payload encoding,
    // environment building), so this is a floor of the engine's share, not all of it.
    name: "engine's own work per command hook, stub backend (no process, no payload encoding, no env building)",
    unit: 'µs',
    value: s.median,
    summary: s,
    baseline: { name: 'bare spawn (exec)', value: bareMs * 1000 },
    ratio: s.median / (bareMs * 1000),
    ratioNote: 'of bare spawn',
  };
}

export async function commandSuite(opts: BenchOptions): Promise<Row[]> {
  const dir = scratch('command');
  const engines: HookEngine[] = [];
  try {
    const input = preToolUseInput(dir.root);
    // The engine adds these two per execution; the bare side gets a payload of the same size.
    const stdin = encodePayload({
      ...input,
      hook_event_name: 'PreToolUse',
      hook_execution_id: '00000000-0000-4000-8000-000000000000',
      timestamp: new Date().toISOString(),
    }).text;
    const env = buildHookEnv({ sessionEnv: {}, projectDir: dir.root });
    const forms = [
      { name: 'shell form', handler: { type: 'command', command: 'wc -c' }, file: 'sh', args: ['-c', 'wc -c'] },
      { name: 'exec form', handler: { type: 'command', command: 'wc', args: ['-c'] }, file: 'wc', args: ['-c'] },
    ];
    const sides: Array<() => Promise<number>> = [];
    for (const form of forms) {
      const config = await loadConfig({
        cwd: dir.root,
        discover: false,
        settingsFiles: [JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [form.handler] }] } })],
      });
      if (config.hooks.length !== 1) throw new Error(`command suite: expected 1 hook, got ${config.hooks.length}`);
      const engine = createHookEngine({ hooks: config.hooks, projectDir: dir.root, cwd: dir.root });
      engines.push(engine);
      sides.push(() =>
        timeMs(async () => {
          const d = await engine.run('PreToolUse', input);
          if (d.hooks[0]?.outcome !== 'success') throw new Error(`command suite: hook failed: ${JSON.stringify(d.hooks[0])}`);
        }),
      );
      sides.push(() => timeMs(() => bareSpawn(form.file, form.args, stdin, env, dir.root)));
      sides.push(() => timeMs(() => bareSpawn(form.file, form.args, stdin, env, dir.root, true)));
    }
    // The library default forks hooks from the spawner helper; the same exec-form engine
    // forking directly (the CLI's way) is the seventh side.
    const direct = createHookEngine({
      hooks: (
        await loadConfig({
          cwd: dir.root,
          discover: false,
          settingsFiles: [JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [forms[1]!.handler] }] } })],
        })
      ).hooks,
      projectDir: dir.root,
      cwd: dir.root,
      spawner: false,
    });
    engines.push(direct);
    sides.push(() => timeMs(() => direct.run('PreToolUse', input)));
    if (!(await spawnerReady())) throw new Error('command suite: the spawner helper did not start');
    const [shellEngine, shellBare, shellDetached, execEngine, execBare, execDetached, execDirect] = (await interleaveAll(sides, {
      warmup: opts.quick ? 5 : 20,
      runs: opts.quick ? 30 : 150,
    })) as [number[], number[], number[], number[], number[], number[], number[]];

    const rows: Row[] = [];
    for (const [form, a, b] of [
      ['shell form `sh -c "wc -c"`', shellEngine, shellBare],
      ['exec form `wc -c`', execEngine, execBare],
    ] as const) {
      const row = pairedRow(
        { suite: 'command', name: `engine vs bare spawn, ${form}`, unit: 'ms', baselineName: 'bare spawn', ratioNote: 'of bare' },
        { a: [...a], b: [...b] },
      );
      row.bar = { text: '≤ 1.10× bare spawn', pass: row.ratio! <= 1.1 };
      row.notes = [
        `overhead ${((row.value - row.baseline!.value) * 1000).toFixed(0)} µs per hook (median − median); ` +
          `p10 ratio ${(row.summary!.p10 / row.baseline!.summary!.p10).toFixed(3)} (less sensitive to other load on the machine)`,
      ];
      rows.push(row);
    }
    for (const [form, a, b] of [
      ['shell form', shellEngine, shellDetached],
      ['exec form', execEngine, execDetached],
    ] as const) {
      rows.push(
        pairedRow(
          {
            suite: 'command',
            name: `engine vs bare detached spawn, ${form}`,
            unit: 'ms',
            baselineName: 'detached spawn',
            ratioNote: 'of detached',
          },
          { a: [...a], b: [...b] },
        ),
      );
    }
    rows.push(
      pairedRow(
        {
          suite: 'command',
          name: 'engine with the spawner off vs bare detached spawn, exec form',
          unit: 'ms',
          baselineName: 'detached spawn',
          ratioNote: 'of detached',
        },
        { a: execDirect, b: execDetached },
      ),
      pairedRow(
        {
          suite: 'command',
          name: 'engine, spawner vs spawner off, exec form',
          unit: 'ms',
          baselineName: 'spawner off',
          ratioNote: 'of direct',
        },
        { a: execEngine, b: execDirect },
      ),
    );
    rows.push(
      pairedRow(
        { suite: 'command', name: 'shell form vs exec form, engine', unit: 'ms', baselineName: 'exec form', ratioNote: 'of exec' },
        { a: shellEngine, b: execEngine },
      ),
    );
    rows.push(await engineOwnWork(dir.root, input, summarize(execBare).median, opts));
    return rows;
  } finally {
    for (const e of engines) await e.close();
    dir.cleanup();
  }
}
