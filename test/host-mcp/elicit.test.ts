/**
 * elicit(): every path from a server's request to the answer sent back, with in-process
 * function hooks on a real engine (no processes: the command-hook paths, exit 2 included, run
 * in proxy.test.ts). The final content on every path must pass the requested schema.
 */
import { describe, expect, it } from 'vitest';
import { createHookEngine, type HookEngine } from '../../src/engine/engine.js';
import {
  compileElicitationSchema,
  elicit,
  type ElicitationAnswer,
  type ElicitationPrompter,
  type ElicitationRequest,
} from '../../src/host/mcp/index.js';
import { ACCOUNT } from './helpers.js';

const request = (extra: Partial<ElicitationRequest> = {}): ElicitationRequest => ({
  server: 'fx',
  message: 'Create an account',
  requestedSchema: ACCOUNT,
  ...extra,
});
const out = (event: 'Elicitation' | 'ElicitationResult', o: Record<string, unknown>) => ({
  hookSpecificOutput: { hookEventName: event, ...o },
});

function setup(
  hooks: {
    elicitation?: (input: Record<string, unknown>) => unknown;
    result?: (input: Record<string, unknown>) => unknown;
    matcher?: string;
  } = {},
) {
  const engine: HookEngine = createHookEngine({ projectDir: '/tmp' });
  const seen: Array<Record<string, unknown>> = [];
  if (hooks.elicitation)
    engine.register({
      event: 'Elicitation',
      matcher: hooks.matcher ?? 'fx',
      fn: (i) => {
        seen.push(i);
        return hooks.elicitation!(i);
      },
    });
  if (hooks.result)
    engine.register({
      event: 'ElicitationResult',
      matcher: hooks.matcher ?? 'fx',
      fn: (i) => {
        seen.push(i);
        return hooks.result!(i);
      },
    });
  const asked: ElicitationRequest[] = [];
  const prompter =
    (answer: ElicitationAnswer | (() => Promise<ElicitationAnswer>)): ElicitationPrompter =>
    async (req) => {
      asked.push(req);
      return typeof answer === 'function' ? answer() : answer;
    };
  return { engine, seen, asked, prompter, input: { session_id: 's1', cwd: '/tmp', transcript_path: '', permission_mode: 'default' } };
}

