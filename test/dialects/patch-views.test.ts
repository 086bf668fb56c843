/**
 * A Claude file-tool guard (`Edit|Write`, no ApplyPatch) under `dispatch` on an agent whose edit
 * tool is a multi-file patch: it runs once per file, on a Claude-shaped view of that file.
 * Real CLI, real hook processes; the payloads are the ones Codex 0.169 and Droid 0.225 send.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parsePatch } from '../../src/host/tools/apply-patch.js';
import { fileViewsOf, viewInput, viewToolFor } from '../../src/matching/patch-view.js';
import { parsePatchFiles } from '../../src/matching/paths.js';
import { createHookEngine } from '../../src/engine/engine.js';
import type { FunctionHookRegistration } from '../../src/engine/types.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { runCli } from './cli.js';

let dir: TempDir;
beforeAll(() => {
  dir = tempDir('agent-hooks-patch-views-');
});
afterAll(() => dir.cleanup());

const PATCH = [
  '*** Begin Patch',
  '*** Add File: notes.txt',
  '+hello',
  '+world',
  '*** Update File: src/app.ts',
  '@@ function main',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  '@@',
  '-old tail',
  '+new tail',
  '*** Update File: config/old.env.example',
  '*** Move to: config/.env',
  '@@',
  '-X=1',
  '+X=2',
  '*** Delete File: secrets/.env',
  '*** End Patch',
].join('\n');

/** A guard that logs every tool call it sees and denies one whose file_path ends in `.env`. */
function guard(name: string, matcher: string, extra: Record<string, unknown> = {}): { settings: string; log: string } {
  const log = join(dir.root, `${name}.log`);
  const script = dir.write(
    `${name}.mjs`,
    `import { appendFileSync } from 'node:fs';
let t = ''; process.stdin.on('data', (c) => (t += c)); process.stdin.on('end', () => {
  const p = JSON.parse(t);
  appendFileSync(${JSON.stringify(log)}, JSON.stringify({ tool_name: p.tool_name, tool_input: p.tool_input }) + '\\n');
  const out = ${JSON.stringify(extra)};
  if (String(p.tool_input?.file_path ?? '').endsWith('.env')) { process.stderr.write('protected file: ' + p.tool_input.file_path); process.exit(2); }
  if (Object.keys(out).length) process.stdout.write(JSON.stringify(out));
});`,
  );
  return {
    settings: dir.json(`${name}.json`, {
      hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command: `node ${JSON.stringify(script)}` }] }] },
    }),
    log,
  };
}

