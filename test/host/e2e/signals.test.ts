/** SessionEnd on SIGINT/SIGTERM: a real host session in a child process (the built dist). */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hook, hostSandbox, type HostSandbox } from '../helpers.js';

const SCRIPT = fileURLToPath(new URL('../fixtures/signal-session.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../../../dist/host/index.js', import.meta.url));

let sb: HostSandbox;
beforeAll(() => {
  if (!existsSync(DIST)) throw new Error('dist/host is missing: run `npm run build` first (npm test does)');
});
beforeEach(() => {
  sb = hostSandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

async function endBy(signal: 'SIGINT' | 'SIGTERM') {
  const child = spawn(process.execPath, [SCRIPT, sb.ws, sb.home], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('session did not start')), 10_000);
      child.stdout.on('data', () => {
        if (!out.includes('ready')) return;
        clearTimeout(t);
        resolve();
      });
    });
    child.kill(signal);
    return await exited;
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

describe('graceful shutdown', () => {
  it('SIGTERM runs SessionEnd, then the process exits with 143', async () => {
    sb.settings({ SessionEnd: [{ hooks: [hook(sb.log)] }] });
    expect(await endBy('SIGTERM')).toBe(143);
    expect(sb.entries().map((e) => [e.hook_event_name, e.reason])).toEqual([['SessionEnd', 'other']]);
  });

  it('SIGINT runs SessionEnd, then the process exits with 130', async () => {
    sb.settings({ SessionEnd: [{ hooks: [hook(sb.log)] }] });
    expect(await endBy('SIGINT')).toBe(130);
    expect(sb.events()).toEqual(['SessionEnd']);
  });
});
