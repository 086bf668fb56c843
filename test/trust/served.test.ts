/**
 * What the sandbox serves of a reviewed hook's pins (src/trust/served.ts): the checked bytes, read
 * again through one descriptor. A pinned file swapped for a FIFO after its hash must not hold the
 * check (a blocking open would wait for a writer until the host gives up).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { servedPins } from '../../src/trust/served.js';
import { useTempDir } from '../helpers/tmp.js';

const dir = useTempDir('ah-served-');
const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

describe('servedPins', () => {
  it('serves the checked bytes with the file’s mode', async () => {
    const f = dir.write('hooks/g.sh', 'echo ok\n', 0o750);
    const served = await servedPins([{ key: f, record: sha('echo ok\n') }], new Map());
    expect(served).toBeInstanceOf(Map);
    const pin = (served as Map<string, { kind: string; bytes?: Buffer; mode?: number }>).get(f)!;
    expect({ kind: pin.kind, text: pin.bytes?.toString(), mode: (pin.mode ?? 0) & 0o777 }).toEqual({
      kind: 'file',
      text: 'echo ok\n',
      mode: 0o750,
    });
  });

  it('a file whose bytes no longer match its record is refused', async () => {
    const f = dir.write('hooks/g.sh', 'echo swapped\n');
    expect(await servedPins([{ key: f, record: sha('echo ok\n') }], new Map())).toBe(`${f} changed while it was being verified`);
  });

  it('a FIFO in the pinned file’s place is refused at once, not waited on', async () => {
    const f = dir.path('fifo.sh');
    execFileSync('mkfifo', [f]);
    expect(await servedPins([{ key: f, record: sha('echo ok\n') }], new Map())).toBe(`${f} changed while it was being verified`);
  });
});
