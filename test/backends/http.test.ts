/**
 * HTTP hooks against real loopback servers (allowed only because each hook's allowedHosts
 * names the host). Covers the response handling table, every failure path through the
 * failure policy, header interpolation, TLS (self-signed, allowInsecureTLS) and the CLI path.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createHookEngine, type HookEngineOptions } from '../../src/engine/engine.js';
import { runHttpHook, buildHeaders, type ConnectTarget } from '../../src/backends/http.js';
import { lintHooks } from '../../src/lint/hooks.js';
import type { Resolver } from '../../src/net/target-policy.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { closedPort, HAS_OPENSSL, selfSignedCert, sendJson, startServer, type TestServer } from './http-servers.js';

const preDeny = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'from http' } };
const BIG = 300 * 1024;

let server: TestServer;
let dir: TempDir;

beforeAll(async () => {
  server = await startServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    switch (path) {
      case '/deny':
        return sendJson(res, 200, preDeny);
      case '/context':
        return sendJson(res, 200, { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ctx from http' } });
      case '/empty':
        res.writeHead(200);
        return res.end();
      case '/no-content':
        res.writeHead(204);
        return res.end();
      case '/text':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('hello, this is not JSON');
      case '/array':
        return sendJson(res, 200, [1, 2, 3]);
      case '/invalid-shape':
        return sendJson(res, 200, { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'maybe' } });
      case '/500':
        return sendJson(res, 500, preDeny); // a JSON body on a 5xx must not decide anything
      case '/404':
        res.writeHead(404);
        return res.end('not found');
      case '/redirect':
        res.writeHead(302, { location: `${server.origin}/deny` });
        return res.end();
      case '/big': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const pad = 'x'.repeat(BIG);
        return res.end(`{"systemMessage":"${pad}"}`);
      }
      case '/hang':
        return; // never answers
      case '/echo':
        return sendJson(res, 200, {
          hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: JSON.stringify({ headers: req.headers }) },
        });
      default:
        res.writeHead(200);
        return res.end();
    }
  });
});
afterAll(() => server.close());
beforeEach(() => {
  dir = tempDir();
  server.requests.length = 0;
});
afterEach(() => dir.cleanup());

/** A resolver for test host names; every name resolves to loopback (allowed only via allowedHosts). */
const loopbackResolver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

async function engineFor(hooks: Record<string, unknown>, opts: Partial<HookEngineOptions> = {}, extra: Record<string, unknown> = {}) {
  const file = dir.json('settings.json', { hooks, ...extra });
  const config = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [file] });
  expect(config.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
  return createHookEngine({
    hooks: config.hooks,
    projectDir: dir.root,
    cwd: dir.root,
    ...opts,
    http: {
      resolve: loopbackResolver,
      allowedHttpHookUrls: config.allowedHttpHookUrls,
      httpHookAllowedEnvVars: config.httpHookAllowedEnvVars,
      ...opts.http,
    },
  });
}

