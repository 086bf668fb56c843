/** The pieces of serve on their own: pause file, audit grouping, redaction, script copies, the page script. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { defaultPauseFilePath, isSessionPaused, readPauseFile, setSessionPaused } from '../../src/session/pause-file.js';
import { groupFirings, queryAudit, type AuditEntryView } from '../../src/serve/audit.js';
import { HIDDEN, redactHandler, redactUrl, showableScript } from '../../src/serve/redact.js';
import { redactChange } from '../../src/serve/redact.js';
import { keepScriptCopies, readScriptCopy } from '../../src/serve/script-copies.js';
import { APP_JS } from '../../src/serve/page/app.js';
import { STYLE_CSS } from '../../src/serve/page/style.js';
import { pageHtml } from '../../src/serve/page/html.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir('agent-hooks-serve-unit-');
});
afterEach(() => dir.cleanup());

describe('pause file', () => {
  it('lives next to the trust store unless named', () => {
    expect(defaultPauseFilePath({ AGENT_HOOKS_PAUSE_FILE: '/x/p.json' }, '/h')).toBe('/x/p.json');
    expect(defaultPauseFilePath({ AGENT_HOOKS_TRUST_STORE: '/s/trust.json' }, '/h')).toBe('/s/paused-sessions.json');
    expect(defaultPauseFilePath({ XDG_CONFIG_HOME: '/xdg' }, '/h')).toBe('/xdg/agent-hooks/paused-sessions.json');
    expect(defaultPauseFilePath({}, '/h')).toBe('/h/.config/agent-hooks/paused-sessions.json');
  });

  it('pauses and resumes; a missing file pauses nothing; the file is 0600', async () => {
    const file = dir.path('cfg', 'paused.json');
    expect(isSessionPaused('a', file)).toEqual({ paused: false });
    await setSessionPaused('a', true, { file, projectDir: '/p' });
    await setSessionPaused('__proto__', true, { file });
    expect(isSessionPaused('a', file).paused).toBe(true);
    expect(isSessionPaused('__proto__', file).paused).toBe(true);
    expect(isSessionPaused('constructor', file).paused).toBe(false);
    expect(readPauseFile(file).data.sessions.a).toMatchObject({ projectDir: '/p' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await setSessionPaused('a', false, { file });
    expect(isSessionPaused('a', file).paused).toBe(false);
  });

  it('concurrent writers lose no update', async () => {
    const file = dir.path('paused.json');
    await Promise.all(Array.from({ length: 12 }, (_, i) => setSessionPaused(`s${i}`, true, { file })));
    expect(Object.keys(readPauseFile(file).data.sessions)).toHaveLength(12);
  });

  it('drops entries older than 30 days on write', async () => {
    const file = dir.path('paused.json');
    await setSessionPaused('old', true, { file, now: new Date('2020-01-01T00:00:00Z') });
    await setSessionPaused('new', true, { file, now: new Date('2020-03-01T00:00:00Z') });
    expect(Object.keys(readPauseFile(file).data.sessions)).toEqual(['new']);
  });

  it('ignores (pauses nothing) a world-writable, symlinked or malformed file, and refuses to write it', async () => {
    const file = dir.path('paused.json');
    await setSessionPaused('a', true, { file });
    chmodSync(file, 0o666);
    expect(isSessionPaused('a', file)).toMatchObject({ paused: false, error: expect.stringMatching(/world-writable/) });
    await expect(setSessionPaused('b', true, { file })).rejects.toThrow(/world-writable/);
    chmodSync(file, 0o600);
    const link = dir.path('link.json');
    symlinkSync(file, link);
    expect(isSessionPaused('a', link)).toMatchObject({ paused: false, error: expect.stringMatching(/symlink/) });
    writeFileSync(file, '{"version":1,"sessions":{"a":{}}}');
    expect(isSessionPaused('a', file)).toMatchObject({ paused: false, error: expect.stringMatching(/pausedAt/) });
    writeFileSync(file, 'not json');
    expect(isSessionPaused('a', file).error).toMatch(/unusable/);
  });
});

const entry = (over: Partial<AuditEntryView> & { ts: string; durationMs: number }): AuditEntryView => ({
  session_id: 's',
  event: 'PreToolUse',
  tool_name: 'Bash',
  hook: 'h',
  type: 'command',
  source: { kind: 'project', path: 'hooks.PreToolUse[0].hooks[0]' },
  outcome: 'success',
  exitCode: 0,
  blocked: false,
  ...over,
});

describe('audit timeline', () => {
  it('chains serial hooks of one firing and separates the next firing', () => {
    const groups = groupFirings([
      entry({ ts: '2026-01-01T00:00:00.100Z', durationMs: 100, hook: 'a' }),
      entry({ ts: '2026-01-01T00:00:00.150Z', durationMs: 50, hook: 'b' }),
      entry({ ts: '2026-01-01T00:00:05.000Z', durationMs: 20, hook: 'c' }),
    ]);
    expect(groups.map((g) => g.members.map((m) => m.hook))).toEqual([['a', 'b'], ['c']]);
    expect(groups[0]!.firing).toMatchObject({ order: 'serial', start: '2026-01-01T00:00:00.000Z', durationMs: 150 });
    expect(groups[0]!.firing.bars.map((b) => b.offsetMs)).toEqual([0, 100]);
  });

  it('draws parallel hooks from the firing start (they are recorded together at the end)', () => {
    const groups = groupFirings([
      entry({ event: 'UserPromptSubmit', tool_name: undefined, ts: '2026-01-01T00:00:01.000Z', durationMs: 300, hook: 'a' }),
      entry({
        event: 'UserPromptSubmit',
        tool_name: undefined,
        ts: '2026-01-01T00:00:01.001Z',
        durationMs: 20,
        hook: 'b',
        outcome: 'error',
      }),
      entry({
        event: 'UserPromptSubmit',
        tool_name: undefined,
        session_id: 'other',
        ts: '2026-01-01T00:00:01.000Z',
        durationMs: 5,
        hook: 'c',
      }),
    ]);
    const mine = groups.find((g) => g.firing.session_id === 's')!;
    expect(mine.firing).toMatchObject({ order: 'parallel', durationMs: 300 });
    expect(mine.firing.bars.map((b) => [b.hook, b.offsetMs, b.durationMs])).toEqual([
      ['a', 0, 300],
      ['b', 0, 20],
    ]);
    expect(groups).toHaveLength(2);
  });

  it('reads a log with garbage lines, a missing log, and only the tail of a huge log', async () => {
    const file = dir.path('audit.jsonl');
    expect((await queryAudit(file)).total).toBe(0);
    const line = (i: number) =>
      JSON.stringify({
        ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        session_id: 's',
        event: 'Stop',
        outcome: 'success',
        durationMs: 1,
        id: `h${i}`,
      });
    writeFileSync(file, ['[]', '{"ts":1}', 'garbage', ...Array.from({ length: 50 }, (_, i) => line(i))].join('\n'));
    const all = await queryAudit(file);
    expect(all).toMatchObject({ total: 50, malformed: 3, skippedBytes: 0 });
    const tail = await queryAudit(file, {}, 500);
    expect(tail.skippedBytes).toBeGreaterThan(0);
    expect(tail.total).toBeLessThan(50);
    expect(tail.entries[0]!.hook).toBe('h49');
    expect((await queryAudit(dir.root)).error).toMatch(/not a regular file/);
  });
});

describe('redaction', () => {
  it('hides env and header values and URL passwords, keeps names', () => {
    const h = redactHandler({
      type: 'http',
      url: 'https://u:pw@h.example/x',
      headers: { A: 'secret' },
      allowedEnvVars: ['T'],
      fn: () => 1,
    });
    expect(h).toEqual({ type: 'http', url: `https://u:${HIDDEN}@h.example/x`, headers: { A: HIDDEN }, allowedEnvVars: ['T'] });
    expect(redactUrl('https://u@h.example/')).toBe('https://u@h.example/');
    expect(redactUrl('not a url')).toBe('not a url');
    expect(redactHandler({ type: 'command', command: 'x', env: { K: 'v' } })).toEqual({
      type: 'command',
      command: 'x',
      env: { K: HIDDEN },
    });
  });

  it('hides secret values in field changes', () => {
    expect(redactChange({ kind: 'config', field: 'handler.env.K', before: 'a', after: 'b' })).toMatchObject({
      before: HIDDEN,
      after: HIDDEN,
    });
    expect(redactChange({ kind: 'config', field: 'handler.headers', after: { A: 'x' } })).toMatchObject({ after: { A: HIDDEN } });
    expect(redactChange({ kind: 'config', field: 'handler.url', before: 'https://a:b@c/', after: 'https://c/' }).before).toBe(
      `https://a:${HIDDEN}@c/`,
    );
    expect(redactChange({ kind: 'config', field: 'handler', before: { env: { K: 'v' } } }).before).toEqual({ env: { K: HIDDEN } });
    expect(redactChange({ kind: 'config', field: 'handler.timeout', before: 1, after: 2 })).toMatchObject({ before: 1, after: 2 });
  });

  it('shows script content only inside the workspace and not for secret-looking files', () => {
    expect(showableScript('/w/hooks/a.sh', '/w')).toBe(true);
    expect(showableScript('/etc/passwd', '/w')).toBe(false);
    expect(showableScript('/w/../x.sh', '/w')).toBe(false);
    for (const f of ['/w/.env', '/w/.env.local', '/w/id_rsa', '/w/k.pem', '/w/aws-credentials', '/w/.git/config', '/w/my-token.txt'])
      expect(showableScript(f, '/w')).toBe(false);
  });
});

describe('script copies', () => {
  it('keeps verified copies of the recorded content only', async () => {
    const { createHash } = await import('node:crypto');
    const copies = dir.path('copies');
    const a = dir.write('w/a.sh', 'echo a\n');
    const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;
    const n = await keepScriptCopies(
      {
        scripts: [
          { path: a, current: sha('echo a\n') },
          { path: dir.write('w/b.sh', 'now\n'), current: sha('then\n') },
        ],
      },
      copies,
    );
    expect(n).toBe(1);
    expect(readdirSync(copies)).toEqual([sha('echo a\n').slice(7)]);
    expect((await readScriptCopy(sha('echo a\n'), copies))?.toString()).toBe('echo a\n');
    // A tampered copy is not used.
    writeFileSync(`${copies}/${sha('echo a\n').slice(7)}`, 'evil\n');
    expect(await readScriptCopy(sha('echo a\n'), copies)).toBeUndefined();
    expect(await readScriptCopy('sha256:../../etc/passwd', copies)).toBeUndefined();
    expect(existsSync(dir.path('copies'))).toBe(true);
  });
});

describe('page assets', () => {
  it('the page script compiles and renders nothing as HTML', () => {
    expect(() => new Script(APP_JS)).not.toThrow();
    expect(APP_JS).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
    expect(STYLE_CSS).toContain('.badge.modified');
  });

  it('the shell escapes the token attribute', () => {
    expect(pageHtml('a"<b>')).toContain('content="a&quot;&lt;b&gt;"');
  });
});
