/**
 * src/util/uuid.ts: version 4 UUIDs from /dev/urandom, and from Web Crypto where the device
 * cannot be read. The fallback is run for real, in a child process that reports win32.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, vi } from 'vitest';
import { randomUUID } from '../../src/util/uuid.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('ids are RFC 9562 version 4, lower-case, and unique across many pool refills', () => {
  const web = vi.spyOn(globalThis.crypto, 'randomUUID');
  const ids = Array.from({ length: 5000 }, () => randomUUID());
  // Here the bytes came from /dev/urandom, not from the fallback.
  if (process.platform !== 'win32') expect(web).not.toHaveBeenCalled();
  web.mockRestore();
  for (const id of ids) expect(id).toMatch(V4);
  expect(new Set(ids).size).toBe(ids.length);
});

test('the random bits vary in every position a version 4 id leaves random', () => {
  // Over 2,000 ids each hex digit outside the version and variant nibbles takes many values;
  // a pool that was not refilled, or bytes read once and reused, would repeat them.
  const ids = Array.from({ length: 2000 }, () => randomUUID().replaceAll('-', ''));
  for (let i = 0; i < 32; i++) {
    const seen = new Set(ids.map((id) => id[i]));
    if (i === 12) expect([...seen]).toEqual(['4']);
    else if (i === 16) expect([...seen].every((c) => '89ab'.includes(c!))).toBe(true);
    else expect(seen.size, `digit ${i}`).toBeGreaterThan(12);
  }
});

test('without /dev/urandom (Windows) the ids come from Web Crypto, still version 4', () => {
  // The built module (npm test builds first): a child process of Node 20 cannot import TypeScript.
  const module = fileURLToPath(new URL('../../dist/util/uuid.js', import.meta.url));
  const script = `Object.defineProperty(process, 'platform', { value: 'win32' });
let used = 0;
const web = globalThis.crypto.randomUUID.bind(globalThis.crypto);
globalThis.crypto.randomUUID = () => (used++, web());
const { randomUUID } = await import(${JSON.stringify(module)});
console.log(JSON.stringify({ ids: [randomUUID(), randomUUID()], used }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  const { ids, used } = JSON.parse(r.stdout) as { ids: string[]; used: number };
  expect(used).toBe(2);
  for (const id of ids) expect(id).toMatch(V4);
  expect(ids[0]).not.toBe(ids[1]);
});

test('a long-lived process reads the device in growing blocks, not once per sixteen ids', () => {
  // Count the opens of the built module in a child whose fs.openSync is wrapped (and synced to
  // the named export the module imports).
  const module = fileURLToPath(new URL('../../dist/util/uuid.js', import.meta.url));
  const script = `import fs from 'node:fs';
let opens = 0;
const open = fs.openSync;
fs.openSync = (...a) => (String(a[0]) === '/dev/urandom' && opens++, open(...a));
(await import('node:module')).syncBuiltinESMExports();
const { randomUUID } = await import(${JSON.stringify(module)});
const ids = new Set();
for (let i = 0; i < 20000; i++) ids.add(randomUUID());
console.log(JSON.stringify({ opens, unique: ids.size }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  const { opens, unique } = JSON.parse(r.stdout) as { opens: number; unique: number };
  expect(unique).toBe(20000);
  // 16, 32, …, 4096 ids per read: 9 reads reach 8,176 ids, then 3 more of 4,096.
  expect(opens).toBeLessThanOrEqual(12);
  expect(opens).toBeGreaterThan(1);
});

test('a device that fails after the pool grew hands out no byte of the unread pool', () => {
  // The first reads succeed, then every read fails: the ids after that come from Web Crypto,
  // never from the zeros of a pool that was grown and not filled.
  const module = fileURLToPath(new URL('../../dist/util/uuid.js', import.meta.url));
  const script = `import fs from 'node:fs';
let reads = 0;
const read = fs.readSync;
fs.readSync = (...a) => (++reads > 2 ? 0 : read(...a));
(await import('node:module')).syncBuiltinESMExports();
let web = 0;
const webUUID = globalThis.crypto.randomUUID.bind(globalThis.crypto);
globalThis.crypto.randomUUID = () => (web++, webUUID());
const { randomUUID } = await import(${JSON.stringify(module)});
const ids = Array.from({ length: 200 }, () => randomUUID());
console.log(JSON.stringify({ ids, web }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  const { ids, web } = JSON.parse(r.stdout) as { ids: string[]; web: number };
  // 16 + 32 ids from the two reads, the rest from Web Crypto.
  expect(web).toBe(200 - 48);
  for (const id of ids) expect(id).toMatch(V4);
  expect(ids.some((id) => id.startsWith('00000000'))).toBe(false);
  expect(new Set(ids).size).toBe(ids.length);
});
