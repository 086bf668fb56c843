/**
 * LoadConfigOptions.readFilesSync reads the settings files in place (the CLI's dispatch and run);
 * what is read, and every failure, must be the same as through the thread pool.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readText } from '../../src/config/settings.js';
import { commandHook, makeFixture, settings, type Fixture } from './helpers.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await makeFixture();
});
afterEach(() => fx.cleanup());

describe('reading settings in place', () => {
  it('readText gives the same answer either way: text, missing, under a file, a directory', async () => {
    const file = await fx.write('a.json', '{"x": "é"}');
    mkdirSync(join(fx.root, 'dir'), { recursive: true });
    const cases = [file, join(fx.root, 'none.json'), `${file}/below.json`, join(fx.root, 'dir')];
    const answers = async (sync: boolean) => Promise.all(cases.map((f) => readText(f, sync)));
    const inPlace = await answers(true);
    expect(inPlace).toEqual(await answers(false));
    expect(inPlace.map((r) => r.status)).toEqual(['ok', 'missing', 'missing', 'error']);
    expect(inPlace[0]).toEqual({ status: 'ok', text: '{"x": "é"}' });
    expect(inPlace[3]).toEqual({ status: 'error', message: 'cannot read file: it is a directory' });
  });

  it('loadConfig reads the same hooks and reports the same problems with readFilesSync', async () => {
    await fx.write(fx.userFile, settings([commandHook('echo user')]));
    await fx.write(fx.projectFile, '{ "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ ');
    await fx.write(fx.localFile, settings([commandHook('echo local')], 'Edit', { unknownKey: 1 }));
    const pooled = await fx.load();
    const inPlace = await fx.load({ readFilesSync: true });
    expect(inPlace.hooks.map((h) => [h.source.kind, h.handler.type === 'command' && h.handler.command])).toEqual([
      ['user', 'echo user'],
      ['local', 'echo local'],
    ]);
    expect(inPlace.hooks).toEqual(pooled.hooks);
    expect(inPlace.diagnostics).toEqual(pooled.diagnostics);
    expect(inPlace.diagnostics.some((d) => d.level === 'error' && d.file === fx.projectFile)).toBe(true);
    expect(inPlace.files).toEqual(pooled.files);
  });
});
