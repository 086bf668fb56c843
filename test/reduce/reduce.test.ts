import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { effectiveVerdict, reduce, strongerVerdict, type ReduceEntry } from '../../src/reduce/reduce.js';
import type { ParsedHook, Verdict } from '../../src/parse/output.js';
import type { FailureBehavior } from '../../src/types.js';

const entry = (
  parsed: Partial<ParsedHook>,
  failureBehavior: FailureBehavior = 'ignore',
  timeoutBehavior: FailureBehavior = 'ignore',
): ReduceEntry => ({
  hookId: `h${Math.random().toString(36).slice(2, 6)}`,
  parsed: { outcome: 'success', specific: {}, ...parsed },
  failureBehavior,
  timeoutBehavior,
});

describe('precedence deny > defer > ask > allow', () => {
  it('is order independent', () => {
    const verdicts: Verdict[] = ['allow', 'ask', 'defer', 'deny'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...verdicts), { minLength: 1, maxLength: 6 }), (list) => {
        const d = reduce(
          'PreToolUse',
          list.map((v) => entry({ verdict: v })),
          [],
        );
        const expected = verdicts.filter((v) => list.includes(v)).pop();
        expect(d.decision).toBe(expected);
      }),
    );
  });
  it('strongerVerdict', () => {
    expect(strongerVerdict('allow', 'ask')).toBe('ask');
    expect(strongerVerdict('deny', 'defer')).toBe('deny');
    expect(strongerVerdict(undefined, 'allow')).toBe('allow');
  });
  it('the reason comes from the first hook with the winning decision', () => {
    const d = reduce(
      'PreToolUse',
      [
        entry({ verdict: 'allow', reason: 'a' }),
        entry({ verdict: 'deny', reason: 'first deny' }),
        entry({ verdict: 'deny', reason: 'second' }),
      ],
      [],
    );
    expect(d).toMatchObject({ decision: 'deny', reason: 'first deny', blocked: true });
  });
});

describe('blocked semantics', () => {
  it('PreToolUse: deny and defer block, ask and allow do not', () => {
    expect(reduce('PreToolUse', [entry({ verdict: 'deny' })], []).blocked).toBe(true);
    expect(reduce('PreToolUse', [entry({ verdict: 'defer' })], []).blocked).toBe(true);
    expect(reduce('PreToolUse', [entry({ verdict: 'ask' })], []).blocked).toBe(false);
    expect(reduce('PreToolUse', [entry({ verdict: 'allow' })], []).blocked).toBe(false);
  });
  it('Stop block blocks; PostToolUse block is feedback only', () => {
    expect(reduce('Stop', [entry({ verdict: 'block', reason: 'r' })], []).blocked).toBe(true);
    const post = reduce('PostToolUse', [entry({ verdict: 'block', reason: 'r' })], []);
    expect(post.blocked).toBe(false);
    expect(post.decision).toBe('block');
  });
  it('a deny drops any rewrite', () => {
    const d = reduce('PreToolUse', [entry({ verdict: 'allow', updatedInput: { a: 1 } }), entry({ verdict: 'deny' })], []);
    expect(d.updatedInput).toBeUndefined();
  });
});

describe('merging', () => {
  it('keeps every additionalContext and systemMessage in config order', () => {
    const d = reduce(
      'PostToolUse',
      [entry({ additionalContext: 'one', systemMessage: 's1' }), entry({}), entry({ additionalContext: 'two', systemMessage: 's2' })],
      [],
    );
    expect(d.additionalContext).toEqual(['one', 'two']);
    expect(d.systemMessages).toEqual(['s1', 's2']);
  });
  it('any continue:false wins and keeps the first stopReason', () => {
    const d = reduce(
      'PostToolUse',
      [entry({}), entry({ continue: false, stopReason: 'first' }), entry({ continue: false, stopReason: 'second' })],
      [],
    );
    expect(d.continue).toBe(false);
    expect(d.stopReason).toBe('first');
  });
  it('event-specific fields: watchPaths concatenate, retry is any-true, decline beats accept', () => {
    const d = reduce(
      'SessionStart',
      [entry({ specific: { watchPaths: ['/a'], sessionTitle: 'x' } }), entry({ specific: { watchPaths: ['/b'], sessionTitle: 'y' } })],
      [],
    );
    expect(d.eventOutput).toEqual({ watchPaths: ['/a', '/b'], sessionTitle: 'y' });
    const e = reduce(
      'Elicitation',
      [entry({ specific: { action: 'decline' } }), entry({ specific: { action: 'accept', content: { a: 1 } } })],
      [],
    );
    expect(e.eventOutput.action).toBe('decline');
  });
});