const local = (path: string, extra: Record<string, unknown> = {}) => ({
  type: 'http',
  url: `${server.origin}${path}`,
  allowedHosts: ['127.0.0.1'],
  ...extra,
});
const bash = { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' };

describe('response handling', () => {
  it('2xx JSON object is the hook output, POSTed as JSON', async () => {
    const engine = await engineFor({ PreToolUse: [{ matcher: 'Bash', hooks: [local('/deny')] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d).toMatchObject({ blocked: true, decision: 'deny', reason: 'from http' });
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(typeof body.hook_execution_id).toBe('string');
  });

  it('2xx empty body (200 or 204) is success with no decision', async () => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [local('/empty'), local('/no-content')] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d.blocked).toBe(false);
    expect(d.decision).toBeUndefined();
    expect(d.hooks.map((h) => h.outcome)).toEqual(['success', 'success']);
  });

  it('2xx plain text is a non-blocking error and never reaches the context', async () => {
    const engine = await engineFor({ UserPromptSubmit: [{ hooks: [local('/text')] }] });
    const d = await engine.run('UserPromptSubmit', { prompt: 'hi' });
    expect(d.additionalContext).toEqual([]);
    expect(d.hooks[0]).toMatchObject({ outcome: 'error' });
    expect(d.hooks[0]!.error).toMatch(/not a JSON object \(text\/plain/);
    expect(d.warnings.join('\n')).toMatch(/not a JSON object/);
  });

  it('2xx JSON that is not an object is an error', async () => {
    const engine = await engineFor({ UserPromptSubmit: [{ hooks: [local('/array')] }] });
    const d = await engine.run('UserPromptSubmit', { prompt: 'hi' });
    expect(d.hooks[0]!.error).toMatch(/not a JSON object/);
  });

  it('2xx JSON for UserPromptSubmit adds context', async () => {
    const engine = await engineFor({ UserPromptSubmit: [{ hooks: [local('/context')] }] });
    const d = await engine.run('UserPromptSubmit', { prompt: 'hi' });
    expect(d.additionalContext).toEqual(['ctx from http']);
  });
});

describe('failure paths end in the failure policy with a clear message', () => {
  const cases: Array<{ name: string; hook: () => Record<string, unknown>; message: RegExp; outcome: string }> = [
    { name: '5xx (its JSON body is ignored)', hook: () => local('/500'), message: /answered HTTP 500/, outcome: 'error' },
    { name: '404', hook: () => local('/404'), message: /answered HTTP 404/, outcome: 'error' },
    {
      name: '3xx redirect (not followed)',
      hook: () => local('/redirect'),
      message: /HTTP 302: redirects are not followed; Location: http:\/\/127\.0\.0\.1/,
      outcome: 'error',
    },
    { name: 'non-JSON 2xx', hook: () => local('/text'), message: /not a JSON object/, outcome: 'error' },
    { name: 'oversize body', hook: () => local('/big'), message: /exceeds 262144 bytes/, outcome: 'error' },
    {
      name: 'invalid JSON output shape',
      hook: () => local('/invalid-shape'),
      message: /invalid hook output: .*permissionDecision/,
      outcome: 'non_blocking_error',
    },
    { name: 'refused target', hook: () => ({ type: 'http', url: `${server.origin}/deny` }), message: /only https/, outcome: 'error' },
  ];

  it.each(cases)('$name → ignore: proceeds with a warning', async ({ hook, message, outcome }) => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [hook()] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d.blocked).toBe(false);
    expect(d.hooks[0]!.outcome).toBe(outcome);
    expect(d.hooks[0]!.error).toMatch(message);
    expect(d.warnings.join('\n')).toMatch(message);
  });

  it.each(cases)('$name → failureBehavior deny: denies, naming the cause', async ({ hook, message }) => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [{ ...hook(), failureBehavior: 'deny' }] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d).toMatchObject({ blocked: true, decision: 'deny' });
    expect(d.reason).toMatch(message);
    expect(d.reason).toMatch(/failureBehavior: deny/);
  });

  it('the oversize body is flagged as truncated', async () => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [local('/big')] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d.hooks[0]!.stdoutTruncated).toBe(true);
  });

  it('a redirect is not followed: one request only', async () => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [local('/redirect')] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d.blocked).toBe(false);
    expect(server.requests.map((r) => r.path)).toEqual(['/redirect']);
  });

  it('connection refused (closed loopback port) → error, failure policy applies', async () => {
    const port = await closedPort();
    const engine = await engineFor({
      PreToolUse: [{ hooks: [{ type: 'http', url: `http://127.0.0.1:${port}/x`, allowedHosts: ['127.0.0.1'], failureBehavior: 'ask' }] }],
    });
    const d = await engine.run('PreToolUse', bash);
    expect(d.decision).toBe('ask');
    expect(d.reason).toMatch(/ECONNREFUSED/);
  });

  it('timeout (server never answers) → timeout, timeoutBehavior applies', async () => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [local('/hang', { timeout: 0.4, timeoutBehavior: 'deny' })] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d.hooks[0]!.outcome).toBe('timeout');
    expect(d).toMatchObject({ blocked: true, decision: 'deny' });
    expect(d.reason).toMatch(/timed out.*timeoutBehavior: deny/);
    expect(d.hooks[0]!.error).toMatch(/did not answer within 400 ms/);
  });

  it('a timeout with the default policy lets the action proceed', async () => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [local('/hang', { timeout: 0.3 })] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d.blocked).toBe(false);
    expect(d.hooks[0]!.outcome).toBe('timeout');
  });

  it('cancellation by the caller aborts the request', async () => {
    const controller = new AbortController();
    const p = runHttpHook(
      { type: 'http', url: `${server.origin}/hang`, allowedHosts: ['127.0.0.1'] },
      {},
      { timeoutMs: 5000, sessionEnv: {}, stdinLimitBytes: 1e5, signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 100);
    const r = await p;
    expect(r.status).toBe('aborted');
  });
});