describe('elicit: who answers', () => {
  it('headless with no hooks: declined, and the trace says so', async () => {
    const o = await elicit(request());
    expect(o).toMatchObject({ action: 'decline', decidedBy: 'headless' });
    expect(o.trace.map((s) => s.stage)).toEqual(['prompt']);
    expect(o).not.toHaveProperty('content');
  });

  it('a hook answers before any UI; the payloads carry the reference fields', async () => {
    const t = setup({
      elicitation: () => out('Elicitation', { action: 'accept', content: { username: 'ada', plan: 'pro' } }),
      result: () => undefined,
    });
    const o = await elicit(request({ elicitationId: 'e1' }), {
      hooks: t.engine,
      prompter: t.prompter({ action: 'decline' }),
      input: t.input,
    });
    expect(o).toMatchObject({ action: 'accept', content: { username: 'ada', plan: 'pro' }, decidedBy: 'hook' });
    expect(t.asked).toEqual([]);
    expect(t.seen[0]).toMatchObject({
      hook_event_name: 'Elicitation',
      session_id: 's1',
      mcp_server_name: 'fx',
      message: 'Create an account',
      mode: 'form',
      elicitation_id: 'e1',
      requested_schema: ACCOUNT,
    });
    expect(t.seen[1]).toMatchObject({
      hook_event_name: 'ElicitationResult',
      mcp_server_name: 'fx',
      action: 'accept',
      mode: 'form',
      elicitation_id: 'e1',
      content: { username: 'ada', plan: 'pro' },
    });
    expect(o.trace.map((s) => `${s.stage}:${s.action ?? '-'}`)).toEqual(['Elicitation:accept', 'ElicitationResult:-', 'validate:accept']);
  });

  it('the matcher is the server name', async () => {
    const t = setup({ matcher: 'other', elicitation: () => out('Elicitation', { action: 'accept', content: { username: 'ada' } }) });
    const o = await elicit(request(), { hooks: t.engine, prompter: t.prompter({ action: 'accept', content: { username: 'user' } }) });
    expect(o).toMatchObject({ action: 'accept', content: { username: 'user' }, decidedBy: 'user' });
    expect(t.seen).toEqual([]);
  });

  it('no hook decides: the prompter answers, and a result hook may replace the content', async () => {
    const t = setup({
      elicitation: () => undefined,
      result: () => out('ElicitationResult', { action: 'accept', content: { username: 'replaced' } }),
    });
    const o = await elicit(request(), { hooks: t.engine, prompter: t.prompter({ action: 'accept', content: { username: 'typed' } }) });
    expect(o).toMatchObject({ action: 'accept', content: { username: 'replaced' }, decidedBy: 'result-hook' });
    expect(t.asked).toHaveLength(1);
    expect(t.seen[1]).toMatchObject({ action: 'accept', content: { username: 'typed' } });
  });

  it('a result hook may replace content without restating the action', async () => {
    const t = setup({ result: () => out('ElicitationResult', { content: { username: 'only content' } }) });
    const o = await elicit(request(), { hooks: t.engine, prompter: t.prompter({ action: 'accept', content: { username: 'typed' } }) });
    expect(o).toMatchObject({ action: 'accept', content: { username: 'only content' } });
  });

  it("a result hook may override the user's decline, and its content is validated", async () => {
    const ok = setup({ result: () => out('ElicitationResult', { action: 'accept', content: { username: 'from hook' } }) });
    expect(await elicit(request(), { hooks: ok.engine, prompter: ok.prompter({ action: 'decline' }) })).toMatchObject({
      action: 'accept',
      content: { username: 'from hook' },
    });
    const bad = setup({ result: () => out('ElicitationResult', { action: 'accept' }) });
    expect(await elicit(request(), { hooks: bad.engine, prompter: bad.prompter({ action: 'decline' }) })).toMatchObject({
      action: 'decline',
      decidedBy: 'validation',
    });
  });

  it('a result hook may cancel an accepted answer; its content is then dropped', async () => {
    const t = setup({ result: () => out('ElicitationResult', { action: 'cancel', content: { username: 'x' } }) });
    const o = await elicit(request(), { hooks: t.engine, prompter: t.prompter({ action: 'accept', content: { username: 'typed' } }) });
    expect(o).toEqual(expect.objectContaining({ action: 'cancel', decidedBy: 'result-hook' }));
    expect(o).not.toHaveProperty('content');
  });

  it("an Elicitation hook's decline or cancel is final: the prompter is not asked and a result hook cannot accept", async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const t = setup({
        elicitation: () => out('Elicitation', { action }),
        result: () => out('ElicitationResult', { action: 'accept', content: { username: 'sneaky' } }),
      });
      const o = await elicit(request(), { hooks: t.engine, prompter: t.prompter({ action: 'accept', content: { username: 'user' } }) });
      expect(o).toMatchObject({ action, decidedBy: 'hook' });
      expect(t.asked).toEqual([]);
      expect(o.trace.find((s) => s.stage === 'ElicitationResult')!.note).toMatch(/ignored/);
    }
  });

  it('decline/cancel of one hook wins over accept of another in the same step', async () => {
    const engine = createHookEngine({ projectDir: '/tmp' });
    engine.register({ event: 'Elicitation', fn: () => out('Elicitation', { action: 'decline' }) });
    engine.register({ event: 'Elicitation', fn: () => out('Elicitation', { action: 'accept', content: { username: 'ada' } }) });
    expect(await elicit(request(), { hooks: engine })).toMatchObject({ action: 'decline', decidedBy: 'hook' });
  });
});

