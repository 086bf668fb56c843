/**
 * Prompt hooks against a real loopback server that speaks OpenAI-compatible chat completions.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { loadConfig } from '../../src/config/index.js';
import { createHookEngine, type HookEngineOptions } from '../../src/engine/engine.js';
import { catalog, EVENT_NAMES, type EventName } from '../../src/events/catalog.js';
import type { EventSpec } from '../../src/events/spec.js';
import { parseExecution } from '../../src/parse/output.js';
import {
  createPromptBackends,
  openAICompatibleProvider,
  parseModelAnswer,
  renderPrompt,
  verdictOutput,
} from '../../src/backends/prompt.js';
import type { ExecutionResult, NormalizedHook } from '../../src/types.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { sendJson, startServer, type TestServer } from './http-servers.js';

/** What the fake model does with the next request. */
type Reply = { content: string } | { status: number } | { hang: true } | { raw: string };
let reply: (model: string, user: string) => Reply = () => ({ content: '{"ok": true}' });
let server: TestServer;
let dir: TempDir;
const API_KEY = 'sk-test-key-do-not-leak';

function chat(res: ServerResponse, content: string) {
  sendJson(res, 200, {
    id: 'c1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  });
}

beforeAll(async () => {
  server = await startServer((req, res, body) => {
    if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
      res.writeHead(404);
      return res.end();
    }
    const parsed = JSON.parse(body) as { model: string; messages: Array<{ role: string; content: string }> };
    const r = reply(parsed.model, parsed.messages.find((m) => m.role === 'user')?.content ?? '');
    if ('hang' in r) return;
    if ('status' in r) return sendJson(res, r.status, { error: { message: 'boom' } });
    if ('raw' in r) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(r.raw);
    }
    return chat(res, r.content);
  });
});
afterAll(() => server.close());
beforeEach(() => {
  dir = tempDir();
  server.requests.length = 0;
  reply = () => ({ content: '{"ok": true}' });
});
afterEach(() => dir.cleanup());

const baseUrl = () => `${server.origin}/v1`;
const seenModels = () => server.requests.map((r) => (JSON.parse(r.body) as { model: string }).model);
const userMessage = (i = 0) =>
  (JSON.parse(server.requests[i]!.body) as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'user')!
    .content;

async function engineFor(hooks: Record<string, unknown>, opts: Partial<HookEngineOptions> = {}) {
  const file = dir.json('settings.json', { hooks });
  const config = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [file] });
  expect(config.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
  return createHookEngine({
    hooks: config.hooks,
    projectDir: dir.root,
    cwd: dir.root,
    ...opts,
    prompt: { baseUrl: baseUrl(), apiKey: API_KEY, defaultModel: 'judge-small', env: {}, ...opts.prompt },
  });
}

const bash = { tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, tool_use_id: 't1' };
const promptHook = (extra: Record<string, unknown> = {}) => ({ type: 'prompt', prompt: 'Is this safe? $ARGUMENTS', ...extra });