function seen(log: string): Array<{ tool_name: string; tool_input: Record<string, unknown> }> {
  try {
    return readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

const codexPayload = (patch: string, cwd: string) => ({
  session_id: '01a232f2-ce38-7da0-a408-f20479a172db',
  turn_id: 't1',
  transcript_path: null,
  cwd,
  hook_event_name: 'PreToolUse',
  model: 'gpt-5.5',
  permission_mode: 'bypassPermissions',
  tool_name: 'apply_patch',
  tool_input: { command: patch },
  tool_use_id: 'call_1',
});

describe('parsePatchFiles agrees with the reference runtime ApplyPatch tool', () => {
  test('same files, kinds, added content and hunk sides on a well-formed patch', () => {
    const strict = parsePatch(PATCH);
    const lenient = parsePatchFiles(PATCH);
    expect(lenient.map((f) => [f.kind, f.path])).toEqual(strict.map((o) => [o.kind, o.path]));
    for (const [i, op] of strict.entries()) {
      const f = lenient[i]!;
      if (op.kind === 'add' && f.kind === 'add') expect(f.content).toBe(op.content);
      if (op.kind === 'update' && f.kind === 'update') {
        expect(f.moveTo).toBe(op.moveTo);
        expect(f.hunks).toEqual(
          op.hunks.map((h) => ({
            oldText: h.lines
              .filter((l) => l.op !== '+')
              .map((l) => l.text)
              .join('\n'),
            newText: h.lines
              .filter((l) => l.op !== '-')
              .map((l) => l.text)
              .join('\n'),
          })),
        );
      }
    }
  });

  test('a patch the tool would refuse still names its files (lenient: a guard must see them)', () => {
    const broken = '*** Update File: a.txt\nno prefix here\n*** Delete File: b/.env\n';
    expect(() => parsePatch(broken)).toThrow();
    expect(parsePatchFiles(broken).map((f) => f.path)).toEqual(['a.txt', 'b/.env']);
  });
});

describe('per-file views', () => {
  test('Add → Write, Update → Edit (hunks joined), Move target viewed too, Delete → Write with empty content; paths absolute', () => {
    const views = fileViewsOf({ command: PATCH }, '/work/p');
    expect(views.map((v) => [v.kind, v.filePath])).toEqual([
      ['add', '/work/p/notes.txt'],
      ['update', '/work/p/src/app.ts'],
      ['update', '/work/p/config/old.env.example'],
      ['update', '/work/p/config/.env'],
      ['delete', '/work/p/secrets/.env'],
    ]);
    const all = (t: string) => ['Write', 'Edit', 'MultiEdit'].includes(t);
    expect(viewInput(views[0]!, viewToolFor('add', all)!)).toEqual({ file_path: '/work/p/notes.txt', content: 'hello\nworld\n' });
    expect(viewToolFor('update', all)).toBe('Edit');
    expect(viewInput(views[1]!, 'Edit')).toEqual({
      file_path: '/work/p/src/app.ts',
      old_string: 'const a = 1;\nconst b = 2;\nold tail',
      new_string: 'const a = 1;\nconst b = 3;\nnew tail',
    });
    expect(viewInput(views[1]!, 'MultiEdit')).toEqual({
      file_path: '/work/p/src/app.ts',
      edits: [
        { old_string: 'const a = 1;\nconst b = 2;', new_string: 'const a = 1;\nconst b = 3;' },
        { old_string: 'old tail', new_string: 'new tail' },
      ],
    });
    expect(viewInput(views[4]!, viewToolFor('delete', all)!)).toEqual({ file_path: '/work/p/secrets/.env', content: '' });
  });

  test('a matcher that selects only Edit sees an added file as Edit, one that selects only Write sees an update as Write', () => {
    expect(viewToolFor('add', (t) => t === 'Edit')).toBe('Edit');
    expect(viewToolFor('update', (t) => t === 'Write')).toBe('Write');
    const views = fileViewsOf({ command: PATCH }, '/w');
    expect(viewInput(views[0]!, 'Edit')).toEqual({ file_path: '/w/notes.txt', old_string: '', new_string: 'hello\nworld\n' });
  });
});

/** The engine plans and judges the views (src/engine/plan-views.ts); function hooks record what they saw. */
describe('per-file views in the engine (every door: the library, run, test, sessions, the runtime, the policy server)', () => {
  const patchCall = (patch: string) => ({ session_id: 's', cwd: '/w', tool_name: 'ApplyPatch', tool_input: { command: patch } });
  type Answer = Awaited<ReturnType<FunctionHookRegistration['fn']>>;
  function engineWith(...hooks: Array<{ matcher?: string; answer?: (input: Record<string, unknown>) => Answer }>) {
    const engine = createHookEngine();
    const seen: Array<{ hook: number; tool: unknown; file: unknown }> = [];
    hooks.forEach((h, i) => {
      engine.register({
        event: 'PreToolUse',
        ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
        fn: (input) => {
          const ti = input.tool_input as Record<string, unknown>;
          seen.push({ hook: i, tool: input.tool_name, file: ti.file_path });
          return h.answer?.(input as Record<string, unknown>);
        },
      });
    });
    return { engine, seen };
  }
  const deny = (reason: string) => ({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  });

  test('only hooks that select a file tool and not ApplyPatch see the patch per file; the others see the patch once', async () => {
    const matchers = ['Edit|Write', 'Edit|Write|MultiEdit|ApplyPatch', '*', undefined, 'Bash', '^(Edit|Write)$', 'MultiEdit'];
    const { engine, seen } = engineWith(...matchers.map((matcher) => ({ ...(matcher !== undefined ? { matcher } : {}) })));
    await engine.run('PreToolUse', patchCall('*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch'));
    expect(seen.filter((s) => s.tool === 'ApplyPatch').map((s) => matchers[s.hook])).toEqual([
      'Edit|Write|MultiEdit|ApplyPatch',
      '*',
      undefined,
    ]);
    expect(seen.filter((s) => s.tool !== 'ApplyPatch').map((s) => [matchers[s.hook], s.tool, s.file])).toEqual([
      ['Edit|Write', 'Write', '/w/a.txt'],
      ['^(Edit|Write)$', 'Write', '/w/a.txt'],
      ['MultiEdit', 'MultiEdit', '/w/a.txt'],
    ]);
    await engine.close();
  });

  test('hooks that judge each file, but a patch with no readable file: denied, the guard never ran', async () => {
    const { engine, seen } = engineWith({ matcher: 'Edit|Write' }, { matcher: 'ApplyPatch' });
    const d = await engine.run('PreToolUse', patchCall('not a patch'));
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.reason).toMatch(/1 Edit\/Write hook\(s\).*denied/);
    expect(seen.map((s) => s.tool)).toEqual(['ApplyPatch']);
    // Only hooks naming ApplyPatch: they see the patch itself, nothing is undetermined.
    const only = engineWith({ matcher: 'ApplyPatch' });
    expect((await only.engine.run('PreToolUse', patchCall('not a patch'))).decision).toBeUndefined();
  });

  test('a non-patch payload has no views', async () => {
    const { engine, seen } = engineWith({ matcher: 'Edit|Write' });
    await engine.run('PreToolUse', { session_id: 's', cwd: '/w', tool_name: 'Bash', tool_input: { command: PATCH } });
    expect(seen).toEqual([]);
  });

  test('a per-file deny wins over the patch-level allow and its rewrite', async () => {
    const { engine } = engineWith(
      {
        matcher: 'ApplyPatch',
        answer: (i) => ({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'allow',
            updatedInput: { ...(i.tool_input as object), note: 1 },
          },
        }),
      },
      {
        matcher: 'Write',
        answer: (i) => (String((i.tool_input as { file_path: string }).file_path).endsWith('.env') ? deny('no .env') : undefined),
      },
    );
    const d = await engine.run('PreToolUse', patchCall('*** Begin Patch\n*** Add File: .env\n+A=1\n*** End Patch'));
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'no .env' });
    expect(d.updatedInput).toBeUndefined();
  });

  test('the views judge the patch as rewritten by the hooks before them', async () => {
    const { engine, seen } = engineWith(
      {
        matcher: 'ApplyPatch',
        answer: () => ({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'allow',
            updatedInput: { command: '*** Begin Patch\n*** Add File: .env\n+A=1\n*** End Patch' },
          },
        }),
      },
      { matcher: 'Write', answer: () => deny('no') },
    );
    const d = await engine.run('PreToolUse', patchCall('*** Begin Patch\n*** Add File: ok.txt\n+a\n*** End Patch'));
    expect(seen.map((s) => s.file)).toEqual([undefined, '/w/.env']);
    expect(d.decision).toBe('deny');
  });

  test('a per-file rewrite cannot go back onto the patch: deny with the reason', async () => {
    const { engine } = engineWith({
      matcher: 'Write',
      answer: () => ({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          updatedInput: { file_path: '/w/other', content: '' },
        },
      }),
    });
    const d = await engine.run('PreToolUse', patchCall('*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch'));
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.reason).toContain('per-file rewrite cannot be applied back onto the patch');
    expect(d.updatedInput).toBeUndefined();
  });

  test('contexts of every hook are kept, an ask stands over allows', async () => {
    const { engine } = engineWith(
      { matcher: 'ApplyPatch', answer: () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'a' } }) },
      {
        matcher: 'Write',
        answer: () => ({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'ask',
            permissionDecisionReason: 'sure?',
            additionalContext: 'b',
          },
        }),
      },
    );
    const d = await engine.run('PreToolUse', patchCall('*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch'));
    expect(d).toMatchObject({ decision: 'ask', reason: 'sure?', additionalContext: ['a', 'b'] });
  });
});