describe('headers', () => {
  const env = { MY_TOKEN: 's3cr3t-value', OTHER: 'other-value' };

  it('interpolates $VAR and ${VAR} only for allowedEnvVars; others become empty', async () => {
    const engine = await engineFor(
      {
        UserPromptSubmit: [
          {
            hooks: [
              local('/echo', {
                headers: { Authorization: 'Bearer $MY_TOKEN', 'X-Other': '${OTHER}', 'X-Mixed': 'a-${MY_TOKEN}-$UNSET-b', 'X-Plain': 'v' },
                allowedEnvVars: ['MY_TOKEN'],
              }),
            ],
          },
        ],
      },
      { http: { env } },
    );
    await engine.run('UserPromptSubmit', { prompt: 'hi' });
    const h = server.requests[0]!.headers;
    expect(h.authorization).toBe('Bearer s3cr3t-value');
    expect(h['x-other']).toBe('');
    expect(h['x-mixed']).toBe('a-s3cr3t-value--b');
    expect(h['x-plain']).toBe('v');
  });

  it('httpHookAllowedEnvVars narrows the hook list further', async () => {
    const engine = await engineFor(
      {
        UserPromptSubmit: [
          { hooks: [local('/echo', { headers: { A: '$MY_TOKEN', B: '$OTHER' }, allowedEnvVars: ['MY_TOKEN', 'OTHER'] })] },
        ],
      },
      { http: { env } },
      { httpHookAllowedEnvVars: ['OTHER'] },
    );
    await engine.run('UserPromptSubmit', { prompt: 'hi' });
    const h = server.requests[0]!.headers;
    expect(h.a).toBe('');
    expect(h.b).toBe('other-value');
  });

  it('the session env is laid over the process env for interpolation', async () => {
    const r = await runHttpHook(
      {
        type: 'http',
        url: `${server.origin}/echo`,
        allowedHosts: ['127.0.0.1'],
        headers: { A: '$S', B: '$MY_TOKEN' },
        allowedEnvVars: ['S', 'MY_TOKEN'],
      },
      {},
      { timeoutMs: 3000, sessionEnv: { S: 'from-session', MY_TOKEN: 'session-token' }, stdinLimitBytes: 1e5 },
      { env },
    );
    expect(r.status).toBe('completed');
    expect(server.requests[0]!.headers).toMatchObject({ a: 'from-session', b: 'session-token' });
  });

  it('buildHeaders lowercases names and never returns a value in a problem', () => {
    expect(buildHeaders({ headers: { 'X-A': '$S' }, allowedEnvVars: ['S'] }, { S: 'v' })).toEqual({ ok: true, headers: { 'x-a': 'v' } });
    const bad = buildHeaders({ headers: { 'Bad Name': 'v' } }, {});
    expect(bad.ok).toBe(false);
  });

  it('secrets never appear in errors or decisions', async () => {
    const engine = await engineFor(
      {
        PreToolUse: [
          {
            hooks: [
              local('/500', { headers: { Authorization: 'Bearer $MY_TOKEN' }, allowedEnvVars: ['MY_TOKEN'], failureBehavior: 'deny' }),
            ],
          },
        ],
      },
      { http: { env } },
    );
    const d = await engine.run('PreToolUse', bash);
    expect(d.blocked).toBe(true);
    expect(JSON.stringify(d)).not.toContain('s3cr3t');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer s3cr3t-value');
  });

  it('a value that would inject a header line is refused before sending, without echoing it', async () => {
    const engine = await engineFor(
      { PreToolUse: [{ hooks: [local('/deny', { headers: { Authorization: 'Bearer $MY_TOKEN' }, allowedEnvVars: ['MY_TOKEN'] })] }] },
      { http: { env: { MY_TOKEN: 'sekrit\r\nX-Evil: 1' } } },
    );
    const d = await engine.run('PreToolUse', bash);
    expect(d.hooks[0]!.error).toMatch(/headers\.Authorization: value contains a line break/);
    expect(JSON.stringify(d)).not.toContain('sekrit');
    expect(server.requests).toHaveLength(0);
  });

  it('engine-owned headers cannot be set; Content-Type stays application/json', async () => {
    const engine = await engineFor({
      PreToolUse: [{ hooks: [local('/deny', { headers: { Host: 'evil.test' } })] }],
      UserPromptSubmit: [{ hooks: [local('/echo', { headers: { 'Content-Type': 'text/plain' } })] }],
    });
    const d = await engine.run('PreToolUse', bash);
    expect(d.hooks[0]!.error).toMatch(/headers\.Host: set by the engine/);
    await engine.run('UserPromptSubmit', { prompt: 'x' });
    expect(server.requests.at(-1)!.headers['content-type']).toBe('application/json');
  });
});