describe('failure and timeout policy', () => {
  it('ignore proceeds with a warning', () => {
    const d = reduce('PreToolUse', [entry({ outcome: 'non_blocking_error', message: 'exit 1' })], []);
    expect(d.decision).toBeUndefined();
    expect(d.blocked).toBe(false);
    expect(d.warnings.join()).toContain('exit 1');
  });
  it('ask and deny on PreToolUse', () => {
    expect(reduce('PreToolUse', [entry({ outcome: 'error' }, 'ask')], []).decision).toBe('ask');
    const d = reduce('PreToolUse', [entry({ outcome: 'error' }, 'deny')], []);
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.reason).toContain('failureBehavior: deny');
  });
  it('timeouts use timeoutBehavior, not failureBehavior', () => {
    expect(reduce('PreToolUse', [entry({ outcome: 'timeout' }, 'deny', 'ignore')], []).decision).toBeUndefined();
    expect(reduce('PreToolUse', [entry({ outcome: 'timeout' }, 'ignore', 'deny')], []).decision).toBe('deny');
  });
  it('deny on a blockable non-permission event blocks; on an observation event it is ignored', () => {
    expect(reduce('Stop', [entry({ outcome: 'error' }, 'deny')], []).blocked).toBe(true);
    const n = reduce('PostToolUse', [entry({ outcome: 'error' }, 'deny')], []);
    expect(n.blocked).toBe(false);
    expect(n.warnings.join()).toContain('not applicable');
  });
});

describe('permission modes', () => {
  it('bypassPermissions and yolo turn a PreToolUse ask into allow but keep deny and rewrites', () => {
    for (const mode of ['bypassPermissions', 'yolo']) {
      const ask = reduce('PreToolUse', [entry({ verdict: 'ask', updatedInput: { command: 'x' } })], [], { permissionMode: mode });
      expect(ask).toMatchObject({ decision: 'allow', updatedInput: { command: 'x' } });
      expect(reduce('PreToolUse', [entry({ verdict: 'deny' })], [], { permissionMode: mode }).decision).toBe('deny');
    }
    expect(reduce('PreToolUse', [entry({ verdict: 'ask' })], [], { permissionMode: 'default' }).decision).toBe('ask');
  });
  it('bypass does not touch PermissionRequest', () => {
    const e = effectiveVerdict('PermissionRequest', entry({ verdict: 'deny' }), 'bypassPermissions');
    expect(e.verdict).toBe('deny');
  });
});

describe('a mode only reported by the agent (modeChosen: false)', () => {
  it('a reported bypass denies an ask with the reason, never allows it; a later allow cannot lift it', () => {
    for (const mode of ['bypassPermissions', 'yolo']) {
      const d = reduce('PreToolUse', [entry({ verdict: 'ask', reason: 'sure?' }), entry({ verdict: 'allow' })], [], {
        permissionMode: mode,
        modeChosen: false,
      });
      expect(d).toMatchObject({ decision: 'deny', blocked: true });
      expect(d.reason).toBe(`approval required, but the agent runs in ${mode} mode and will not ask the user: sure?`);
    }
  });
  it('a reported default mode keeps the ask; a reported bypass leaves PermissionRequest and allows alone', () => {
    expect(reduce('PreToolUse', [entry({ verdict: 'ask' })], [], { permissionMode: 'default', modeChosen: false }).decision).toBe('ask');
    expect(
      reduce('PreToolUse', [entry({ verdict: 'allow' })], [], { permissionMode: 'bypassPermissions', modeChosen: false }).decision,
    ).toBe('allow');
    expect(
      reduce('PermissionRequest', [entry({ verdict: 'ask' })], [], { permissionMode: 'bypassPermissions', modeChosen: false }).decision,
    ).toBe('ask');
  });
});