describe('dispatch --agent codex: a Claude Edit|Write guard on apply_patch', () => {
  test('runs once per file with Claude shapes until the .env file denies the patch', async () => {
    const g = guard('codex-env', 'Edit|Write');
    const r = await runCli(['dispatch', '--agent', 'codex', '--settings', g.settings], JSON.stringify(codexPayload(PATCH, dir.root)));
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain(`protected file: ${join(dir.root, 'config/.env')}`);
    const calls = seen(g.log);
    expect(calls.map((c) => [c.tool_name, c.tool_input.file_path])).toEqual([
      ['Write', join(dir.root, 'notes.txt')],
      ['Edit', join(dir.root, 'src/app.ts')],
      ['Edit', join(dir.root, 'config/old.env.example')],
      ['Edit', join(dir.root, 'config/.env')],
    ]); // the first deny ends the chain: secrets/.env is not asked about
    expect(calls[0]!.tool_input).toEqual({ file_path: join(dir.root, 'notes.txt'), content: 'hello\nworld\n' });
  });

  test('a patch touching no protected file is allowed (no answer), each file still seen', async () => {
    const g = guard('codex-ok', 'Write|Edit');
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+a\n*** Add File: b.txt\n+b\n*** End Patch';
    const r = await runCli(['dispatch', '--agent', 'codex', '--settings', g.settings], JSON.stringify(codexPayload(patch, dir.root)));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('');
    expect(seen(g.log).map((c) => c.tool_name)).toEqual(['Write', 'Write']);
  });

  test('a per-file updatedInput fails closed: the patch is denied with the reason and a note', async () => {
    const g = guard('codex-rewrite', 'Write', {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { file_path: '/tmp/elsewhere', content: 'x' },
      },
    });
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch';
    const r = await runCli(['dispatch', '--agent', 'codex', '--settings', g.settings], JSON.stringify(codexPayload(patch, dir.root)));
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('cannot be applied back onto the patch');
  });

  test('a patch no file can be read from fails closed for the per-file hooks: denied, the guard never ran', async () => {
    const g = guard('codex-unreadable', 'Edit|Write');
    const r = await runCli(
      ['dispatch', '--agent', 'codex', '--settings', g.settings],
      JSON.stringify(codexPayload('*** Begin Patch\n*** End Patch', dir.root)),
    );
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('no file could be read from this patch');
    expect(seen(g.log)).toEqual([]);
  });

  test('a hook naming ApplyPatch keeps getting the patch itself, once', async () => {
    const g = guard('codex-patch', 'Edit|Write|ApplyPatch');
    const r = await runCli(['dispatch', '--agent', 'codex', '--settings', g.settings], JSON.stringify(codexPayload(PATCH, dir.root)));
    expect(r.code, r.stderr).toBe(0);
    const calls = seen(g.log);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.tool_name).toBe('ApplyPatch');
    expect(calls[0]!.tool_input).toEqual({ command: PATCH });
  });
});

