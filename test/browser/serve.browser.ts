/**
 * `agent-hooks serve` in a real browser (Debian's chromium through playwright-core):
 * - standalone: the real CLI process, hook calls through the real `agent-hooks dispatch`;
 *   trust a modified hook on the page and see it run; a stale page cannot trust; pause a
 *   session and see its hooks stop; see a blocked call in the audit view; hook text is never HTML;
 * - embedded: a HookManager in this process; pausing on the page stops the session in the engine.
 * A screenshot of each page goes to test-artifacts/serve/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createHookManager } from '../../src/session/manager.js';
import { startServe } from '../../src/serve/server.js';
import { CLI, SECRETS, serveSandbox, type ServeSandbox } from '../serve/helpers.js';
import { hasChromium, launchBrowser, screenshot, SKIP_MESSAGE, type Browser } from './browser.js';

if (!hasChromium) console.warn(SKIP_MESSAGE);

interface Serve {
  child: ChildProcess;
  url: string;
  openUrl: string;
  /** A page URL with the token, as a first visit (each test stands alone). */
  at(path: string): string;
}

function startCli(sb: ServeSandbox): Promise<Serve> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--workspace', sb.ws, '--audit', sb.audit, '--managed-settings', sb.managed, '--json'],
    {
      env: sb.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        const info = JSON.parse(out.slice(0, nl)) as { url: string; openUrl: string; token: string };
        resolve({ child, url: info.url, openUrl: info.openUrl, at: (path) => `${info.url}${path}?token=${info.token}` });
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

describe.skipIf(!hasChromium)(hasChromium ? 'serve in chromium' : SKIP_MESSAGE, () => {
  let sb: ServeSandbox;
  let serve: Serve;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: `npm run test:browser` builds first');
    sb = serveSandbox('agent-hooks-browser-');
    serve = await startCli(sb);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (serve && serve.child.exitCode === null) {
      const gone = new Promise((r) => serve.child.once('exit', r));
      serve.child.kill('SIGTERM');
      await gone;
    }
    sb?.cleanup();
  });

  it('trusts a modified hook through the page, and the hook runs afterwards', async () => {
    await sb.trustNow();
    sb.settings('v2');
    sb.dispatch('UserPromptSubmit', 'sess-trust');
    expect(sb.markerLines()).toEqual([]); // modified: held back

    const { page, errors } = await browser.page();
    await page.goto(serve.openUrl);
    expect(new URL(page.url()).search).toBe(''); // the token left the address bar for a cookie
    const card = page.locator('section.workspace[data-state="modified"]');
    await card.waitFor();
    const hook = card.locator('.hook', { has: page.locator('.event', { hasText: 'UserPromptSubmit' }) });
    await expect(hook.locator('pre.run').textContent()).resolves.toBe('echo v2 >> "$NOTE_FILE"');
    await expect(hook.locator('[data-badge]').first().textContent()).resolves.toBe('modified');
    const diff = await hook.locator('.diff .line').allTextContents();
    expect(diff).toContain('-    "command": "echo v1 >> \\"$NOTE_FILE\\"",');
    expect(diff).toContain('+    "command": "echo v2 >> \\"$NOTE_FILE\\"",');
    // Word level: only the changed word of the changed line is highlighted.
    expect(await card.locator('.diff .line.del .w-del').first().textContent()).toBe('v1');
    expect(await card.locator('.diff .line.add .w-add').first().textContent()).toBe('v2');
    const pre = card.locator('.hook', { has: page.locator('.event', { hasText: 'PreToolUse' }) });
    await expect(pre.locator('.source').textContent()).resolves.toContain('hooks.PreToolUse[0].hooks[0]');
    const html = await page.content();
    for (const s of Object.values(SECRETS)) expect(html).not.toContain(s);
    await screenshot(page, 'workspaces-modified.png');

    await card.locator('button.trust').click();
    // The confirm step shows what will run before anything is trusted.
    const confirm = card.locator('.confirm');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('echo v2 >> "$NOTE_FILE"');
    expect(await confirm.textContent()).toContain(`digest ${(await sb.state()).digest}`);
    await screenshot(page, 'workspaces-confirm.png');
    expect((await sb.state()).state).toBe('modified');
    await confirm.locator('button.confirm-trust').click();
    await page.locator('section.workspace[data-state="trusted"] .flash.good').waitFor();
    await screenshot(page, 'workspaces-trusted.png');
    expect((await sb.state()).state).toBe('trusted');

    sb.dispatch('UserPromptSubmit', 'sess-trust');
    expect(sb.markerLines()).toEqual(['v2']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses to trust what the page did not show (the config changed after it was loaded)', async () => {
    const trustedBefore = (await sb.state()).trustedDigest;
    sb.settings('v3');
    const { page, errors } = await browser.page();
    await page.goto(serve.at(''));
    const card = page.locator('section.workspace[data-state="modified"]');
    await card.waitFor();
    await card.locator('button.trust').click();
    sb.settings('v4'); // behind the page's back, after the confirm step was shown
    await card.locator('button.confirm-trust').click();
    const flash = page.locator('section.workspace .flash.bad');
    await flash.waitFor();
    expect(await flash.textContent()).toMatch(/changed since they were shown/);
    // The page shows the current config again, v4, still modified.
    await expect(page.locator('section.workspace').getAttribute('data-state')).resolves.toBe('modified');
    expect(await page.locator('pre.run', { hasText: 'echo v4' }).count()).toBe(1);
    expect((await sb.state()).trustedDigest).toBe(trustedBefore);
    expect(errors.filter((e) => !/409/.test(e))).toEqual([]);
    await page.close();
  });

  it('pauses a session on the sessions page: its hooks stop, other sessions run; resume restores it', async () => {
    sb.settings('v5');
    await sb.trustNow();
    const before = sb.markerLines().length;
    sb.dispatch('UserPromptSubmit', 'sess-p');
    sb.dispatch('UserPromptSubmit', 'sess-q');
    expect(sb.markerLines().length).toBe(before + 2);

    const { page, errors } = await browser.page();
    await page.goto(serve.at('sessions'));
    const row = page.locator('tr[data-session="sess-p"]');
    await row.waitFor();
    await expect(row.getAttribute('data-paused')).resolves.toBe('false');
    await row.locator('button.pause-toggle').click();
    await page.locator('tr[data-session="sess-p"][data-paused="true"]').waitFor();
    await expect(page.locator('tr[data-session="sess-p"] [data-badge]').last().textContent()).resolves.toBe('paused');
    await screenshot(page, 'sessions.png');

    const paused = sb.dispatch('UserPromptSubmit', 'sess-p');
    expect(paused.stderr).toMatch(/session sess-p is paused/);
    expect(sb.markerLines().length).toBe(before + 2);
    sb.dispatch('UserPromptSubmit', 'sess-q');
    expect(sb.markerLines().length).toBe(before + 3);

    await page.locator('tr[data-session="sess-p"] button.pause-toggle').click();
    await page.locator('tr[data-session="sess-p"][data-paused="false"]').waitFor();
    sb.dispatch('UserPromptSubmit', 'sess-p');
    expect(sb.markerLines().length).toBe(before + 4);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the confirm step can be cancelled: nothing is trusted', async () => {
    sb.settings('v9');
    const before = (await sb.state()).trustedDigest;
    const { page, errors } = await browser.page();
    await page.goto(serve.at(''));
    const card = page.locator('section.workspace[data-state="modified"]');
    await card.waitFor();
    await card.locator('button.trust').click();
    await card.locator('.confirm button.cancel-trust').click();
    expect(await card.locator('.confirm').count()).toBe(0);
    expect(await card.locator('button.trust').isDisabled()).toBe(false);
    expect((await sb.state()).trustedDigest).toBe(before);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('dark mode follows prefers-color-scheme; the header wraps at narrow widths instead of clipping', async () => {
    const { page, errors } = await browser.page();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(serve.at(''));
    await page.locator('section.workspace').first().waitFor();
    const bg = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(bg).toBe('rgb(13, 17, 23)');
    // A string: the test's tsconfig has no DOM types.
    const header = (await page.evaluate(`(() => {
      const h = document.querySelector('header.top');
      const links = [...h.querySelectorAll('nav a')].map((a) => a.getBoundingClientRect());
      return { scroll: h.scrollWidth, client: h.clientWidth, maxRight: Math.max(...links.map((r) => r.right)), width: window.innerWidth };
    })()`)) as { scroll: number; client: number; maxRight: number; width: number };
    expect(header.scroll).toBeLessThanOrEqual(header.client);
    expect(header.maxRight).toBeLessThanOrEqual(header.width);
    await screenshot(page, 'workspaces-dark-narrow.png');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(246, 247, 249)');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a session gets its own timeline, in time order across events', async () => {
    await sb.trustNow();
    sb.dispatch('UserPromptSubmit', 'sess-order');
    sb.dispatch('PreToolUse', 'sess-order', 'ls');
    sb.dispatch('UserPromptSubmit', 'sess-order');
    const { page, errors } = await browser.page();
    await page.goto(serve.at('audit'));
    await page.selectOption('#filter-session', 'sess-order');
    const tl = page.locator('.timeline-session[data-session="sess-order"]');
    await tl.waitFor();
    expect(await tl.locator('h4').textContent()).toContain('Session sess-order, in time order');
    expect(await Promise.all((await tl.locator('.firing').all()).map((f) => f.getAttribute('data-event')))).toEqual([
      'UserPromptSubmit',
      'PreToolUse',
      'UserPromptSubmit',
    ]);
    await screenshot(page, 'audit-session-timeline.png');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('pages the audit table: "showing 200 of N" and more on request', async () => {
    await sb.trustNow();
    sb.dispatch('PreToolUse', 'sess-page', 'ls');
    const lines = readFileSync(sb.audit, 'utf8').trim().split('\n');
    const last = JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
    const extra = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({ ...last, session_id: 'sess-page', ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() }),
    );
    appendFileSync(sb.audit, `${extra.join('\n')}\n`);
    const total = readFileSync(sb.audit, 'utf8')
      .trim()
      .split('\n')
      .filter((l) => JSON.parse(l).session_id === 'sess-page').length;
    expect(total).toBeGreaterThan(300);
    const { page, errors } = await browser.page();
    await page.goto(serve.at('audit'));
    await page.selectOption('#filter-session', 'sess-page');
    const showing = page.locator('.paging .showing');
    await expect.poll(() => showing.textContent()).toBe(`showing 200 of ${total}`);
    expect(await page.locator('table.entries tbody tr').count()).toBe(200);
    await page.locator('.paging button.more').click();
    await expect.poll(() => page.locator('table.entries tbody tr').count()).toBe(Math.min(total, 400));
    await screenshot(page, 'audit-paging.png');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a blocked call in the audit view, in the table and on the timeline', async () => {
    await sb.trustNow();
    sb.dispatch('PreToolUse', 'sess-audit', 'ls -la');
    const denied = sb.dispatch('PreToolUse', 'sess-audit', 'rm -rf build');
    expect(denied.stdout).toMatch(/"permissionDecision":"deny"/);

    const { page, errors } = await browser.page();
    await page.goto(serve.at('audit'));
    await page.locator('table.entries tr[data-blocked="true"]').first().waitFor();
    await page.locator('.timeline-event[data-event="PreToolUse"] .firing[data-blocked="true"] .bar.blocked').first().waitFor();
    await screenshot(page, 'audit.png');

    // This session's blocked call (earlier cases of this file leave blocked calls of their own:
    // a guard changed after review now fails closed instead of being skipped).
    await page.selectOption('#filter-session', 'sess-audit');
    await page.selectOption('#filter-outcome', 'blocked');
    await page.waitForURL(/outcome=blocked/);
    await page.locator('table.entries').waitFor();
    await expect.poll(() => page.locator('table.entries tbody tr').count()).toBe(1);
    const row = page.locator('table.entries tbody tr');
    expect(await row.textContent()).toContain('rm -rf is not allowed');
    expect(await row.getAttribute('data-blocked')).toBe('true');
    await expect.poll(() => page.locator('.firing').count()).toBe(1);
    await screenshot(page, 'audit-blocked.png');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('renders hook text as text, never as HTML', async () => {
    const hostile = `echo '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'`;
    sb.settings('v6', { Stop: [{ hooks: [{ type: 'command', command: hostile }] }] });
    const { page, errors } = await browser.page();
    await page.goto(serve.at(''));
    const pre = page.locator('pre.run', { hasText: '<img' });
    await pre.waitFor();
    expect(await pre.textContent()).toBe(hostile);
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('embedded in a host: pausing on the page stops the session in the HookManager', async () => {
    await sb.trustNow().catch(() => undefined);
    sb.settings('v7');
    const digest = await sb.trustNow();
    expect(digest).toMatch(/^sha256:/);
    const loadOptions = (dir: string) => ({ cwd: dir, projectDir: dir, homeDir: sb.home, managedSettingsPath: sb.managed });
    const manager = createHookManager({
      loadOptions,
      trust: { storePath: sb.store, homeDir: sb.home },
      engineOptions: { homeDir: sb.home, audit: sb.audit },
    });
    const srv = await startServe({
      manager,
      loadOptions,
      trust: { storePath: sb.store, homeDir: sb.home },
      auditFile: sb.audit,
      storeWorkspaces: false,
    });
    try {
      const session = await manager.bindSession({ sessionId: 'host-1', projectDir: sb.ws });
      const prompt = { prompt: 'hi', transcript_path: '', permission_mode: 'default' };
      expect((await session.run('UserPromptSubmit', prompt)).hooks).toHaveLength(1);

      const { page, errors } = await browser.page();
      await page.goto(`${srv.openUrl}`);
      await page.locator('section.workspace[data-state="trusted"]').waitFor();
      await page.goto(`${srv.url}sessions`);
      await page.locator('tr[data-session="host-1"] button.pause-toggle').click();
      await page.locator('tr[data-session="host-1"][data-paused="true"]').waitFor();
      await screenshot(page, 'sessions-host.png');
      expect(session.paused).toBe(true);
      const before = sb.markerLines().length;
      expect((await session.run('UserPromptSubmit', prompt)).hooks).toEqual([]);
      expect(sb.markerLines().length).toBe(before);

      await page.locator('tr[data-session="host-1"] button.pause-toggle').click();
      await page.locator('tr[data-session="host-1"][data-paused="false"]').waitFor();
      expect((await session.run('UserPromptSubmit', prompt)).hooks).toHaveLength(1);
      expect(sb.markerLines().length).toBe(before + 1);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await srv.close();
      await manager.close();
    }
  });
});
