/**
 * The engine's memory stays bounded under adversarial hooks and payloads. Measured in a fresh
 * Node process running the built engine (dist/), so the test runner's heap is not in the figures.
 * Loose bounds on purpose: the figures themselves belong to the benchmarks.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { TAG_VAR, expectNoLeak, newTag } from './helpers.js';

const PROBE = fileURLToPath(new URL('./fixtures/memory-probe.mjs', import.meta.url));
const MB = 1024 * 1024;

let dir: TempDir;
let tag: string;
beforeEach(() => {
  dir = tempDir('agent-hooks-hardening-mem-');
  tag = newTag();
});
afterEach(async () => {
  await expectNoLeak(tag);
  dir.cleanup();
});

interface Figures {
  baseline: number;
  peak: number;
  retained: number;
  rounds: number;
  outcomes: string[];
}

function probe(scenario: string): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', PROBE, scenario, dir.root], {
      env: { ...process.env, [TAG_VAR]: tag },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as Figures) : reject(new Error(`memory probe ${scenario} exited ${code}: ${err}`)),
    );
  });
}

describe('engine memory under adversarial hooks (a fresh process per scenario)', () => {
  // [scenario, peak RSS growth bound, retained bound, outcomes]
  // Measured here (2-core CI box): flood +35 MB, line +67 MB, deep +44 MB, payload +153 MB peak RSS;
  // under 2 MB retained each. The payload case cost ~8× the payload per hook before encodePayload
  // stopped copying whole strings it was going to shorten anyway.
  const cases: Array<[string, number, number, string[]]> = [
    ['flood', 100 * MB, 10 * MB, ['success']],
    ['line', 150 * MB, 10 * MB, ['non_blocking_error']],
    ['deep', 120 * MB, 10 * MB, ['non_blocking_error']],
    ['payload', 220 * MB, 10 * MB, ['success']],
  ];
  for (const [scenario, peakBound, retainedBound, outcomes] of cases) {
    it(`${scenario}: peak growth < ${peakBound / MB} MB, nothing retained`, async () => {
      const f = await probe(scenario);
      console.log(
        `memory ${scenario}: peak RSS +${((f.peak - f.baseline) / MB).toFixed(1)} MB, retained after GC ${(f.retained / MB).toFixed(1)} MB, ${f.rounds} round(s)`,
      );
      expect(f.outcomes).toEqual(outcomes);
      expect(f.peak - f.baseline).toBeLessThan(peakBound);
      expect(f.retained).toBeLessThan(retainedBound);
    });
  }
});