describe('elicit: the final content passes the requested schema on every path', () => {
  const invalid = [
    [{ username: 'a' }, /username/],
    [{ plan: 'pro' }, /username/],
    [{ username: 'ada', plan: 'gold' }, /plan/],
    [{ username: 'ada', age: 1.5 }, /age/],
    [{ username: 'ada', age: 200 }, /age/],
    [{ username: 'ada', extra: 'leak' }, /extra/],
    [{ username: 42 }, /username/],
  ] as const;

  it.each(invalid)('a hook answer %j is not sent', async (content, why) => {
    const t = setup({ elicitation: () => out('Elicitation', { action: 'accept', content }) });
    const o = await elicit(request(), { hooks: t.engine });
    expect(o).toMatchObject({ action: 'decline', decidedBy: 'validation' });
    expect(o.message).toMatch(why);
    expect(o.message).toMatch(/declined, not sent$/);
    expect(o.trace.at(-1)).toMatchObject({ stage: 'validate', action: 'decline' });
  });

  it.each(invalid)('a user answer %j is not sent', async (content) => {
    const t = setup();
    const o = await elicit(request(), { hooks: t.engine, prompter: t.prompter({ action: 'accept', content: content as never }) });
    expect(o).toMatchObject({ action: 'decline', decidedBy: 'validation' });
  });

  it.each(invalid)('a result-hook replacement %j is not sent', async (content) => {
    const t = setup({ result: () => out('ElicitationResult', { content }) });
    const o = await elicit(request(), { hooks: t.engine, prompter: t.prompter({ action: 'accept', content: { username: 'valid' } }) });
    expect(o).toMatchObject({ action: 'decline', decidedBy: 'validation' });
  });

  it('accept without content: valid only when nothing is required', async () => {
    const t = setup({ elicitation: () => out('Elicitation', { action: 'accept' }) });
    expect(await elicit(request(), { hooks: t.engine })).toMatchObject({ action: 'decline', decidedBy: 'validation' });
    const optional = { type: 'object', properties: { note: { type: 'string' } } };
    expect(await elicit(request({ requestedSchema: optional }), { hooks: t.engine })).toMatchObject({ action: 'accept', content: {} });
  });

  it('url mode: no schema, an accept carries no content (what a hook or user adds is dropped)', async () => {
    const t = setup({ elicitation: () => out('Elicitation', { action: 'accept', content: { token: 'x' } }) });
    const o = await elicit({ server: 'fx', message: 'Log in', mode: 'url', url: 'https://login.example.test/' }, { hooks: t.engine });
    expect(o).toEqual(expect.objectContaining({ action: 'accept', decidedBy: 'hook' }));
    expect(o).not.toHaveProperty('content');
    expect(t.seen[0]).toMatchObject({ mode: 'url', url: 'https://login.example.test/' });
    expect(t.seen[0]).not.toHaveProperty('requested_schema');
  });

  it('a schema outside MCP’s subset (a nested object) is declined before any hook or UI', async () => {
    const t = setup({ elicitation: () => out('Elicitation', { action: 'accept', content: {} }) });
    const nested = { type: 'object', properties: { address: { type: 'object', properties: { city: { type: 'string' } } } } };
    const o = await elicit(request({ requestedSchema: nested }), {
      hooks: t.engine,
      prompter: t.prompter({ action: 'accept', content: {} }),
    });
    expect(o).toMatchObject({ action: 'decline', decidedBy: 'schema' });
    expect(o.message).toMatch(/address/);
    expect([t.seen, t.asked]).toEqual([[], []]);
  });
});

