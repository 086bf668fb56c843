import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startHostSession, type HostSession, type HostSessionOptions, type HostTool, type ToolContext } from '../../src/host/index.js';
import { afterEach, beforeEach } from 'vitest';
import { perTest, tempDir } from '../helpers/tmp.js';

export const HOOK = fileURLToPath(new URL('./fixtures/hook.mjs', import.meta.url));

/** A command hook (exec form) running the logging fixture with an action. */
export function hook(log: string, action = '', extra: Record<string, unknown> = {}) {
  return { type: 'command', command: process.execPath, args: [HOOK, log, action], ...extra };
}

/**
 * A sandbox: a workspace with .claude/settings.json, a fake home (so the machine's own settings
 * are never read), a hook log, and a session starter that ends every session it started.
 */
export function hostSandbox() {
  const dir = tempDir('agent-hooks-host-');
  const home = dir.path('home');
  const ws = dir.path('ws');
  mkdirSync(home, { recursive: true });
  mkdirSync(ws, { recursive: true });
  const log = dir.path('hooks.log');
  const sessions: HostSession[] = [];
  return {
    dir,
    ws,
    home,
    log,
    /** Writes the workspace's .claude/settings.json. */
    settings(hooks: Record<string, unknown>, extra: Record<string, unknown> = {}) {
      dir.json('ws/.claude/settings.json', { hooks, ...extra });
    },
    /** Every logged hook input, in order. */
    entries(): Array<Record<string, unknown>> {
      if (!existsSync(log)) return [];
      return readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    events(): string[] {
      return this.entries().map((e) => String(e.hook_event_name));
    },
    async start(opts: Omit<HostSessionOptions, 'workspace'>) {
      const r = await startHostSession({
        workspace: ws,
        heartbeatMs: 0,
        // The test wrote this workspace itself: its project hooks run without a trust review.
        config: { homeDir: home, managedSettingsPath: dir.path('no-managed.json'), unsafeSkipTrustGate: true },
        ...opts,
      });
      if (r.ok) sessions.push(r.session);
      return r;
    },
    async session(opts: Omit<HostSessionOptions, 'workspace'>): Promise<HostSession> {
      const r = await this.start(opts);
      if (!r.ok) throw new Error(`session refused: ${r.reason}`);
      return r.session;
    },
    async cleanup() {
      for (const s of sessions) await s.end();
      dir.cleanup();
    },
  };
}
export type HostSandbox = ReturnType<typeof hostSandbox>;

/** A fresh `hostSandbox()` for each test (its sessions closed and files removed after it), registered where it is called. */
export function useHostSandbox(): HostSandbox {
  let current: HostSandbox | undefined;
  beforeEach(() => {
    current = hostSandbox();
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return perTest(() => current, 'useHostSandbox');
}

/** A hook action (see fixtures/hook.mjs) that prints `o` as the hook's JSON output. */
export const json = (o: unknown) => `json:${JSON.stringify(o)}`;

/** Resolves once `cond()` holds; fails after `ms`. */
export async function until(cond: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A user who allows every tool the session asks about. */
export const allowAll = { confirmTool: async () => ({ behavior: 'allow' as const }) };

/** The context a host tool runs in: workspace and cwd `ws`, an empty environment. */
export function toolContext(ws: string): ToolContext {
  return { workspace: ws, cwd: ws, env: {}, signal: new AbortController().signal, toolUseId: 't', sessionId: 's' };
}

/** Checks `input` against the tool's own schema first, as the host does, then runs the tool. */
export async function runTool<I extends Record<string, unknown>>(tool: HostTool<I>, input: unknown, ctx: ToolContext) {
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success) throw new Error(`invalid input: ${parsed.error.message}`);
  return tool.run(parsed.data, ctx);
}
