import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { assessWorkspace } from '../../src/serve/workspaces.js';
import { trustWorkspace } from '../../src/trust/index.js';
import type { StartServeOptions } from '../../src/serve/server.js';
import { tempDir } from '../helpers/tmp.js';

export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** Values that must never appear in anything the panel serves. */
export const SECRETS = { env: 'sk-live-ENV-SECRET-4711', header: 'HEADER-SECRET-0815', urlPassword: 'URLPW-SECRET-42' };

/**
 * A workspace with real settings and scripts, a temp HOME, trust store, pause file and audit
 * log, and the real CLI to dispatch hook calls into it (never the machine's own config).
 */
export function serveSandbox(prefix = 'agent-hooks-serve-') {
  const dir = tempDir(prefix);
  const home = dir.path('home');
  mkdirSync(home, { recursive: true });
  mkdirSync(dir.path('ws', 'hooks'), { recursive: true });
  const ws = realpathSync(dir.path('ws'));
  const store = dir.path('cfg', 'trust.json');
  const pauseFile = dir.path('cfg', 'paused-sessions.json');
  const managed = dir.path('no-managed-settings.json');
  const audit = dir.path('audit.jsonl');
  const marker = dir.path('marker.log');
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, AGENT_HOOKS_TRUST_STORE: store, AGENT_HOOKS_PAUSE_FILE: pauseFile };
  delete env.XDG_CONFIG_HOME;

  const guard = (extra = '') =>
    dir.write(
      'ws/hooks/guard.sh',
      [
        '#!/bin/sh',
        '# Refuse destructive shell commands.',
        'input=$(cat)',
        'case "$input" in',
        '  *"rm -rf"*) echo "rm -rf is not allowed" >&2; exit 2;;',
        extra,
        'esac',
        'exit 0',
        '',
      ]
        .filter((l) => l !== '')
        .join('\n'),
    );

  /** (Re)write the workspace's settings; `note` is what the UserPromptSubmit hook appends to the marker file. */
  function settings(note = 'v1', extraHooks: Record<string, unknown[]> = {}) {
    dir.json('ws/.claude/settings.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: 'sh "${CLAUDE_PROJECT_DIR}/hooks/guard.sh"', timeout: 5, env: { API_TOKEN: SECRETS.env } }],
          },
        ],
        // The marker file is named through env: a path in the command would be a referenced script,
        // whose every append would change the digest.
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: `echo ${note} >> "$NOTE_FILE"`, env: { NOTE_FILE: marker } }] }],
        Notification: [
          {
            hooks: [
              {
                type: 'http',
                url: `https://reviewer:${SECRETS.urlPassword}@hooks.example.invalid/notify`,
                headers: { Authorization: `Bearer ${SECRETS.header}` },
              },
            ],
          },
        ],
        ...extraHooks,
      },
    });
  }
  guard();
  settings();

  const load = { homeDir: home, managedSettingsPath: managed, trust: { storePath: store } };

  return {
    dir,
    ws,
    home,
    store,
    pauseFile,
    managed,
    audit,
    marker,
    env,
    guard,
    settings,
    /** Trust the workspace's current hooks through the library (what `agent-hooks trust` does). */
    async trustNow(): Promise<string> {
      const a = await assessWorkspace(ws, load);
      const r = await trustWorkspace(a.report);
      return r.digest!;
    },
    async state() {
      return (await assessWorkspace(ws, load)).report;
    },
    serveOptions(extra: Partial<StartServeOptions> = {}): StartServeOptions {
      return { workspaces: [ws], ...load, auditFile: audit, pauseFile, ...extra };
    },
    /** One hook call through the real `agent-hooks dispatch --agent claude`, as Claude Code would make it. */
    dispatch(event: 'UserPromptSubmit' | 'PreToolUse', sessionId: string, command = 'ls') {
      const payload: Record<string, unknown> = {
        session_id: sessionId,
        transcript_path: '',
        cwd: ws,
        hook_event_name: event,
        permission_mode: 'default',
      };
      if (event === 'UserPromptSubmit') payload.prompt = 'hi';
      else Object.assign(payload, { tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' });
      const r = spawnSync(process.execPath, [CLI, 'dispatch', '--agent', 'claude', '--audit', audit, '--managed-settings', managed], {
        cwd: ws,
        env,
        input: JSON.stringify(payload),
        encoding: 'utf8',
        timeout: 30_000,
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    markerLines(): string[] {
      return existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean) : [];
    },
    cleanup: () => dir.cleanup(),
  };
}
export type ServeSandbox = ReturnType<typeof serveSandbox>;

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: the body is untyped JSON that each test reads field by field
  json: () => any;
}

/**
 * A raw HTTP/1.1 request to the panel with exactly the headers given (Host included: fetch
 * would not let a test forge it). `target` may be an absolute-form URL.
 */
export function rawRequest(
  base: string,
  target: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname.replace(/^\[|\]$/g, ''),
        port: u.port,
        method: opts.method ?? 'GET',
        path: target,
        headers: { host: u.host, ...opts.headers },
        setHost: false,
        // A fresh connection each time: a kept-alive socket the server closes while the test
        // blocks in spawnSync would turn the next request into ECONNRESET.
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** A client that sends the token as a bearer header, like a script would. */
export function apiClient(base: string, token: string) {
  const origin = base.replace(/\/$/, '');
  return {
    get: (target: string, headers: Record<string, string> = {}) =>
      rawRequest(base, target, { headers: { authorization: `Bearer ${token}`, ...headers } }),
    post: (target: string, body: unknown, headers: Record<string, string> = {}) =>
      rawRequest(base, target, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', origin, ...headers },
        body: JSON.stringify(body),
      }),
  };
}
