/**
 * The node option table of the trust pins against the node running the tests: every option its
 * `--help` shows taking a value (`--name=...`) must be one the table reads a value for, and every
 * option shown without one must not be read as taking the next word. A value option the table
 * lacked had its value taken for the script, which then ran unpinned.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { NODE_OPTIONS } from '../../src/trust/pins/options.js';

function helpOptions(): Array<{ name: string; takesValue: boolean }> {
  const help = spawnSync(process.execPath, ['--help'], { encoding: 'utf8' }).stdout;
  const out: Array<{ name: string; takesValue: boolean }> = [];
  for (const line of help.split('\n')) {
    // `  --name=...  text`, `  -x, --name=...`, `  --alias, --name=...` (both take it), `  -p, --print [...]`,
    // `  --inspect[=[host:]port]` (a value only after `=`, never the next word).
    const m = /^ {2}((?:-[A-Za-z]|--[a-z0-9.-]+)(?:, (?:-[A-Za-z]|--[a-z0-9.-]+))*)(=\S*| \[\.\.\.\])?/.exec(line);
    if (!m) continue;
    for (const name of m[1]!.split(', ')) if (name.startsWith('--')) out.push({ name, takesValue: m[2] !== undefined });
  }
  return out;
}

describe('the node option table agrees with `node --help`', () => {
  const options = helpOptions();

  it('reads the help (the test would pass on nothing otherwise)', () => {
    expect(options.length).toBeGreaterThan(100);
    expect(options.some((o) => o.takesValue)).toBe(true);
  });

  it('every option node shows with a value is read with one', () => {
    const missing = options
      .filter((o) => o.takesValue)
      .filter((o) => {
        const kind = NODE_OPTIONS.long[o.name];
        return kind === undefined || kind === 'flag';
      })
      .map((o) => o.name);
    expect(missing).toEqual([]);
  });

  it('no option node shows without a value is read as taking the next word', () => {
    const wrong = options
      .filter((o) => !o.takesValue)
      .filter((o) => {
        const kind = NODE_OPTIONS.long[o.name];
        return kind !== undefined && kind !== 'flag' && kind !== 'exit' && kind !== 'unmodelled';
      })
      .map((o) => o.name);
    expect(wrong).toEqual([]);
  });

  it('every option node shows is known to the table, or a negation (no option is left to "either")', () => {
    const unknown = options.map((o) => o.name).filter((n) => NODE_OPTIONS.long[n] === undefined && !n.startsWith('--no-'));
    expect(unknown).toEqual([]);
  });
});
