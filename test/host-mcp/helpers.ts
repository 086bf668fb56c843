/** Shared bits of the MCP host and proxy tests: fixture paths, hook commands, process checks. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPidLive, liveGroupMembers, waitUntil } from '../backends/helpers.js';
import type { TempDir } from '../helpers/tmp.js';

const here = dirname(fileURLToPath(import.meta.url));
export const SERVER = join(here, 'fixtures', 'server.mjs');
/** The package's executable (package.json bin). */
export const CLI = join(here, '..', '..', 'dist', 'cli', 'bin.cjs');

export const ACCOUNT = {
  type: 'object',
  properties: {
    username: { type: 'string', title: 'User name', minLength: 2 },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    plan: { type: 'string', enum: ['free', 'pro'] },
  },
  required: ['username'],
};

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface HookResponse {
  stdout?: unknown;
  stderr?: string;
  exit?: number;
}

/**
 * A command hook (a small sh script: no interpreter start-up to wait for) that appends its
 * payload to `<log>.jsonl` in the temp dir and answers with `response`, or, given cases, with the
 * first case whose `when` occurs in the compact JSON payload (e.g. `"message":"x"`).
 * Returns the handler for settings.json.
 */
export function hook(
  dir: TempDir,
  log: string,
  response?: HookResponse | { cases: Array<HookResponse & { when: string }>; otherwise?: HookResponse },
) {
  const logFile = dir.path(`${log}.jsonl`);
  const answer = (r: HookResponse | undefined, n: string) => {
    if (!r) return 'exit 0';
    const lines: string[] = [];
    if (r.stdout !== undefined) {
      const out = dir.write(`${log}.${n}.out`, typeof r.stdout === 'string' ? r.stdout : JSON.stringify(r.stdout));
      lines.push(`cat ${q(out)}`);
    }
    if (r.stderr) lines.push(`printf '%s' ${q(r.stderr)} >&2`);
    lines.push(`exit ${r.exit ?? 0}`);
    return lines.join('; ');
  };
  const body = ['input=$(cat)', `printf '%s\\n' "$input" >> ${q(logFile)}`];
  if (response && 'cases' in response) {
    body.push('case "$input" in');
    for (const [i, c] of response.cases.entries()) body.push(`  *${q(c.when)}*) ${answer(c, String(i))};;`);
    body.push(`  *) ${answer(response.otherwise, 'otherwise')};;`, 'esac');
  } else {
    body.push(answer(response, 'only'));
  }
  const script = dir.write(`${log}.sh`, `${body.join('\n')}\n`);
  return { type: 'command', command: `sh ${q(script)}` };
}

/** The payloads a hook logged (in order). */
export function logged(dir: TempDir, log: string): Array<Record<string, unknown>> {
  const file = dir.path(`${log}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Processes that must be gone after a test: pids and process groups. Zombies count as dead. */
export function leakBook() {
  const pids = new Set<number>();
  const groups = new Set<number>();
  return {
    pids,
    groups,
    /** Waits a little, then lists what is still alive (and kills it, so one failure does not cascade). */
    async leftovers(): Promise<number[]> {
      const left: number[] = [];
      for (const p of pids) if (!(await waitUntil(() => !isPidLive(p), 3000))) left.push(p);
      for (const g of groups) if (!(await waitUntil(() => liveGroupMembers(g).length === 0, 3000))) left.push(...liveGroupMembers(g));
      for (const p of left) {
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          // gone
        }
      }
      pids.clear();
      groups.clear();
      return left;
    },
  };
}
