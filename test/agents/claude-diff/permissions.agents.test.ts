/**
 * Permission rules: the reference runtime's engine (src/host/permissions.ts) against the real
 * Claude Code. Each rule set goes to Claude Code 2.1.328 (offline, loopback-only namespace, fake
 * model) in `permissions`, with a model script of Bash and Write calls; every call is judged by
 * `createPermissionEngine` with the same rules. The engine may refuse more than Claude Code (it
 * keeps no list of read-only commands, and reads a deny rule widely), never less:
 *   - allow rules: every call the engine allows, Claude Code ran;
 *   - deny rules: every call Claude Code refused, the engine denies.
 * A call Claude Code refused is one in its `permission_denials`. Results: permissions.json here.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPermissionEngine, type PermissionRules } from '../../../src/host/index.js';
import { ensureAgent, PINS } from '../harness/cache.js';
import { claudeEnv } from '../harness/claude.js';
import { EXAMPLE_COM_URLS, HIDDEN_RM_COMMANDS } from './calls.js';
import { makeRunDirs, namespaceUnavailable, runInNamespace, type ToolCall } from '../harness/run.js';

const RESULTS = join(import.meta.dirname, 'permissions.json');

interface RuleCase {
  id: string;
  rules: PermissionRules;
  /** Claude Code's own allow-list for the run (`--allowedTools`). */
  allowedTools: string[];
  calls: ToolCall[];
  /** What the comparison asserts (header). */
  expects: 'allow' | 'deny';
  /** Calls Claude Code must refuse for the run to mean anything (the rule took effect). */
  mustRefuse: string[];
  /** Files the workspace holds before the run (links the agent made earlier). */
  setup?: (work: string) => void;
}

const bash = (command: string): ToolCall => ({ name: 'Bash', input: { command, description: 'run it' } });
const write = (file: string): ToolCall => ({ name: 'Write', input: { file_path: file, content: 'x\n' } });