describe('elicit: failures', () => {
  it('a prompter that throws: cancel, with the error in the trace', async () => {
    const t = setup();
    const o = await elicit(request(), { hooks: t.engine, prompter: t.prompter(async () => Promise.reject(new Error('UI crashed'))) });
    expect(o).toMatchObject({ action: 'cancel', decidedBy: 'error' });
    expect(o.trace.find((s) => s.stage === 'prompt')!.note).toMatch(/UI crashed/);
  });

  it('a prompter that returns nonsense: decline', async () => {
    const o = await elicit(request(), { prompter: async () => ({ action: 'maybe' }) as never });
    expect(o).toMatchObject({ action: 'decline', decidedBy: 'error' });
  });

  it('a hook runner that throws: decline (fail closed), no UI', async () => {
    const asked: unknown[] = [];
    const o = await elicit(request(), {
      hooks: { run: async () => Promise.reject(new Error('engine gone')) },
      prompter: async (r) => {
        asked.push(r);
        return { action: 'accept', content: { username: 'ada' } };
      },
    });
    expect(o).toMatchObject({ action: 'decline', decidedBy: 'error', message: 'engine gone' });
    expect(asked).toEqual([]);
  });

  it('a hook that throws is a hook error (failure policy ignore): the user is asked', async () => {
    const t = setup({
      elicitation: () => {
        throw new Error('hook bug');
      },
    });
    const o = await elicit(request(), { hooks: t.engine, prompter: t.prompter({ action: 'accept', content: { username: 'user' } }) });
    expect(o).toMatchObject({ action: 'accept', decidedBy: 'user' });
  });

  it('the request is cancelled while the user is asked: cancel, and nothing is to be sent', async () => {
    const ac = new AbortController();
    const prompter: ElicitationPrompter = (_r, { signal }) =>
      new Promise((_, reject) => {
        signal.addEventListener('abort', () => reject(new Error('aborted')));
        setTimeout(() => ac.abort(), 10);
      });
    const o = await elicit(request(), { prompter, signal: ac.signal });
    expect(o).toMatchObject({ action: 'cancel', decidedBy: 'aborted' });
  });
});

describe('compileElicitationSchema: MCP’s restricted subset, through zod', () => {
  it('formats, enums (single, titled, legacy, multi-select), numbers and booleans', async () => {
    const c = await compileElicitationSchema({
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        size: {
          type: 'string',
          oneOf: [
            { const: 's', title: 'Small' },
            { const: 'm', title: 'Medium' },
          ],
        },
        color: { type: 'string', enum: ['red', 'green'], enumNames: ['Red', 'Green'] },
        tags: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['a', 'b', 'c'] } },
        score: { type: 'number', minimum: 0.5 },
        ok: { type: 'boolean' },
      },
    });
    if (!c.ok) throw new Error(c.error);
    const v = (x: unknown) => c.compiled.validate(x).ok;
    expect(
      v({
        email: 'a@b.example',
        site: 'https://x.example/y',
        day: '2024-01-02',
        at: '2024-01-02T03:04:05Z',
        size: 's',
        color: 'red',
        tags: ['a'],
        score: 1,
        ok: true,
      }),
    ).toBe(true);
    expect(v({ email: 'nope' })).toBe(false);
    expect(v({ site: 'not a uri' })).toBe(false);
    expect(v({ day: '2024-13-45' })).toBe(false);
    expect(v({ at: '2024-01-02' })).toBe(false);
    expect(v({ size: 'l' })).toBe(false);
    expect(v({ color: 'blue' })).toBe(false);
    expect(v({ tags: [] })).toBe(false);
    expect(v({ tags: ['a', 'd'] })).toBe(false);
    expect(v({ score: 0.1 })).toBe(false);
    expect(v({ ok: 'yes' })).toBe(false);
    expect(v([])).toBe(false);
    expect(v(null)).toBe(false);
  });

  it('refuses what is not a flat object of primitives, with the path', async () => {
    for (const bad of [
      { type: 'array' },
      { type: 'object', properties: { a: { type: 'object' } } },
      'nope',
      { type: 'object', properties: { n: { type: 'null' } } },
    ]) {
      const c = await compileElicitationSchema(bad);
      expect(c.ok).toBe(false);
    }
  });
});
