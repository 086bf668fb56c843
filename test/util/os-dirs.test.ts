import os from 'node:os';
import { afterEach, expect, test } from 'vitest';
import { tempDir, userHome } from '../../src/util/os-dirs.js';

const saved = process.env.HOME;
afterEach(() => {
  if (saved === undefined) delete process.env.HOME;
  else process.env.HOME = saved;
});

test('userHome is os.homedir(): $HOME when set (even empty), the user database when not', () => {
  for (const home of ['/some/where', '', '/with space/and-ü']) {
    process.env.HOME = home;
    expect(userHome()).toBe(os.homedir());
    // Windows takes the home from other variables (os.homedir() there).
    if (process.platform !== 'win32') expect(userHome()).toBe(home);
  }
  delete process.env.HOME;
  // Asked of the user database, as os.homedir() does without the variable.
  expect(userHome()).toBe(os.homedir());
  expect(userHome().length).toBeGreaterThan(0);
});

test('tempDir is os.tmpdir()', () => {
  expect(tempDir()).toBe(os.tmpdir());
});