const CASES: RuleCase[] = [
  {
    id: 'allow-touch',
    rules: { allow: ['Bash(touch a*)'] },
    allowedTools: ['Write'],
    expects: 'allow',
    mustRefuse: ['touch a2 && mkdir b2'],
    calls: [
      'touch a1',
      'touch a2 && mkdir b2',
      'touch a3; mkdir d3',
      'touch a4 $(touch b4)',
      'touch a5 "unterminated',
      'touch a6 | tee b6',
      'timeout 5 touch a7',
      'touch a8 || mkdir d8',
      'touch a9 & mkdir d9',
      'FOO=1 touch a10',
      'mkdir d11',
      'touch a12 > f12',
      'touch a13 2>/dev/null',
      'touch $HOME/a14',
      'env touch a15',
      'env X=1 touch a16',
      "bash -c 'touch a17'",
      '( touch a18 )',
      '{ touch a19; }',
      'touch a20\ntouch a21',
      'touch a22 && touch a23',
      'nice touch a24',
      'nohup touch a25',
      'time touch a26',
      'command touch a27',
      '/usr/bin/touch a28',
      'touch "a29"',
      'touch a30 < /dev/null',
      'xargs touch a31 < /dev/null',
      'touch ~/a32',
      'touch a33 *.nothing',
      'stdbuf -o0 touch a34',
      'exec touch a35',
      'touch a36 >> f36',
      'touch a37 | touch a38',
      'touch a{39,40}',
    ].map(bash),
  },
  {
    id: 'allow-edit-paths',
    rules: { allow: ['Edit(./docs/*.md)', 'Edit(src/**)', 'Edit(notes.txt)'] },
    allowedTools: ['Bash'],
    expects: 'allow',
    mustRefuse: ['x/y.md'],
    calls: [
      'docs/a.md',
      'x/docs/a.md',
      'docs/deep/b.md',
      'docs/../c.md',
      'DOCS/a.md',
      'src/a.ts',
      'src/deep/b.ts',
      'lib/src/a.ts',
      'notes.txt',
      'sub/notes.txt',
      'x/y.md',
      './docs/d.md',
    ].map((file) => write(file)),
  },
  // A grant names the path as written; a Write follows a link to wherever it points.
  {
    id: 'allow-write-through-link',
    rules: { allow: ['Edit(notes.txt)', 'Edit(inside.txt)', 'Edit(plain.txt)', 'Edit(outlink/**)', 'Edit(inlink/**)'] },
    allowedTools: ['Read'],
    expects: 'allow',
    mustRefuse: ['other.txt'],
    setup: (work) => {
      writeFileSync(join(work, '..', 'outside.txt'), 'before\n');
      symlinkSync('../outside.txt', join(work, 'notes.txt'));
      writeFileSync(join(work, 'target.txt'), 'before\n');
      symlinkSync('target.txt', join(work, 'inside.txt'));
      mkdirSync(join(work, '..', 'outdir'));
      symlinkSync('../outdir', join(work, 'outlink'));
      mkdirSync(join(work, 'realdir'));
      symlinkSync('realdir', join(work, 'inlink'));
    },
    calls: ['notes.txt', 'inside.txt', 'plain.txt', 'other.txt', 'outlink/new.txt', 'inlink/new.txt'].map((file) => write(file)),
  },
  {
    id: 'allow-write-rule',
    rules: { allow: ['Write(plain.txt)', 'Write(sub/**)'] },
    allowedTools: ['Read'],
    expects: 'allow',
    mustRefuse: ['other.txt'],
    calls: ['plain.txt', 'sub/a.txt', 'other.txt', 'plain.txt'].map((file) => write(file)),
  },
  {
    id: 'deny-rm-env',
    rules: { deny: ['Bash(rm *)', 'Edit(.env)'] },
    allowedTools: ['Bash', 'Write', 'Edit'],
    expects: 'deny',
    mustRefuse: ['rm -f nofile1', '.env', '.ENV'],
    calls: [
      ...[
        'rm -f nofile1',
        'xargs rm -f < /dev/null',
        'timeout 5 rm -f x',
        'nice rm -f x',
        'env rm -f x',
        '/bin/rm -f x',
        'command rm -f x',
        "bash -c 'rm -f x'",
        'ls && rm -f x',
        'RM -f x',
        'nohup rm -f x',
        'time rm -f x',
        'stdbuf -o0 rm -f x',
        'find . -name nothing-here -exec rm -f {} ;',
        'eval rm -f x',
        'exec rm -f x',
        'rmdir nodir || true',
        'echo rm -f x',
      ].map(bash),
      ...['.env', '.ENV', 'sub/.env', '.Env', 'notes.txt'].map(write),
    ],
  },
  // Claude Code reads `./name` as `name` and `name/**` as the folder `name`, both at any depth,
  // in deny rules; `a/name/**`, `name/*` and `name/file` stay at the working directory.
  {
    id: 'deny-read-dotslash',
    rules: { deny: ['Read(./.env)', 'Read(./secrets/**)'] },
    allowedTools: ['Read'],
    expects: 'deny',
    mustRefuse: ['.env', 'sub/.env', 'x/secrets/key'],
    calls: ['.env', 'sub/.env', 'x/sub/.env', 'secrets/key', 'x/secrets/key', '.ENV', 'notes.txt'].map(
      (file): ToolCall => ({ name: 'Read', input: { file_path: file } }),
    ),
  },
  {
    id: 'deny-folder-anywhere',
    rules: { deny: ['Read(secrets/**)', 'Read(sec*/**)', 'Edit(config/**)', 'Read(a/keys/**)'] },
    allowedTools: ['Read', 'Write', 'Edit'],
    expects: 'deny',
    mustRefuse: ['x/secrets/key', 'y/z/secrets/key', 'x/config/a.json', 'a/keys/k'],
    calls: [
      ...['secrets/key', 'x/secrets/key', 'y/z/secrets/key', 'secretsx/key', 'a/keys/k', 'x/a/keys/k', 'notes.txt'].map(
        (file): ToolCall => ({ name: 'Read', input: { file_path: file } }),
      ),
      ...['config/a.json', 'x/config/a.json', 'configx/a.json'].map((file) => write(file)),
    ],
  },
  {
    id: 'deny-rm-hidden',
    rules: { deny: ['Bash(rm *)'] },
    allowedTools: ['Bash'],
    expects: 'deny',
    mustRefuse: [],
    calls: HIDDEN_RM_COMMANDS.map(bash),
  },
  {
    id: 'deny-webfetch-domain',
    rules: { deny: ['WebFetch(domain:example.com)', 'WebFetch(domain:*.internal.test)'] },
    allowedTools: ['WebFetch'],
    expects: 'deny',
    mustRefuse: ['https://example.com/a'],
    calls: [...EXAMPLE_COM_URLS, 'https://a.internal.test/j', 'https://internal.test/k'].map(
      (url): ToolCall => ({ name: 'WebFetch', input: { url, prompt: 'summarize' } }),
    ),
  },
];

