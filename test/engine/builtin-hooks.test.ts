/**
 * builtinHooks.codeReview: the engine's own code-review prompt hook on PostToolUse, off by
 * default, on while the config has no PostToolUse hook, run through the normal plan (matcher,
 * a patch's per-file views) and reduce; the same hook as the code-review preset.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CODE_REVIEW_MATCHER, CODE_REVIEW_PROMPT, CODE_REVIEW_TIMEOUT } from '../../src/engine/builtin-hooks.js';
import { createHookEngine } from '../../src/engine/engine.js';
import type { HookEngineOptions } from '../../src/engine/types.js';
import type { NormalizedHook } from '../../src/types.js';

/** A model that finds a defect in every change and records what it was asked. */
function reviewer() {
  const asked: string[] = [];
  const provider = {
    complete: async (req: { prompt: string }) => {
      asked.push(req.prompt);
      return { text: JSON.stringify({ ok: false, reason: 'the new function never returns its result' }) };
    },
  };
  return { asked, prompt: { provider, defaultModel: 'reviewer' } };
}

const write = { tool_name: 'Write', tool_input: { file_path: 'src/a.ts', content: 'export const f = () => { 1; };' }, tool_response: {} };
const postToolUse = (hooks: NormalizedHook[] = []): NormalizedHook => ({
  id: 'cli:s.json#hooks.PostToolUse[0].hooks[0]',
  event: 'PostToolUse',
  handler: { type: 'function', fn: () => undefined },
  source: { kind: 'cli', file: 's.json', path: 'hooks.PostToolUse[0].hooks[0]' },
  dedupKey: `\0mine${hooks.length}`,
});

async function fire(options: HookEngineOptions, input: Record<string, unknown> = write) {
  const engine = createHookEngine({ spawner: false, ...options });
  try {
    return await engine.run('PostToolUse', input as never);
  } finally {
    await engine.close();
  }
}

describe('builtinHooks.codeReview', () => {
  it('on: a model reviews each edit and a defect is fed back to the agent, as the hook builtin:codeReview', async () => {
    const r = reviewer();
    const d = await fire({ builtinHooks: { codeReview: true }, prompt: r.prompt });
    expect(d.hooks.map((h) => [h.id, h.type, h.outcome])).toEqual([['builtin:codeReview', 'prompt', 'success']]);
    // Fed back, and the agent goes on: PostToolUse's block is feedback, never the end of the turn.
    expect(d.decision).toBe('block');
    expect(d.continue).toBe(true);
    expect(d.reason).toBe('the new function never returns its result');
    expect(r.asked[0]).toContain('"file_path":"src/a.ts"');
    expect(r.asked[0]).toContain('Review the code change');
  });

  it('sees each file of an ApplyPatch, and not a Read', async () => {
    const r = reviewer();
    const patch = ['*** Begin Patch', '*** Add File: a.ts', '+1', '*** Add File: b.ts', '+2', '*** End Patch', ''].join('\n');
    const d = await fire(
      { builtinHooks: { codeReview: true }, prompt: r.prompt },
      { tool_name: 'ApplyPatch', tool_input: { patch }, tool_response: {} },
    );
    expect(d.hooks).toHaveLength(2);
    const read = await fire(
      { builtinHooks: { codeReview: true }, prompt: r.prompt },
      { tool_name: 'Read', tool_input: { file_path: 'a' }, tool_response: {} },
    );
    expect(read.hooks).toEqual([]);
    expect(r.asked).toHaveLength(2);
  });

  it('off by default, and off while the config has a PostToolUse hook of its own (also after setHooks)', async () => {
    const r = reviewer();
    expect((await fire({ prompt: r.prompt })).hooks).toEqual([]);
    const mine = await fire({ builtinHooks: { codeReview: true }, prompt: r.prompt, hooks: [postToolUse()] });
    expect(mine.hooks.map((h) => h.id)).toEqual(['cli:s.json#hooks.PostToolUse[0].hooks[0]']);
    const engine = createHookEngine({ spawner: false, builtinHooks: { codeReview: true }, prompt: r.prompt });
    try {
      expect(engine.list('PostToolUse').map((h) => h.id)).toEqual(['builtin:codeReview']);
      engine.setHooks([postToolUse()]);
      expect(engine.list('PostToolUse').map((h) => h.source.kind)).toEqual(['cli']);
      engine.setHooks([]);
      expect(engine.list('PostToolUse').map((h) => h.source.kind)).toEqual(['builtin']);
    } finally {
      await engine.close();
    }
    expect(r.asked).toEqual([]);
  });

  it('a misspelt key is a TypeError with the nearest one', () => {
    expect(() => createHookEngine({ builtinHooks: { codeReveiw: true } as never })).toThrow(
      'createHookEngine: unknown option "builtinHooks.codeReveiw" (did you mean "builtinHooks.codeReview"?)',
    );
  });

  it('is the code-review preset, word for word', () => {
    const file = fileURLToPath(new URL('../../presets/code-review/.claude/hooks/code-review.test.yaml', import.meta.url));
    const group = parse(readFileSync(file, 'utf8')).defaults.hooks.PostToolUse[0];
    expect(group).toEqual({
      matcher: CODE_REVIEW_MATCHER,
      hooks: [{ type: 'prompt', timeout: CODE_REVIEW_TIMEOUT, continueOnBlock: true, prompt: CODE_REVIEW_PROMPT }],
    });
  });
});
