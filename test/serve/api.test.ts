// biome-ignore-all lint/suspicious/noExplicitAny: the API's bodies are untyped JSON (json(): any), read field by field; their callbacks take any
/**
 * The serve API over real HTTP on 127.0.0.1: the request guard (Host, Origin, token, same-origin
 * for state changes), the workspace views (secrets never served), trust/revoke with expected
 * digests, pause through the pause file (honoured by the real `agent-hooks dispatch`), the audit
 * log.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { startServe, type RunningServe } from '../../src/serve/server.js';
import { readPauseFile } from '../../src/session/pause-file.js';
import { apiClient, CLI, rawRequest, SECRETS, serveSandbox, type ServeSandbox } from './helpers.js';

let sb: ServeSandbox;
let srv: RunningServe;
let api: ReturnType<typeof apiClient>;

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm test does)');
});
beforeEach(async () => {
  sb = serveSandbox();
  srv = await startServe(sb.serveOptions());
  api = apiClient(srv.url, srv.token);
});
afterEach(async () => {
  await srv.close();
  sb.cleanup();
});

describe('binding and the request guard', () => {
  it('binds 127.0.0.1 by default, on the port it reports', () => {
    expect(srv.host).toBe('127.0.0.1');
    expect(srv.loopback).toBe(true);
    expect(srv.server.address()).toMatchObject({ address: '127.0.0.1', port: srv.port });
    expect(srv.url).toBe(`http://127.0.0.1:${srv.port}/`);
    expect(srv.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses requests without the token, or with a wrong one', async () => {
    expect((await rawRequest(srv.url, '/api/workspaces')).status).toBe(401);
    expect((await rawRequest(srv.url, '/api/workspaces', { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await rawRequest(srv.url, '/api/workspaces', { headers: { cookie: 'agent_hooks_token=nope' } })).status).toBe(401);
    const page = await rawRequest(srv.url, '/');
    expect(page.status).toBe(401);
    expect(page.text).toContain('access token');
    expect(page.text).not.toContain(srv.token);
    expect((await rawRequest(srv.url, '/?token=wrong')).status).toBe(401);
    expect((await rawRequest(srv.url, '/assets/app.js')).status).toBe(401);
  });

  it('refuses a wrong Host header (DNS rebinding) even with the token, and an absolute-form target naming another host', async () => {
    const wrongHost = await api.get('/api/workspaces', { host: `attacker.example:${srv.port}` });
    expect(wrongHost.status).toBe(403);
    expect(wrongHost.json().error).toMatch(/host not allowed/);
    expect((await api.get('/api/workspaces', { host: `127.0.0.1:${srv.port + 1}` })).status).toBe(403);
    expect((await api.get('/api/workspaces', { host: '127.0.0.1' })).status).toBe(403);
    const absolute = await rawRequest(srv.url, `http://attacker.example:${srv.port}/api/workspaces`, {
      headers: { authorization: `Bearer ${srv.token}` },
    });
    expect(absolute.status).toBe(403);
    // localhost under the bound port is the same server.
    expect((await api.get('/api/info', { host: `localhost:${srv.port}` })).status).toBe(200);
  });

  it('refuses a foreign Origin and cross-site fetches, and offers no CORS', async () => {
    const foreign = await api.get('/api/workspaces', { origin: 'http://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.json().error).toMatch(/cross-origin/);
    expect((await api.get('/api/workspaces', { origin: `http://localhost:${srv.port + 1}` })).status).toBe(403);
    expect((await api.get('/api/workspaces', { origin: 'null' })).status).toBe(403);
    expect((await api.get('/api/workspaces', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await api.get('/api/workspaces', { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await api.get('/api/workspaces', { origin: srv.url.replace(/\/$/, ''), 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    const preflight = await rawRequest(srv.url, '/api/trust', {
      method: 'OPTIONS',
      headers: { origin: 'http://attacker.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('first visit with ?token= sets an HttpOnly SameSite=Strict cookie and redirects; the cookie then authorizes reads only', async () => {
    const first = await rawRequest(srv.url, `/sessions?token=${srv.token}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/sessions');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/agent_hooks_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const pair = cookie.split(';')[0]!;

    const page = await rawRequest(srv.url, '/', { headers: { cookie: pair } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect((await rawRequest(srv.url, '/api/workspaces', { headers: { cookie: pair } })).status).toBe(200);

    // A state change riding on the ambient cookie alone is refused, even same-origin.
    const origin = srv.url.replace(/\/$/, '');
    const viaCookie = await rawRequest(srv.url, '/api/sessions/pause', {
      method: 'POST',
      headers: { cookie: pair, origin, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 's1', paused: true }),
    });
    expect(viaCookie.status).toBe(403);
    expect(readPauseFile(sb.pauseFile).data.sessions).toEqual({});
  });

  it('state-changing requests need the bearer token, JSON, and a same-origin Origin (or none from a non-browser client)', async () => {
    const body = { id: 's1', paused: true };
    expect((await api.post('/api/sessions/pause', body, { origin: 'http://attacker.example' })).status).toBe(403);
    expect((await api.post('/api/sessions/pause', body, { 'content-type': 'text/plain' })).status).toBe(415);
    // A browser (Sec-Fetch-* present) must send Origin.
    const noOrigin = await rawRequest(srv.url, '/api/sessions/pause', {
      method: 'POST',
      headers: { authorization: `Bearer ${srv.token}`, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify(body),
    });
    expect(noOrigin.status).toBe(403);
    const noToken = await rawRequest(srv.url, '/api/sessions/pause', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: srv.url.replace(/\/$/, '') },
      body: JSON.stringify(body),
    });
    expect(noToken.status).toBe(401);
    expect(readPauseFile(sb.pauseFile).data.sessions).toEqual({});
    // A script with the token and no browser headers is fine.
    const script = await rawRequest(srv.url, '/api/sessions/pause', {
      method: 'POST',
      headers: { authorization: `Bearer ${srv.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(script.status).toBe(200);
    expect(Object.keys(readPauseFile(sb.pauseFile).data.sessions)).toEqual(['s1']);
  });

  it('rejects malformed bodies and unknown routes with clear errors', async () => {
    const bad = await rawRequest(srv.url, '/api/trust', {
      method: 'POST',
      headers: { authorization: `Bearer ${srv.token}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(bad.status).toBe(400);
    expect(bad.json().error).toMatch(/not valid JSON/);
    const digest = await api.post('/api/trust', { dir: sb.ws, digest: 'sha256:abc' });
    expect(digest.status).toBe(400);
    expect(digest.json().error).toMatch(/digest/);
    expect((await api.post('/api/trust', { dir: sb.ws, digest: `sha256:${'0'.repeat(64)}`, extra: 1 })).status).toBe(400);
    expect((await api.get('/api/nope')).status).toBe(404);
    const big = await api.post('/api/sessions/pause', { id: 'x'.repeat(100_000), paused: true });
    expect(big.status).toBe(413);
  });
});

describe('workspaces, trust and revoke', () => {
  it('lists each hook with source, event, matcher, type, exact command and state; never a secret', async () => {
    const res = await api.get('/api/workspaces');
    expect(res.status).toBe(200);
    for (const s of Object.values(SECRETS)) expect(res.text).not.toContain(s);
    const [w] = res.json().workspaces;
    expect(w.dir).toBe(sb.ws);
    expect(w.state).toBe('untrusted');
    expect(w.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const pre = w.hooks.find((h: any) => h.event === 'PreToolUse');
    expect(pre).toMatchObject({
      matcher: 'Bash',
      type: 'command',
      needsTrust: true,
      state: 'untrusted',
      // Not switched off ("enabled": false would show as false, with a "disabled" badge).
      enabled: true,
      run: { kind: 'command', text: 'sh "${CLAUDE_PROJECT_DIR}/hooks/guard.sh"' },
      source: { kind: 'project', file: `${sb.ws}/.claude/settings.json`, path: 'hooks.PreToolUse[0].hooks[0]' },
      details: { timeout: 5, env: { API_TOKEN: '«hidden»' } },
    });
    const http = w.hooks.find((h: any) => h.type === 'http');
    expect(http.run.text).toBe('https://reviewer:«hidden»@hooks.example.invalid/notify');
    expect(http.details.headers).toEqual({ Authorization: '«hidden»' });
    // Never trusted: the script is shown whole, as added lines.
    const script = w.scripts.find((s: any) => s.path.endsWith('guard.sh'));
    expect(script.changed).toBe(true);
    expect(script.diff.hunks[0].lines).toContain('+  *"rm -rf"*) echo "rm -rf is not allowed" >&2; exit 2;;');
  });

  it('shows what changed since the last trust: field changes, a config diff and a script diff — secrets hidden in all of them', async () => {
    await sb.trustNow();
    // serve sees the trusted state once and keeps the trusted script content for later diffs.
    expect((await api.get('/api/workspaces')).json().workspaces[0].state).toBe('trusted');
    sb.settings('v2');
    const cfgPath = `${sb.ws}/.claude/settings.json`;
    writeFileSync(
      cfgPath,
      readFileSync(cfgPath, 'utf8').replace(SECRETS.env, `${SECRETS.env}-rotated`).replace('"timeout": 5', '"timeout": 9'),
    );
    sb.guard('  *"git push --force"*) echo "no force-push" >&2; exit 2;;');

    const res = await api.get(`/api/workspace?dir=${encodeURIComponent(sb.ws)}`);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(SECRETS.env);
    const w = res.json();
    expect(w.state).toBe('modified');
    expect(w.trustedDigest).not.toBe(w.digest);
    const pre = w.hooks.find((h: any) => h.event === 'PreToolUse');
    const descriptions = pre.changes.map((c: any) => c.description);
    expect(descriptions).toContain('handler.timeout: 5 → 9');
    expect(descriptions).toContain('handler.env.API_TOKEN: "«hidden»" → "«hidden»"');
    expect(descriptions.some((d: string) => d.startsWith('script ') && d.includes('guard.sh'))).toBe(true);
    const lines = pre.diff.hunks.flatMap((h: any) => h.lines);
    expect(lines).toContain('-    "timeout": 5,');
    expect(lines).toContain('+    "timeout": 9,');
    const ups = w.hooks.find((h: any) => h.event === 'UserPromptSubmit');
    expect(ups.diff.hunks.flatMap((h: any) => h.lines)).toEqual(
      expect.arrayContaining(['-    "command": "echo v1 >> \\"$NOTE_FILE\\"",', '+    "command": "echo v2 >> \\"$NOTE_FILE\\"",']),
    );
    const script = w.scripts.find((s: any) => s.path.endsWith('guard.sh'));
    expect(script.diff.hunks.flatMap((h: any) => h.lines)).toContain('+  *"git push --force"*) echo "no force-push" >&2; exit 2;;');
    expect(w.configDiff.added).toBeGreaterThan(0);
  });

  it('never shows the content of a referenced file outside the workspace', async () => {
    const secretFile = sb.dir.write('home/.aws-keys.txt', 'AWS_SECRET=very-secret-key\n');
    sb.settings('v1', { Stop: [{ hooks: [{ type: 'command', command: `cat ${secretFile}` }] }] });
    const res = await api.get('/api/workspaces');
    expect(res.text).not.toContain('very-secret-key');
    const s = res.json().workspaces[0].scripts.find((x: any) => x.path === secretFile);
    expect(s.diff).toBeUndefined();
    expect(s.note).toMatch(/outside the workspace/);
  });

  it('an in-repo script that is a symlink to ~/.aws/credentials shows only a hash', async () => {
    const creds = sb.dir.write('home/.aws/credentials', '[default]\naws_secret_access_key=AKIA-very-secret\n');
    symlinkSync(creds, `${sb.ws}/hooks/setup.sh`);
    sb.settings('v1', { Stop: [{ hooks: [{ type: 'command', command: 'sh hooks/setup.sh' }] }] });
    const res = await api.get('/api/workspaces');
    expect(res.text).not.toContain('AKIA-very-secret');
    const scripts = res.json().workspaces[0].scripts as Array<{ path: string; current: string; diff?: unknown; note?: string }>;
    const link = scripts.find((x) => x.path === `${sb.ws}/hooks/setup.sh`)!;
    expect(link.current).toBe(`symlink:${realpathSync(creds)}`);
    expect(link.diff).toBeUndefined();
    const target = scripts.find((x) => x.path === realpathSync(creds))!;
    expect(target.current).toMatch(/^sha256:/);
    expect(target.diff).toBeUndefined();
    expect(target.note).toMatch(/content not shown/);
  });

  it('an unpinned hook is trusted only with allowUnpinned: true', async () => {
    sb.settings('v1', { Stop: [{ hooks: [{ type: 'command', command: 'npm run check' }] }] });
    const w = (await api.get('/api/workspaces')).json().workspaces[0];
    expect(w.unpinned).toHaveLength(1);
    expect(w.hooks.find((h: any) => h.event === 'Stop').unpinned[0]).toMatch(/npm run/);
    const refused = await api.post('/api/trust', { dir: sb.ws, digest: w.digest });
    expect(refused.status).toBe(409);
    expect(refused.json().error).toMatch(/unpinned/);
    const ok = await api.post('/api/trust', { dir: sb.ws, digest: w.digest, allowUnpinned: true });
    expect(ok.status).toBe(200);
    expect(ok.json().workspace.state).toBe('trusted');
  });

  it('trust refuses a stale digest (409) and records nothing; the digest shown is trusted and the hook then runs', async () => {
    const shown = (await api.get('/api/workspaces')).json().workspaces[0].digest;
    sb.settings('v2'); // changed after it was shown
    const stale = await api.post('/api/trust', { dir: sb.ws, digest: shown });
    expect(stale.status).toBe(409);
    expect(stale.json().error).toMatch(/changed since they were shown/);
    expect(stale.json().digest).not.toBe(shown);
    expect((await sb.state()).state).toBe('untrusted');
    expect(existsSync(sb.store)).toBe(false);

    expect(sb.dispatch('UserPromptSubmit', 'sess-a').code).toBe(0);
    expect(sb.markerLines()).toEqual([]); // untrusted: skipped

    const current = (await api.get('/api/workspaces')).json().workspaces[0].digest;
    const ok = await api.post('/api/trust', { dir: sb.ws, digest: current });
    expect(ok.status).toBe(200);
    expect(ok.json().workspace.state).toBe('trusted');
    expect((await sb.state()).trustedDigest).toBe(current);
    expect(sb.dispatch('UserPromptSubmit', 'sess-a').code).toBe(0);
    expect(sb.markerLines()).toEqual(['v2']);
  });

  it('revoke refuses a digest that is not the trusted one, then revokes and the hooks stop', async () => {
    const trusted = await sb.trustNow();
    const wrong = await api.post('/api/revoke', { dir: sb.ws, digest: `sha256:${'1'.repeat(64)}` });
    expect(wrong.status).toBe(409);
    expect((await sb.state()).state).toBe('trusted');
    const ok = await api.post('/api/revoke', { dir: sb.ws, digest: trusted });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ revoked: true, workspace: { state: 'untrusted' } });
    sb.dispatch('UserPromptSubmit', 'sess-a');
    expect(sb.markerLines()).toEqual([]);
  });

  it('acts only on workspaces the panel lists', async () => {
    const other = sb.dir.path('home');
    const res = await api.post('/api/trust', { dir: other, digest: `sha256:${'0'.repeat(64)}` });
    expect(res.status).toBe(404);
    expect((await api.get(`/api/workspace?dir=${encodeURIComponent('/')}`)).status).toBe(404);
  });

  it('lists the workspaces recorded in the trust store too, once per identity', async () => {
    await sb.trustNow();
    await srv.close();
    srv = await startServe(sb.serveOptions({ workspaces: [] }));
    api = apiClient(srv.url, srv.token);
    const list = (await api.get('/api/workspaces')).json().workspaces;
    expect(list.map((w: any) => w.dir)).toEqual([sb.ws]);
    await srv.close();
    srv = await startServe(sb.serveOptions({ workspaces: [sb.ws, `${sb.ws}/.`], storeWorkspaces: true }));
    api = apiClient(srv.url, srv.token);
    expect((await api.get('/api/workspaces')).json().workspaces).toHaveLength(1);
  });
});

describe('sessions (standalone: audit log + pause file, honoured by agent-hooks dispatch)', () => {
  it('pausing a session stops its hooks in dispatch; other sessions run; resuming restores it', async () => {
    await sb.trustNow();
    expect(sb.dispatch('UserPromptSubmit', 'sess-a').code).toBe(0);
    expect(sb.dispatch('UserPromptSubmit', 'sess-b').code).toBe(0);
    expect(sb.markerLines()).toHaveLength(2);

    const listed = (await api.get('/api/sessions')).json();
    expect(listed.mode).toBe('pause-file');
    expect(listed.sessions.map((s: any) => s.id).sort()).toEqual(['sess-a', 'sess-b']);
    expect(listed.sessions.find((s: any) => s.id === 'sess-a')).toMatchObject({ paused: false, runs: 1, lastEvent: 'UserPromptSubmit' });

    expect((await api.post('/api/sessions/pause', { id: 'sess-a', paused: true })).status).toBe(200);
    const paused = sb.dispatch('UserPromptSubmit', 'sess-a');
    expect(paused.code).toBe(0);
    expect(paused.stderr).toMatch(/session sess-a is paused/);
    const guarded = sb.dispatch('PreToolUse', 'sess-a', 'rm -rf build');
    expect(guarded.stdout).not.toMatch(/deny/); // paused: not even the guard runs
    expect(sb.dispatch('UserPromptSubmit', 'sess-b').code).toBe(0);
    expect(sb.markerLines()).toHaveLength(3);
    expect((await api.get('/api/sessions')).json().sessions.find((s: any) => s.id === 'sess-a').paused).toBe(true);

    expect((await api.post('/api/sessions/pause', { id: 'sess-a', paused: false })).status).toBe(200);
    sb.dispatch('UserPromptSubmit', 'sess-a');
    expect(sb.markerLines()).toHaveLength(4);
  });

  it('an unsafe pause file pauses nothing and the panel says why', async () => {
    await sb.trustNow();
    await api.post('/api/sessions/pause', { id: 'sess-a', paused: true });
    const { chmodSync } = await import('node:fs');
    chmodSync(sb.pauseFile, 0o666);
    sb.dispatch('UserPromptSubmit', 'sess-a');
    expect(sb.markerLines()).toEqual(['v1']);
    const listed = (await api.get('/api/sessions')).json();
    expect(listed.warning).toMatch(/group- or world-writable/);
    const refused = await api.post('/api/sessions/pause', { id: 'sess-b', paused: true });
    expect(refused.status).toBe(503);
  });
});

describe('audit log', () => {
  it('filters by session, event and outcome, marks blocked calls and groups firings for the timeline', async () => {
    await sb.trustNow();
    sb.dispatch('PreToolUse', 'sess-a', 'ls');
    const blocked = sb.dispatch('PreToolUse', 'sess-a', 'rm -rf build');
    expect(blocked.stdout).toMatch(/"permissionDecision":"deny"/);
    sb.dispatch('UserPromptSubmit', 'sess-b');
    writeFileSync(sb.audit, `${readFileSync(sb.audit, 'utf8')}not json\n{"ts":"x"}\n`);

    const all = (await api.get('/api/audit')).json();
    expect(all.total).toBe(3);
    expect(all.malformed).toBe(2);
    expect(all.facets).toMatchObject({ events: ['PreToolUse', 'UserPromptSubmit'], outcomes: ['blocking', 'success'] });
    expect(all.facets.sessions.sort()).toEqual(['sess-a', 'sess-b']);
    expect(all.entries[0].event).toBe('UserPromptSubmit'); // newest first

    const onlyBlocked = (await api.get('/api/audit?outcome=blocked')).json();
    expect(onlyBlocked.entries).toHaveLength(1);
    expect(onlyBlocked.entries[0]).toMatchObject({
      session_id: 'sess-a',
      event: 'PreToolUse',
      tool_name: 'Bash',
      outcome: 'blocking',
      decision: 'deny',
      reason: 'rm -rf is not allowed',
      blocked: true,
    });
    expect(onlyBlocked.firings).toHaveLength(1);
    expect(onlyBlocked.firings[0]).toMatchObject({ event: 'PreToolUse', order: 'serial', blocked: true });
    expect(onlyBlocked.firings[0].bars[0].durationMs).toBeGreaterThan(0);

    expect((await api.get('/api/audit?session=sess-b')).json().entries.map((e: any) => e.event)).toEqual(['UserPromptSubmit']);
    expect((await api.get('/api/audit?event=PreToolUse&outcome=success')).json().total).toBe(1);
    expect((await api.get('/api/audit?limit=1')).json().entries).toHaveLength(1);
    expect((await api.get('/api/audit?limit=abc')).status).toBe(400);
  });
});
