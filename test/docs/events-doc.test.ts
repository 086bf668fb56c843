import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

describe('docs/events.md', () => {
  it('is generated from the current catalog (run `npm run docs:events` after changing it)', () => {
    const script = fileURLToPath(new URL('../../scripts/gen-events-doc.mjs', import.meta.url));
    const r = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