describe('dispatch --agent droid: a Claude Edit|Write guard on Droid ApplyPatch', () => {
  test('the .env file in the patch is denied', async () => {
    const g = guard('droid-env', 'Edit|Write');
    const patch = '*** Begin Patch\n*** Add File: .env\n+SECRET=1\n*** End Patch';
    const payload = {
      session_id: 's',
      transcript_path: '/tmp/t.jsonl',
      cwd: dir.root,
      hook_event_name: 'PreToolUse',
      permission_mode: 'auto-high',
      tool_name: 'ApplyPatch',
      tool_input: { input: patch },
    };
    const r = await runCli(['dispatch', '--agent', 'droid', '--settings', g.settings], JSON.stringify(payload));
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain(`protected file: ${join(dir.root, '.env')}`);
    expect(seen(g.log).map((c) => c.tool_name)).toEqual(['Write']);
  });
});

describe('parsePatchFiles sees every path extractPatchPaths sees (property)', () => {
  test('for any mix of headers and body lines, the same set of paths', async () => {
    const fc = (await import('fast-check')).default;
    const { extractPatchPaths } = await import('../../src/matching/paths.js');
    const name = fc.stringMatching(/^[a-z./]{0,6}$/);
    const line = fc.oneof(
      name.map((p) => `*** Add File: ${p}`),
      name.map((p) => `*** Update File: ${p}`),
      name.map((p) => `*** Delete File: ${p}`),
      name.map((p) => `*** Move to: ${p}`),
      fc.constantFrom('*** Begin Patch', '*** End Patch', '*** End of File', '@@', '@@ ctx'),
      fc.tuple(fc.constantFrom('+', '-', ' ', ''), name).map(([op, t]) => `${op}${t}`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), (lines) => {
        const text = lines.join('\n');
        const seen = new Set(parsePatchFiles(text).flatMap((f) => (f.kind === 'update' && f.moveTo ? [f.path, f.moveTo] : [f.path])));
        expect(seen).toEqual(new Set(extractPatchPaths(text)));
      }),
      { numRuns: 500 },
    );
  });
});