describe('allowedHosts and pinning against a real server', () => {
  it('a name that resolves to loopback is refused without allowedHosts: no connection', async () => {
    const before = server.connections;
    const engine = await engineFor({ PreToolUse: [{ hooks: [{ type: 'http', url: `https://hooks.test:${server.port}/deny` }] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d.hooks[0]!.error).toMatch(/hooks\.test resolves to 127\.0\.0\.1 is in the loopback range/);
    expect(server.connections).toBe(before);
  });

  it('with allowedHosts the name reaches the pinned address; Host header keeps the name', async () => {
    const seen: ConnectTarget[] = [];
    const engine = await engineFor(
      { PreToolUse: [{ hooks: [{ type: 'http', url: `http://hooks.test:${server.port}/deny`, allowedHosts: ['hooks.test'] }] }] },
      { http: { resolve: loopbackResolver, onConnect: (t) => seen.push(t) } },
    );
    const d = await engine.run('PreToolUse', bash);
    expect(d.decision).toBe('deny');
    expect(seen).toEqual([{ address: '127.0.0.1', family: 4, port: server.port, host: 'hooks.test', tls: false, insecureTLS: false }]);
    expect(server.requests[0]!.headers.host).toBe(`hooks.test:${server.port}`);
  });

  // 127.0.0.2 is a loopback address only on Linux.
  it.skipIf(process.platform !== 'linux')('falls back to the next checked address when the first refuses the connection', async () => {
    const port = server.port;
    const resolve: Resolver = async () => [
      { address: '127.0.0.2', family: 4 }, // nothing listens there on this port
      { address: '127.0.0.1', family: 4 },
    ];
    const seen: string[] = [];
    const r = await runHttpHook(
      { type: 'http', url: `http://two.test:${port}/deny`, allowedHosts: ['two.test'] },
      {},
      { timeoutMs: 3000, sessionEnv: {}, stdinLimitBytes: 1e5 },
      { resolve, onConnect: (t) => seen.push(t.address) },
    );
    expect(r.status).toBe('completed');
    expect(seen).toEqual(['127.0.0.2', '127.0.0.1']);
  });

  it('the managed allowlist applies to the CLI-loaded config', async () => {
    const engine = await engineFor(
      { PreToolUse: [{ hooks: [local('/deny')] }] },
      {},
      { allowedHttpHookUrls: ['https://hooks.example.com/*'] },
    );
    const d = await engine.run('PreToolUse', bash);
    expect(d.blocked).toBe(false);
    expect(d.hooks[0]!.error).toMatch(/does not match allowedHttpHookUrls/);
    expect(server.requests).toHaveLength(0);
    const ok = await engineFor({ PreToolUse: [{ hooks: [local('/deny')] }] }, {}, { allowedHttpHookUrls: ['http://127.0.0.1:*/deny'] });
    expect((await ok.run('PreToolUse', bash)).decision).toBe('deny');
  });
});

describe.skipIf(!HAS_OPENSSL)('HTTPS (self-signed certificate made with the openssl CLI)', () => {
  let tlsServer: TestServer;
  let certDir: TempDir;
  beforeAll(async () => {
    certDir = tempDir('agent-hooks-tls-');
    tlsServer = await startServer((_req, res) => sendJson(res, 200, preDeny), selfSignedCert(certDir.root));
  });
  afterAll(async () => {
    await tlsServer.close();
    certDir.cleanup();
  });

  it('without allowedHosts the loopback HTTPS server is never contacted', async () => {
    const before = tlsServer.connections;
    const engine = await engineFor({
      PreToolUse: [
        {
          hooks: [
            { type: 'http', url: `${tlsServer.origin}/`, allowInsecureTLS: true },
            { type: 'http', url: `https://hooks.test:${tlsServer.port}/` },
          ],
        },
      ],
    });
    const d = await engine.run('PreToolUse', bash);
    expect(d.hooks.map((h) => h.error)).toEqual([
      expect.stringMatching(/127\.0\.0\.1 is in the loopback range/),
      expect.stringMatching(/hooks\.test resolves to 127\.0\.0\.1/),
    ]);
    expect(tlsServer.connections).toBe(before);
  });

  it('verifies certificates by default: a self-signed server fails', async () => {
    const engine = await engineFor({
      PreToolUse: [{ hooks: [{ type: 'http', url: `${tlsServer.origin}/`, allowedHosts: ['127.0.0.1'] }] }],
    });
    const d = await engine.run('PreToolUse', bash);
    expect(d.blocked).toBe(false);
    expect(d.hooks[0]!.error).toMatch(/certificate/i);
  });

  it('allowInsecureTLS disables verification for that hook only', async () => {
    const insecure = { type: 'http', url: `${tlsServer.origin}/`, allowedHosts: ['127.0.0.1'], allowInsecureTLS: true };
    const strict = { type: 'http', url: `${tlsServer.origin}/strict`, allowedHosts: ['127.0.0.1'] };
    const engine = await engineFor({ PreToolUse: [{ hooks: [strict] }, { hooks: [insecure] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d.hooks.map((h) => h.outcome)).toEqual(['error', 'success']);
    expect(d.hooks[0]!.error).toMatch(/certificate/i);
    expect(d).toMatchObject({ blocked: true, decision: 'deny', reason: 'from http' });
  });

  it('sends SNI for a host name pinned to an address', async () => {
    const engine = await engineFor({
      PreToolUse: [
        { hooks: [{ type: 'http', url: `https://hooks.test:${tlsServer.port}/`, allowedHosts: ['hooks.test'], allowInsecureTLS: true }] },
      ],
    });
    const d = await engine.run('PreToolUse', bash);
    expect(d.decision).toBe('deny');
    expect(tlsServer.requests.at(-1)!.servername).toBe('hooks.test');
  });
});

describe('check warnings', () => {
  it('warns about the allowedHosts opt-out, allowInsecureTLS, refused targets and unlisted header variables', async () => {
    const file = dir.json('settings.json', {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: 'http', url: 'http://127.0.0.1:9/x', allowedHosts: ['127.0.0.1'], allowInsecureTLS: true },
              { type: 'http', url: 'http://10.0.0.1/x' },
              { type: 'http', url: 'https://hooks.example.com/x', headers: { A: '$SECRET' } },
              { type: 'http', url: 'https://hooks.example.com/y', allowInsecureTLS: true },
            ],
          },
        ],
      },
    });
    const config = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [file] });
    const messages = lintHooks(config.hooks, ['command', 'function', 'http', 'prompt']).map((d) => `${d.path}: ${d.message}`);
    expect(
      messages.find((m) => m.includes('hooks[0]') && m.includes('allowedHosts (127.0.0.1) lifts the https requirement AND')),
    ).toBeDefined();
    expect(messages.find((m) => m.includes('hooks[0]') && m.includes('allowInsecureTLS has no effect on an http: URL'))).toBeDefined();
    expect(messages.find((m) => m.includes('hooks[1]') && m.includes('refused at run time') && m.includes('only https'))).toBeDefined();
    expect(messages.find((m) => m.includes('hooks[2]') && m.includes('$SECRET, which is not in allowedEnvVars'))).toBeDefined();
    expect(messages.find((m) => m.includes('hooks[3]') && m.includes('certificate verification is off'))).toBeDefined();
    expect(messages.some((m) => m.includes('no backend'))).toBe(false);
  });
});
