/**
 * serve embedded in a host: sessions come from a running HookManager; pausing through the API
 * stops the session's hooks in the engine; a trust decision in the panel reaches the running
 * sessions of that workspace (rebind).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServe, type RunningServe } from '../../src/serve/server.js';
import { createHookManager, type HookManager } from '../../src/session/manager.js';
import { apiClient, serveSandbox, type ServeSandbox } from './helpers.js';

let sb: ServeSandbox;
let manager: HookManager;
let srv: RunningServe;
let api: ReturnType<typeof apiClient>;

const prompt = { prompt: 'hi', transcript_path: '', permission_mode: 'default' };

beforeEach(async () => {
  sb = serveSandbox('agent-hooks-serve-host-');
  const loadOptions = (dir: string) => ({ cwd: dir, projectDir: dir, homeDir: sb.home, managedSettingsPath: sb.managed });
  manager = createHookManager({
    loadOptions,
    trust: { storePath: sb.store, homeDir: sb.home },
    engineOptions: { audit: sb.audit, homeDir: sb.home },
  });
  srv = await startServe({
    manager,
    loadOptions,
    trust: { storePath: sb.store, homeDir: sb.home },
    auditFile: sb.audit,
    storeWorkspaces: false,
  });
  api = apiClient(srv.url, srv.token);
});
afterEach(async () => {
  await srv.close();
  await manager.close();
  sb.cleanup();
});

describe('serve with a HookManager', () => {
  it("lists the manager's sessions and their projects; pausing stops the session's hooks in the engine", async () => {
    await sb.trustNow();
    const s1 = await manager.bindSession({ sessionId: 's1', projectDir: sb.ws });
    const s2 = await manager.bindSession({ sessionId: 's2', projectDir: sb.ws });
    expect((await s1.run('UserPromptSubmit', prompt)).hooks).toHaveLength(1);
    expect(sb.markerLines()).toEqual(['v1']);

    const listed = (await api.get('/api/sessions')).json();
    expect(listed.mode).toBe('host');
    expect(listed.sessions).toEqual([
      expect.objectContaining({ id: 's1', source: 'host', projectDir: sb.ws, paused: false }),
      expect.objectContaining({ id: 's2', source: 'host', projectDir: sb.ws, paused: false }),
    ]);
    expect((await api.get('/api/workspaces')).json().workspaces.map((w: { dir: string }) => w.dir)).toEqual([sb.ws]);
    // The engine's audit sink writes asynchronously: the run shows up in the audit stats shortly.
    await expect.poll(async () => (await api.get('/api/sessions')).json().sessions[0].runs).toBe(1);

    expect((await api.post('/api/sessions/pause', { id: 's1', paused: true })).status).toBe(200);
    expect(manager.isPaused('s1')).toBe(true);
    const d = await s1.run('UserPromptSubmit', prompt);
    expect(d.hooks).toEqual([]);
    const guarded = await s1.run('PreToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
      tool_use_id: 't',
      transcript_path: '',
    });
    expect(guarded.blocked).toBe(false); // paused: not even the guard runs
    await s2.run('UserPromptSubmit', prompt);
    expect(sb.markerLines()).toEqual(['v1', 'v1']);
    expect((await api.get('/api/sessions')).json().sessions[0].paused).toBe(true);

    expect((await api.post('/api/sessions/pause', { id: 's1', paused: false })).status).toBe(200);
    await s1.run('UserPromptSubmit', prompt);
    expect(sb.markerLines()).toEqual(['v1', 'v1', 'v1']);
    expect((await api.post('/api/sessions/pause', { id: 'nope', paused: true })).status).toBe(404);
  });

  it('trusting a modified config in the panel makes the running session run it (rebind); revoking stops it', async () => {
    await sb.trustNow();
    const s1 = await manager.bindSession({ sessionId: 's1', projectDir: sb.ws });
    sb.settings('v2');
    await s1.run('UserPromptSubmit', prompt);
    expect(sb.markerLines()).toEqual(['v1']); // the session keeps its snapshot

    const w = (await api.get('/api/workspaces')).json().workspaces[0];
    expect(w.state).toBe('modified');
    expect((await api.post('/api/trust', { dir: sb.ws, digest: w.digest })).status).toBe(200);
    await s1.run('UserPromptSubmit', prompt);
    expect(sb.markerLines()).toEqual(['v1', 'v2']);

    expect((await api.post('/api/revoke', { dir: sb.ws, digest: w.digest })).status).toBe(200);
    const after = await s1.run('UserPromptSubmit', prompt);
    expect(after.hooks).toEqual([]);
    expect(sb.markerLines()).toEqual(['v1', 'v2']);
  });
});