describe('rewrites that cannot be applied', () => {
  it('one the host refused (invalidRewrite) denies with its reason and never becomes the input', () => {
    const e = {
      ...entry({ verdict: 'allow', updatedInput: { command: 42 } }),
      invalidRewrite: 'hook h rewrote the input of Bash invalidly: x',
    };
    const d = reduce('PreToolUse', [e], []);
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'hook h rewrote the input of Bash invalidly: x' });
    expect(d.updatedInput).toBeUndefined();
  });
  it('a per-file view of a patch: its rewrite denies the patch; its plain answers count as any hook', () => {
    const view = { tool: 'Write', filePath: '/w/a' };
    const rewritten = reduce('PreToolUse', [{ ...entry({ updatedInput: { file_path: '/w/b', content: '' } }), view }], []);
    expect(rewritten).toMatchObject({ decision: 'deny', blocked: true });
    expect(rewritten.reason).toContain('rewrote the Write view of /w/a');
    expect(rewritten.updatedInput).toBeUndefined();
    const asked = reduce(
      'PreToolUse',
      [entry({ verdict: 'allow', updatedInput: { command: 'p' } }), { ...entry({ verdict: 'ask' }), view }],
      [],
    );
    expect(asked).toMatchObject({ decision: 'ask', updatedInput: { command: 'p' } });
  });
  it('a patch whose files the per-file guards cannot be shown is denied first, whatever the hooks said', () => {
    const d = reduce('PreToolUse', [entry({ verdict: 'allow', updatedInput: { command: 'p' } })], [], { undeterminedPatch: 'no file' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'no file' });
    expect(d.updatedInput).toBeUndefined();
    expect(d.warnings).toContain('no file');
  });
});

describe('the Stop continuation cap', () => {
  it('blocks up to the cap in a row, then lets the agent stop with a warning', () => {
    const block = () => [entry({ verdict: 'block', reason: 'keep going' })];
    expect(reduce('Stop', block(), [], { continuation: { before: 7, cap: 8 } }).blocked).toBe(true);
    const released = reduce('Stop', block(), [], { continuation: { before: 8, cap: 8 } });
    expect(released.blocked).toBe(false);
    expect(released.decision).toBeUndefined();
    expect(released.warnings.join('\n')).toMatch(/blocked 9 consecutive times \(cap 8\).*keep going/);
    expect(reduce('SubagentStop', block(), [], { continuation: { before: 8, cap: 8 } }).blocked).toBe(false);
  });
  it('never touches an event without the cap, nor a firing that does not block', () => {
    expect(reduce('PreToolUse', [entry({ verdict: 'deny' })], [], { continuation: { before: 99, cap: 1 } }).blocked).toBe(true);
    expect(reduce('Stop', [entry({})], [], { continuation: { before: 99, cap: 1 } }).warnings).toEqual([]);
  });
});

describe('what the stages before hand reduce', () => {
  it('the CLAUDE_ENV_FILE exports become eventOutput.env; notes are kept after the hooks’ own warnings', () => {
    const d = reduce('SessionStart', [entry({ outcome: 'error', message: 'x' })], [], { env: { A: '1' }, warnings: ['note'] });
    expect(d.eventOutput.env).toEqual({ A: '1' });
    expect(d.warnings[d.warnings.length - 1]).toBe('note');
    expect(reduce('SessionStart', [], [], { env: {} }).eventOutput).toEqual({});
  });
});
