/**
 * Command hook through the engine vs a bare child_process.spawn of the same command with
 * the same stdin and environment (the physical floor), in shell form and exec form. All
 * four sides run interleaved, round by round, so every ratio is paired.
 */
import { spawn } from 'node:child_process';
import { buildHookEnv, createHookEngine, encodePayload, loadConfig, type HookEngine } from 'agent-hooks';
import { interleaveAll, pairedRow, timeMs, type BenchOptions, type Row } from '../harness.js';
import { preToolUseInput, scratch } from '../fixtures.js';

/** Spawn, write stdin, collect both streams, resolve at 'close': what any runner must do. */
function bareSpawn(file: string, args: string[], stdin: string, env: Record<string, string>, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
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
    }
    const [shellEngine, shellBare, execEngine, execBare] = (await interleaveAll(sides, {
      warmup: opts.quick ? 5 : 20,
      runs: opts.quick ? 30 : 200,
    })) as [number[], number[], number[], number[]];

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
      row.notes = [`overhead ${((row.value - row.baseline!.value) * 1000).toFixed(0)} µs per hook (median − median)`];
      rows.push(row);
    }
    rows.push(
      pairedRow(
        { suite: 'command', name: 'shell form vs exec form, engine', unit: 'ms', baselineName: 'exec form', ratioNote: 'of exec' },
        { a: shellEngine, b: execEngine },
      ),
    );
    return rows;
  } finally {
    for (const e of engines) await e.close();
    dir.cleanup();
  }
}
