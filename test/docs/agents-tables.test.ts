import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

describe('docs/dialects.md agents tables', () => {
  it('match the committed real-agents results (run `npm run docs:agents` after `npm run test:agents`)', () => {
    const script = fileURLToPath(new URL('../../scripts/gen-agents-tables.mjs', import.meta.url));
    const r = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
