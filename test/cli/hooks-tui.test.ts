/**
 * `agent-hooks hooks`, the terminal manager, driven in a real terminal: tmux runs it, send-keys
 * types, capture-pane reads the screen. Through a trust, a test event and a revoke.
 * (.ci/run installs tmux.)
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tempDir, type TempDir } from '../helpers/tmp.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

let dir: TempDir;
let socket: string;
beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm test does)');
  if (spawnSync('tmux', ['-V']).status !== 0) throw new Error('tmux is missing (Debian package tmux; .ci/run installs it)');
});
beforeEach(() => {
  dir = tempDir();
  socket = `agent-hooks-test-${process.pid}-${Date.now()}`;
});
afterEach(() => {
  spawnSync('tmux', ['-L', socket, 'kill-server']);
  dir.cleanup();
});

const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', 't', '-S', '-200').stdout;

async function waitFor(re: RegExp, ms = 30_000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const s = screen();
    if (re.test(s)) return s;
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${re}; screen:\n${s}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A project with one UserPromptSubmit hook, a HOME with its own trust store, and `agent-hooks
 * hooks` started in it in a 150x50 tmux session "t" (the shell prints TUI-EXITED-<code> after it).
 */
function startTui() {
  const home = dir.path('home');
  mkdirSync(home, { recursive: true });
  dir.json('proj/.claude/settings.json', {
    hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo from-the-hook' }] }] },
  });
  const store = `${home}/trust.json`;
  const env = `HOME='${home}' AGENT_HOOKS_TRUST_STORE='${store}' NO_COLOR=1`;
  const started = tmux(
    'new-session',
    '-d',
    '-s',
    't',
    '-x',
    '150',
    '-y',
    '50',
    `cd '${dir.path('proj')}' && env ${env} '${process.execPath}' '${CLI}' hooks; echo TUI-EXITED-$?; sleep 60`,
  );
  expect(started.status, started.stderr).toBe(0);
  return { home, store };
}

describe('agent-hooks hooks (TUI in tmux)', () => {
  it('lists the hook with its state, trusts with the shown digest, fires its event, revokes', async () => {
    const { store } = startTui();

    const first = await waitFor(/Trust these 1 hook\(s\)/);
    expect(first).toMatch(/UserPromptSubmit {2}command: echo from-the-hook {2}\(project, untrusted\)/);
    const digest = /digest: (sha256:[0-9a-f]{64})/.exec(first)![1]!;

    // Trust: the confirm step shows what will run and the digest.
    tmux('send-keys', '-t', 't', 'Down', 'Enter');
    const confirm = await waitFor(/Trust exactly this/);
    expect(confirm).toContain('These will run in every session of this workspace');
    expect(confirm).toContain(`digest ${digest}`);
    tmux('send-keys', '-t', 't', 'y');
    await waitFor(/hook trust: trusted/);
    expect(JSON.parse(readFileSync(store, 'utf8'))).toMatchObject({ workspaces: expect.any(Object) });
    expect(readFileSync(store, 'utf8')).toContain(digest);

    // View the hook and fire its event: the trusted hook runs.
    tmux('send-keys', '-t', 't', 'Enter');
    await waitFor(/◆ {2}This hook/);
    tmux('send-keys', '-t', 't', 'Enter');
    const fired = await waitFor(/UserPromptSubmit fired: exit code 0/);
    expect(fired).toContain('additionalContext: from-the-hook');

    // Revoke: hook, Revoke, … → Down, Enter, confirm.
    await waitFor(/Revoke trust of this workspace/);
    tmux('send-keys', '-t', 't', 'Down', 'Enter');
    await waitFor(/Revoke trust\? Project hooks stop running/);
    tmux('send-keys', '-t', 't', 'y');
    await waitFor(/revoked[\s\S]*hook trust: untrusted/);
    expect(readFileSync(store, 'utf8')).not.toContain(digest);

    tmux('send-keys', '-t', 't', 'C-c');
    await waitFor(/TUI-EXITED-0/);
  }, 120_000);

  it('pauses a session and resumes it (the pause file the engine reads)', async () => {
    const { home } = startTui();
    const pauseFile = `${home}/paused-sessions.json`;
    await waitFor(/Pause or resume a session/);
    // Menu: the hook, Trust…, Fire…, Pause…, Quit.
    tmux('send-keys', '-t', 't', 'Down', 'Down', 'Down', 'Enter');
    await waitFor(/Session id to pause or resume \(paused now: none\)/);
    tmux('send-keys', '-t', 't', '-l', 'sess-42');
    tmux('send-keys', '-t', 't', 'Enter');
    await waitFor(/paused session sess-42/);
    expect(Object.keys(JSON.parse(readFileSync(pauseFile, 'utf8')).sessions)).toEqual(['sess-42']);

    tmux('send-keys', '-t', 't', 'Down', 'Down', 'Down', 'Enter');
    await waitFor(/paused now: sess-42/);
    tmux('send-keys', '-t', 't', '-l', 'sess-42');
    tmux('send-keys', '-t', 't', 'Enter');
    await waitFor(/resumed session sess-42/);
    expect(Object.keys(JSON.parse(readFileSync(pauseFile, 'utf8')).sessions)).toEqual([]);
    tmux('send-keys', '-t', 't', 'C-c');
    await waitFor(/TUI-EXITED-0/);
  }, 120_000);

  it('switches a hook off and on again ("enabled": false in its settings file)', async () => {
    startTui();
    const file = dir.path('proj/.claude/settings.json');
    const handler = () => JSON.parse(readFileSync(file, 'utf8')).hooks.UserPromptSubmit[0].hooks[0];
    await waitFor(/Trust these 1 hook\(s\)/);
    // The hook, then "Disable this hook" (after "Fire UserPromptSubmit").
    tmux('send-keys', '-t', 't', 'Enter');
    await waitFor(/Disable this hook/);
    tmux('send-keys', '-t', 't', 'Down', 'Enter');
    await waitFor(/disabled UserPromptSubmit/);
    await waitFor(/Claude Code reads this file itself and still runs this hook/);
    await waitFor(/UserPromptSubmit {2}command: echo from-the-hook {2}\(project, untrusted, disabled\)/);
    expect(handler()).toEqual({ type: 'command', command: 'echo from-the-hook', enabled: false });

    tmux('send-keys', '-t', 't', 'Enter');
    await waitFor(/Enable this hook/);
    tmux('send-keys', '-t', 't', 'Down', 'Enter');
    await waitFor(/enabled UserPromptSubmit/);
    expect(handler()).toEqual({ type: 'command', command: 'echo from-the-hook' });
    tmux('send-keys', '-t', 't', 'C-c');
    await waitFor(/TUI-EXITED-0/);
  }, 120_000);

  it('refuses to start without a terminal', () => {
    const r = spawnSync(process.execPath, [CLI, 'hooks'], { encoding: 'utf8', input: '' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('hooks is interactive: run it in a terminal');
  });
});
