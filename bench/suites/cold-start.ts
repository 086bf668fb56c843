/**
 * CLI cold start with no hooks to run, vs `node -e 0` (the floor: starting Node at all).
 * HOME and the working directory are empty temp directories, so discovery finds nothing.
 * Each case is one line of CLI_CASES.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { interleave, pairedRow, timeMs, type BenchOptions, type Row } from '../harness.js';
import { scratch } from '../fixtures.js';

interface CliCase {
  name: string;
  /** Node's arguments, given the CLI's path. */
  args: (cli: string) => string[];
  /** Written to the CLI's stdin (closed right away when absent). */
  stdin?: string;
  /** The quality bar (docs/performance.md) on the ratio to `node -e 0`, for the rows it is stated for. */
  maxRatio?: number;
}

const PRE_TOOL_USE = JSON.stringify({
  session_id: 'cold',
  transcript_path: '',
  cwd: '.',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
});

const CLI_CASES: CliCase[] = [
  {
    name: 'agent-hooks dispatch --agent claude (no hooks)',
    args: (cli) => [cli, 'dispatch', '--agent', 'claude'],
    stdin: PRE_TOOL_USE,
    maxRatio: 2,
  },
  // Not bars of their own. `run` does what dispatch does plus full validation and printing; the
  // dispatch module called directly is what an entry point that routes `dispatch` first would cost.
  { name: 'agent-hooks run PreToolUse (no hooks)', args: (cli) => [cli, 'run', 'PreToolUse', '--payload', '-'], stdin: PRE_TOOL_USE },
  {
    name: 'dispatch module called directly (no CLI)',
    args: (cli) => [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(new URL('../dispatch/dispatch.js', pathToFileURL(cli)).href)}); process.exitCode = await m.dispatchMain({ agent: 'claude' });`,
    ],
    stdin: PRE_TOOL_USE,
  },
];

/**
 * Where the start-up time goes: each module imported alone in a fresh process. The third-party
 * ones are the heaviest dependencies the CLI loads eagerly today.
 */
const IMPORTS = ['agent-hooks', './dist/cli/main.js', 'zod', 'undici', 'yaml', 'commander'];

function packageRoot(): string {
  return dirname(fileURLToPath(import.meta.resolve('agent-hooks/package.json')));
}

function cliPath(): string {
  const root = packageRoot();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  return join(root, pkg.bin['agent-hooks']!);
}

function runNode(args: string[], env: NodeJS.ProcessEnv, cwd: string, stdin?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`node ${args.join(' ')} exited ${code}: ${err.trim()}`))));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin ?? '');
  });
}

export async function coldStartSuite(opts: BenchOptions): Promise<Row[]> {
  const dir = scratch('cold');
  try {
    const cli = cliPath();
    const env = { PATH: process.env.PATH ?? '', HOME: dir.root, LANG: process.env.LANG ?? 'C.UTF-8' };
    const rows: Row[] = [];
    for (const c of CLI_CASES) {
      const sides = await interleave(
        () => timeMs(() => runNode(c.args(cli), env, dir.root, c.stdin)),
        () => timeMs(() => runNode(['-e', '0'], env, dir.root)),
        { warmup: 2, runs: opts.quick ? 6 : 30 },
      );
      const row = pairedRow({ suite: 'cold start', name: c.name, unit: 'ms', baselineName: 'node -e 0', ratioNote: 'of node' }, sides);
      if (c.maxRatio !== undefined) row.bar = { text: `≤ ${c.maxRatio}× node -e 0`, pass: row.ratio! <= c.maxRatio };
      rows.push(row);
    }
    // Imports resolve from the package root; importing the CLI module does not run it.
    const root = packageRoot();
    for (const spec of IMPORTS) {
      const sides = await interleave(
        () => timeMs(() => runNode(['--input-type=module', '-e', `await import(${JSON.stringify(spec)})`], env, root)),
        () => timeMs(() => runNode(['-e', '0'], env, root)),
        { warmup: 1, runs: opts.quick ? 2 : 6 },
      );
      const row = pairedRow(
        { suite: 'cold start', name: `import ${spec} alone`, unit: 'ms', baselineName: 'node -e 0', ratioNote: 'of node' },
        sides,
      );
      row.notes = [`adds ${(row.value - row.baseline!.value).toFixed(0)} ms to start-up`];
      rows.push(row);
    }
    return rows;
  } finally {
    dir.cleanup();
  }
}