describe('prompt hooks end to end', () => {
  it('ok:true → success, no decision; the request is a chat completion with the key and the input', async () => {
    const engine = await engineFor({ PreToolUse: [{ matcher: 'Bash', hooks: [promptHook()] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d.blocked).toBe(false);
    expect(d.decision).toBeUndefined();
    expect(d.hooks[0]).toMatchObject({ type: 'prompt', outcome: 'success' });
    const req = server.requests[0]!;
    expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = JSON.parse(req.body) as { model: string; messages: Array<{ role: string; content: string }> };
    expect(body.model).toBe('judge-small');
    expect(body.messages[0]!.role).toBe('system');
    expect(body.messages[0]!.content).toMatch(/"ok": true/);
    const json = userMessage().slice('Is this safe? '.length);
    expect(JSON.parse(json)).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } });
  });

  it('ok:false on PreToolUse → deny with the reason; the turn ends by default', async () => {
    reply = () => ({ content: '{"ok": false, "reason": "deletes the build tree"}' });
    const engine = await engineFor({ PreToolUse: [{ hooks: [promptHook()] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d).toMatchObject({
      blocked: true,
      decision: 'deny',
      reason: 'deletes the build tree',
      continue: false,
      stopReason: 'deletes the build tree',
    });
  });

  it('ok:false on PreToolUse with continueOnBlock → deny, the turn continues', async () => {
    reply = () => ({ content: '{"ok": false, "reason": "no"}' });
    const engine = await engineFor({ PreToolUse: [{ hooks: [promptHook({ continueOnBlock: true })] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d).toMatchObject({ blocked: true, decision: 'deny', reason: 'no', continue: true });
  });

  it('ok:false on Stop → block: the agent continues with the reason', async () => {
    reply = () => ({ content: '{"ok": false, "reason": "tests are still failing"}' });
    const engine = await engineFor({ Stop: [{ hooks: [promptHook()] }] });
    const d = await engine.run('Stop', { stop_hook_active: false });
    expect(d).toMatchObject({ blocked: true, decision: 'block', reason: 'tests are still failing' });
  });

  it('ok:false + impossible on Stop → the agent may stop', async () => {
    reply = () => ({ content: '{"ok": false, "reason": "cannot ever pass", "impossible": true}' });
    const engine = await engineFor({ Stop: [{ hooks: [promptHook()] }] });
    const d = await engine.run('Stop', { stop_hook_active: false });
    expect(d.blocked).toBe(false);
  });

  it('a fenced JSON answer is accepted', async () => {
    reply = () => ({ content: '```json\n{"ok": false, "reason": "fenced"}\n```' });
    const engine = await engineFor({ PreToolUse: [{ hooks: [promptHook({ continueOnBlock: true })] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d).toMatchObject({ decision: 'deny', reason: 'fenced' });
  });

  it('an invalid answer is an error under the failure policy', async () => {
    reply = () => ({ content: 'Sure! It looks safe to me.' });
    const ignore = await engineFor({ PreToolUse: [{ hooks: [promptHook()] }] });
    const d1 = await ignore.run('PreToolUse', bash);
    expect(d1.blocked).toBe(false);
    expect(d1.hooks[0]!.error).toMatch(/prompt hook: model answer is not JSON: "Sure! It looks safe to me\."/);
    const deny = await engineFor({ PreToolUse: [{ hooks: [promptHook({ failureBehavior: 'deny' })] }] });
    const d2 = await deny.run('PreToolUse', bash);
    expect(d2).toMatchObject({ blocked: true, decision: 'deny' });
    expect(d2.reason).toMatch(/not JSON.*failureBehavior: deny/);
  });

  it('an answer with the wrong shape is an error', async () => {
    reply = () => ({ content: '{"ok": "yes"}' });
    const engine = await engineFor({ PreToolUse: [{ hooks: [promptHook()] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d.hooks[0]!.error).toMatch(/does not match \{"ok": boolean.*ok:/);
  });

  it('HTTP 500 from the model endpoint → error naming the status, never the key', async () => {
    reply = () => ({ status: 500 });
    const engine = await engineFor({ PreToolUse: [{ hooks: [promptHook({ failureBehavior: 'ask' })] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d.decision).toBe('ask');
    expect(d.reason).toMatch(/answered HTTP 500/);
    expect(JSON.stringify(d)).not.toContain(API_KEY);
  });

  it('a body that is not a chat completion → error', async () => {
    reply = () => ({ raw: '{"choices": []}' });
    const engine = await engineFor({ PreToolUse: [{ hooks: [promptHook()] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d.hooks[0]!.error).toMatch(/not a chat completion/);
  });

  it('timeout → timeout outcome under timeoutBehavior', async () => {
    reply = () => ({ hang: true });
    const engine = await engineFor({ PreToolUse: [{ hooks: [promptHook({ timeout: 0.4, timeoutBehavior: 'deny' })] }] });
    const d = await engine.run('PreToolUse', bash);
    expect(d.hooks[0]!.outcome).toBe('timeout');
    expect(d.hooks[0]!.error).toMatch(/model did not answer within 400 ms/);
    expect(d).toMatchObject({ blocked: true, decision: 'deny' });
  });

  it('an unreachable model endpoint is an error', async () => {
    const engine = await engineFor({ PreToolUse: [{ hooks: [promptHook()] }] }, { prompt: { baseUrl: 'http://127.0.0.1:1/v1' } });
    const d = await engine.run('PreToolUse', bash);
    expect(d.hooks[0]!.error).toMatch(/unreachable: ECONNREFUSED/);
  });

  it('no provider or no model configured → a clear error', async () => {
    const noBase = await engineFor({ PreToolUse: [{ hooks: [promptHook()] }] }, { prompt: { baseUrl: undefined, env: {} } });
    expect((await noBase.run('PreToolUse', bash)).hooks[0]!.error).toMatch(/set AGENT_HOOKS_MODEL_BASE_URL/);
    const noModel = await engineFor({ PreToolUse: [{ hooks: [promptHook()] }] }, { prompt: { defaultModel: undefined, env: {} } });
    expect((await noModel.run('PreToolUse', bash)).hooks[0]!.error).toMatch(/no model for prompt hooks/);
  });

  it('reads AGENT_HOOKS_MODEL_* from the environment', async () => {
    const engine = await engineFor(
      { PreToolUse: [{ hooks: [promptHook()] }] },
      {
        prompt: {
          baseUrl: undefined,
          apiKey: undefined,
          defaultModel: undefined,
          env: { AGENT_HOOKS_MODEL_BASE_URL: baseUrl(), AGENT_HOOKS_MODEL_API_KEY: 'env-key', AGENT_HOOKS_MODEL: 'env-model' },
        },
      },
    );
    await engine.run('PreToolUse', bash);
    expect(seenModels()).toEqual(['env-model']);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer env-key');
  });

  it('other events: UserPromptSubmit blocks, PostToolUse ends the turn, TaskCompleted blocks by exit 2, TeammateIdle stops', async () => {
    reply = () => ({ content: '{"ok": false, "reason": "r"}' });
    const engine = await engineFor({
      UserPromptSubmit: [{ hooks: [promptHook()] }],
      PostToolUse: [{ hooks: [promptHook()] }],
      TaskCompleted: [{ hooks: [promptHook()] }],
      TeammateIdle: [{ hooks: [promptHook()] }],
      PermissionRequest: [{ hooks: [promptHook()] }],
    });
    expect(await engine.run('UserPromptSubmit', { prompt: 'x' })).toMatchObject({ blocked: true, decision: 'block', reason: 'r' });
    expect(await engine.run('PostToolUse', { ...bash, tool_response: {} })).toMatchObject({ continue: false, stopReason: 'r' });
    expect(await engine.run('TaskCompleted', { task_id: '1', task_subject: 's' })).toMatchObject({ blocked: true, reason: 'r' });
    expect(await engine.run('TeammateIdle', { teammate_name: 'a' })).toMatchObject({ continue: false, stopReason: 'r' });
    const pr = await engine.run('PermissionRequest', { tool_name: 'Bash', tool_input: {} });
    expect(pr.blocked).toBe(false);
    expect(pr.decision).toBeUndefined();
  });
});

describe('$ARGUMENTS', () => {
  it('is replaced by the input JSON; \\$ is a literal $; without it the JSON is appended', async () => {
    const engine = await engineFor({
      PreToolUse: [{ hooks: [{ type: 'prompt', prompt: 'Budget \\$1.00, input: $ARGUMENTS, again $ARGUMENTS' }] }],
      PostToolUse: [{ hooks: [{ type: 'prompt', prompt: 'No placeholder here.' }] }],
    });
    await engine.run('PreToolUse', bash);
    const msg = userMessage(0);
    expect(msg.startsWith('Budget $1.00, input: {')).toBe(true);
    expect(msg.split('"tool_name":"Bash"')).toHaveLength(3);
    await engine.run('PostToolUse', { ...bash, tool_response: { ok: 1 } });
    const appended = userMessage(1);
    expect(appended.startsWith('No placeholder here.\n\n{')).toBe(true);
    expect(JSON.parse(appended.slice('No placeholder here.\n\n'.length))).toMatchObject({ hook_event_name: 'PostToolUse' });
  });

  it('renderPrompt unit cases', () => {
    expect(renderPrompt('a $ARGUMENTS b', '{}')).toBe('a {} b');
    expect(renderPrompt('\\$ARGUMENTS stays', '{}')).toBe('$ARGUMENTS stays\n\n{}');
    expect(renderPrompt('cost \\$5 and $HOME', '{}')).toBe('cost $5 and $HOME\n\n{}');
    expect(renderPrompt('back\\slash $ARGUMENTS', '[]')).toBe('back\\slash []');
  });
});

describe('model resolution cache: session + project + model', () => {
  it('a session snapshot model is used; a second session with another model gets its own entry', async () => {
    const engine = await engineFor({ Stop: [{ hooks: [promptHook()] }] });
    await engine.run('Stop', { stop_hook_active: false }, { session: { sessionId: 's1', model: 'model-a' } });
    await engine.run('Stop', { stop_hook_active: false }, { session: { sessionId: 's2', model: 'model-b' } });
    await engine.run('Stop', { stop_hook_active: false }, { session: { sessionId: 's1', model: 'model-a' } });
    expect(seenModels()).toEqual(['model-a', 'model-b', 'model-a']);
  });

  it('a changed global default does not alter a session that already resolved its model', async () => {
    let globalModel = 'global-1';
    const backends = createPromptBackends({ baseUrl: baseUrl(), defaultModel: () => globalModel, env: {} });
    const hook: NormalizedHook = {
      id: 'h',
      event: 'Stop',
      handler: { type: 'prompt', prompt: 'x' },
      source: { kind: 'user', path: 'p' },
      dedupKey: 'k',
    };
    const ctx = (sessionId: string, projectDir = '/p') => ({
      timeoutMs: 5000,
      cwd: '/p',
      projectDir,
      sessionEnv: {},
      stdinLimitBytes: 1e5,
      outputLimitBytes: 1e6,
      session: { sessionId },
    });
    await backends.prompt(hook, { session_id: 'A' }, ctx('A'));
    globalModel = 'global-2';
    await backends.prompt(hook, { session_id: 'A' }, ctx('A'));
    await backends.prompt(hook, { session_id: 'B' }, ctx('B'));
    await backends.prompt(hook, { session_id: 'A' }, ctx('A', '/other-project'));
    expect(seenModels()).toEqual(['global-1', 'global-1', 'global-2', 'global-2']);
    expect(backends.cache.size).toBe(3);
    // The hook's own model is a separate key.
    await backends.prompt({ ...hook, handler: { type: 'prompt', prompt: 'x', model: 'hook-model' } }, {}, ctx('A'));
    expect(seenModels().at(-1)).toBe('hook-model');
    expect(backends.cache.size).toBe(4);
  });

  it('the frozen snapshot env wins over live env; the cache is bounded (LRU)', async () => {
    const live: Record<string, string> = { AGENT_HOOKS_MODEL: 'live-model', AGENT_HOOKS_MODEL_BASE_URL: 'http://127.0.0.1:1/v1' };
    const backends = createPromptBackends({ env: live, cacheSize: 2 });
    const hook: NormalizedHook = {
      id: 'h',
      event: 'Stop',
      handler: { type: 'prompt', prompt: 'x' },
      source: { kind: 'user', path: 'p' },
      dedupKey: 'k',
    };
    const ctx = (sessionId: string) => ({
      timeoutMs: 5000,
      cwd: '/p',
      projectDir: '/p',
      sessionEnv: {},
      stdinLimitBytes: 1e5,
      outputLimitBytes: 1e6,
      session: { sessionId, env: { AGENT_HOOKS_MODEL: 'frozen-model', AGENT_HOOKS_MODEL_BASE_URL: baseUrl() } },
    });
    const r = await backends.prompt(hook, {}, ctx('s1'));
    expect(r.status).toBe('completed');
    await backends.prompt(hook, {}, ctx('s2'));
    await backends.prompt(hook, {}, ctx('s3'));
    expect(seenModels()).toEqual(['frozen-model', 'frozen-model', 'frozen-model']);
    expect(backends.cache.size).toBe(2);
    expect(backends.cache.keys().some((k) => k.startsWith('s1\0'))).toBe(false);
  });
});

describe('agent hooks', () => {
  it('are not run by default: a clear error under the failure policy', async () => {
    const engine = await engineFor({ Stop: [{ hooks: [{ type: 'agent', prompt: 'verify $ARGUMENTS', failureBehavior: 'ignore' }] }] });
    const d = await engine.run('Stop', { stop_hook_active: false });
    expect(d.blocked).toBe(false);
    expect(d.hooks[0]!.error).toMatch(/agent hooks .* are not implemented/);
    expect(server.requests).toHaveLength(0);
  });

  it('agentAsSingleTurn judges them with one call, feeding ok:false back (continueOnBlock semantics)', async () => {
    reply = () => ({ content: '{"ok": false, "reason": "fix lint first", "impossible": true}' });
    const engine = await engineFor(
      { PostToolUse: [{ hooks: [{ type: 'agent', prompt: 'verify $ARGUMENTS' }] }], Stop: [{ hooks: [{ type: 'agent', prompt: 'v' }] }] },
      {
        prompt: { agentAsSingleTurn: true },
      },
    );
    const d = await engine.run('PostToolUse', { ...bash, tool_response: {} });
    expect(d).toMatchObject({ decision: 'block', reason: 'fix lint first', continue: true });
    // impossible is a prompt-hook field; agent hooks ignore it.
    expect(await engine.run('Stop', { stop_hook_active: false })).toMatchObject({ blocked: true, reason: 'fix lint first' });
  });
});

describe('verdictOutput produces valid output for every event', () => {
  const events = EVENT_NAMES as readonly EventName[];
  it.each(events)('%s', (event) => {
    for (const mode of [{}, { continueOnBlock: true }, { agent: true }]) {
      const out = verdictOutput(event, { ok: false, reason: 'why' }, mode);
      const result: ExecutionResult = {
        status: 'completed',
        ...out,
        stdoutTruncated: false,
        stderrTruncated: false,
        stdinTruncated: false,
        durationMs: 1,
      };
      const parsed = parseExecution(event, result);
      expect(parsed.outcome === 'non_blocking_error' || parsed.outcome === 'error').toBe(false);
      const spec = catalog[event] as EventSpec;
      // Whatever an event can do with a block, ok:false does at least one of: verdict, continue:false, nothing.
      if (parsed.verdict) expect(spec.canBlock || spec.topLevelBlock).toBe(true);
    }
    expect(verdictOutput(event, { ok: true })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
});

describe('parseModelAnswer', () => {
  it('accepts plain and fenced JSON, rejects the rest', () => {
    expect(parseModelAnswer('{"ok":true}')).toEqual({ ok: true, answer: { ok: true } });
    expect(parseModelAnswer('  ```\n{"ok":false,"reason":"x"}\n```  ')).toEqual({ ok: true, answer: { ok: false, reason: 'x' } });
    expect(parseModelAnswer('```JSON {"ok":true}```')).toEqual({ ok: true, answer: { ok: true } });
    expect(parseModelAnswer('[true]').ok).toBe(false);
    expect(parseModelAnswer('{"reason":"x"}').ok).toBe(false);
    expect(parseModelAnswer('Here you go: {"ok":true}').ok).toBe(false);
  });

  it('the provider rejects an invalid base URL clearly', () => {
    expect(() => openAICompatibleProvider({ baseUrl: 'not a url' })).toThrow(/not a valid URL/);
  });
});