const label = (call: ToolCall): string => String(call.input.command ?? call.input.file_path ?? call.input.url);

const results: Record<string, unknown> = {};
let why: string | null = namespaceUnavailable();

describe.concurrent(`Claude Code ${PINS.claude.version}: permission rules vs the reference runtime's engine`, () => {
  afterAll(() => {
    mkdirSync(import.meta.dirname, { recursive: true });
    // A filtered run (vitest -t) updates only its cases; the others are kept for the same version.
    let kept: Record<string, unknown> = {};
    try {
      const previous = JSON.parse(readFileSync(RESULTS, 'utf8')) as { version?: string; cases?: Record<string, unknown> };
      if (previous.version === PINS.claude.version && !why) kept = previous.cases ?? {};
    } catch {}
    const cases = Object.fromEntries(CASES.flatMap((c) => ((results[c.id] ?? kept[c.id]) ? [[c.id, results[c.id] ?? kept[c.id]]] : [])));
    writeFileSync(RESULTS, `${JSON.stringify({ agent: 'claude', version: PINS.claude.version, notRunnable: why, cases }, null, 2)}\n`);
  });

  for (const c of CASES) {
    it(c.id, async (ctx) => {
      let bin = '';
      if (!why) {
        try {
          bin = ensureAgent('claude');
        } catch (err) {
          why = `install failed: ${String((err as Error).message).slice(0, 300)}`;
        }
      }
      if (why) ctx.skip(`not runnable here: ${why}`);
      const dirs = makeRunDirs(`perm-${c.id}`);
      c.setup?.(dirs.work);
      const settings = join(dirs.root, 'claude-settings.json');
      writeFileSync(settings, JSON.stringify({ permissions: c.rules }));
      const outcome = await runInNamespace(dirs, {
        command: bin,
        args: ['-p', 'Do the task.', '--output-format', 'json', '--settings', settings, '--allowedTools', ...c.allowedTools],
        env: claudeEnv(dirs),
        api: 'anthropic',
        script: { toolCalls: c.calls },
        timeoutMs: 200_000,
      });
      expect(outcome.timedOut, 'Claude Code timed out').toBe(false);
      const denials = (JSON.parse(outcome.stdout) as { permission_denials?: { tool_use_id: string }[] }).permission_denials ?? [];
      // The fake model numbers its calls: toolu_fake_<index in the script>.
      const refused = new Set(denials.map((d) => Number(d.tool_use_id.replace('toolu_fake_', ''))));
      const engine = createPermissionEngine({
        workspace: dirs.work,
        rules: c.rules,
        mode: c.expects === 'deny' ? 'bypassPermissions' : 'default',
      });
      const rows = c.calls.map((call, i) => {
        const tool = call.name === 'Write' ? { name: 'Write', edits: true } : { name: call.name };
        return {
          call: label(call),
          claude: refused.has(i) ? 'refused' : 'ran',
          engine: engine.evaluate(tool, call.input, dirs.work).behavior,
        };
      });
      results[c.id] = { rules: c.rules, rows };
      for (const must of c.mustRefuse) expect(rows.find((r) => r.call === must)?.claude, `Claude Code refused ${must}`).toBe('refused');
      const wrong =
        c.expects === 'allow'
          ? rows.filter((r) => r.engine === 'allow' && r.claude === 'refused')
          : rows.filter((r) => r.claude === 'refused' && r.engine !== 'deny');
      expect(
        wrong,
        c.expects === 'allow' ? 'the engine allows what Claude Code refused' : 'the engine lets through what Claude Code denied',
      ).toEqual([]);
    });
  }
});
