import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { formatCase, toJunitXml } from '../../src/toolkit/report.js';
import { findFixtureFiles, reportFailed, runFixtures } from '../../src/toolkit/runner.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';

const cli = (args: string[], cwd: string) => runCli(args, { cwd });

requireBuiltCli();
const dir = useTempDir();

const echoJson = (obj: unknown) => `echo '${JSON.stringify(obj)}'`;
const deny = (reason: string) =>
  echoJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command } });

describe('runFixtures', () => {
  it('runs inline hooks, settings files and plugins, with paths relative to the fixture file', async () => {
    dir.json('project/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh', args: ['${CLAUDE_PROJECT_DIR}/guard.sh'] }] }] },
    });
    dir.write('project/guard.sh', `cat >/dev/null; ${deny('from settings')}\n`);
    dir.json('project/plugin/hooks/hooks.json', {
      hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'echo "root=${CLAUDE_PLUGIN_ROOT}" >&2; exit 2' }] }] },
    });
    dir.write(
      'project/tests/all.test.yaml',
      stringify({
        defaults: { cwd: '..' },
        cases: [
          {
            name: 'settings',
            event: 'PreToolUse',
            settings: '../settings.json',
            payload: bash('x'),
            expect: { decision: 'deny', reason: 'from settings' },
          },
          {
            name: 'plugin',
            event: 'PostToolUse',
            plugins: ['../plugin'],
            payload: { ...bash('x'), tool_response: {} },
            expect: { decision: 'block', reason: `root=${dir.path('project', 'plugin')}` },
          },
          {
            name: 'inline',
            event: 'PreToolUse',
            hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: deny('inline') }] }] },
            payload: bash('x'),
            expect: { reason: 'inline', hooks: [{ id: 'all.test.yaml#cases[2].hooks.PreToolUse[0].hooks[0]' }] },
          },
        ],
      }),
    );
    const report = await runFixtures([dir.path('project')]);
    expect(report.files.map((f) => f.errors)).toEqual([[]]);
    expect(report.files[0]!.cases.map((c) => [c.name, c.status, c.mismatches])).toEqual([
      ['settings', 'passed', []],
      ['plugin', 'passed', []],
      ['inline', 'passed', []],
    ]);
    expect(report.summary).toMatchObject({ files: 1, total: 3, passed: 3, failed: 0 });
    expect(reportFailed(report)).toBe(false);
  });

  it("a case's env is the session environment command hooks see; nothing else leaks", async () => {
    process.env.AGENT_HOOKS_TEST_LEAK = 'leaked';
    try {
      dir.write(
        'env.test.yaml',
        stringify({
          cases: [
            {
              name: 'env',
              event: 'UserPromptSubmit',
              env: { GREETING: 'hello' },
              hooks: {
                UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "g=$GREETING leak=${AGENT_HOOKS_TEST_LEAK:-none}"' }] }],
              },
              payload: { prompt: 'hi' },
              expect: { additionalContext: ['g=hello leak=none'] },
            },
          ],
        }),
      );
      const report = await runFixtures([dir.root]);
      expect(report.files[0]!.cases[0]).toMatchObject({ status: 'passed' });
    } finally {
      delete process.env.AGENT_HOOKS_TEST_LEAK;
    }
  });

  it('a case that cannot run is an error with the reason (missing settings file)', async () => {
    dir.write(
      'x.test.yaml',
      stringify({
        cases: [{ name: 'a', event: 'Stop', settings: 'nope.json', payload: { stop_hook_active: false }, expect: { blocked: false } }],
      }),
    );
    const report = await runFixtures([dir.root]);
    const c = report.files[0]!.cases[0]!;
    expect(c.status).toBe('error');
    expect(c.error).toBe(`config error: ${dir.path('nope.json')}: (root): settings file not found`);
    expect(report.summary).toMatchObject({ failed: 1, errors: 1 });
  });

  it('config warnings and output lint reach the case warnings', async () => {
    dir.write(
      'x.test.yaml',
      stringify({
        cases: [
          {
            name: 'a',
            event: 'Stop',
            hooks: { Stop: [{ matcher: 'x', hooks: [{ type: 'command', command: echoJson({ decison: 'block' }) }] }] },
            payload: { stop_hook_active: false },
            expect: { warnings: ['/matcher is ignored/', 'did you mean "decision"'] },
          },
        ],
      }),
    );
    const report = await runFixtures([dir.root]);
    expect(report.files[0]!.cases[0]!.status).toBe('passed');
    expect(report.files[0]!.cases[0]!.warnings[0]).toBe(
      'x.test.yaml: cases[0].hooks.Stop[0].matcher: Stop has no matcher support; the matcher is ignored'.replace(
        'x.test.yaml',
        dir.path('x.test.yaml'),
      ),
    );
  });

  it('runs cases in parallel, never more than --jobs at once', async () => {
    const counter = dir.path('running');
    const hook = `mkdir -p ${counter}; touch ${counter}/$$; sleep 0.4; n=$(ls ${counter} | wc -l | tr -d ' '); rm ${counter}/$$; echo "n=$n"`;
    const cases = Array.from({ length: 6 }, (_, i) => ({ name: `c${i}`, event: 'UserPromptSubmit', payload: { prompt: 'x' } }));
    dir.write(
      'p.test.yaml',
      stringify({ defaults: { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: hook }] }] } }, cases }),
    );
    const counts = async (jobs: number) => {
      const report = await runFixtures([dir.root], { jobs });
      return report.files[0]!.cases.map((c) => Number(String((c.result!.additionalContext as string[])[0]).slice(2)));
    };
    const two = await counts(2);
    expect(two).toHaveLength(6);
    expect(Math.max(...two)).toBeLessThanOrEqual(2);
    // Not serial either: with room for all six, several overlap.
    expect(Math.max(...(await counts(6)))).toBeGreaterThanOrEqual(2);
  });

  it('reports cases in file order whatever order they finish in', async () => {
    const cases = [3, 0, 2, 1].map((n) => ({
      name: `sleep ${n}`,
      event: 'UserPromptSubmit',
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `sleep 0.${n}; echo done` }] }] },
      payload: { prompt: 'x' },
    }));
    dir.write('o.test.yaml', stringify({ cases }));
    const seen: string[] = [];
    await runFixtures([dir.root], { jobs: 4, onCase: (r) => seen.push(r.name) });
    expect(seen).toEqual(['sleep 3', 'sleep 0', 'sleep 2', 'sleep 1']);
  });

  it('--filter selects by name (substring or /regex/); --bail stops after the first failure', async () => {
    const hooks = { PreToolUse: [{ hooks: [{ type: 'command', command: deny('no') }] }] };
    const cases = ['alpha ok', 'beta fails', 'gamma ok', 'delta fails'].map((name) => ({
      name,
      event: 'PreToolUse',
      hooks,
      payload: bash('x'),
      expect: { decision: name.endsWith('ok') ? 'deny' : 'allow' },
    }));
    dir.write('f.test.yaml', stringify({ cases }));
    const names = (r: Awaited<ReturnType<typeof runFixtures>>) => r.files[0]!.cases.map((c) => c.name);
    expect(names(await runFixtures([dir.root], { filter: 'OK' }))).toEqual(['alpha ok', 'gamma ok']);
    expect(names(await runFixtures([dir.root], { filter: '/^(beta|delta)/' }))).toEqual(['beta fails', 'delta fails']);
    const none = await runFixtures([dir.root], { filter: 'zzz' });
    expect(none.problem).toBe('no case matches --filter "zzz"');
    expect(reportFailed(none)).toBe(true);
    const bailed = await runFixtures([dir.root], { bail: true, jobs: 1 });
    expect(names(bailed)).toEqual(['alpha ok', 'beta fails']);
    expect(bailed.summary).toMatchObject({ passed: 1, failed: 1, bailed: true });
  });

  it('skipped cases are reported, not run', async () => {
    dir.write(
      's.test.yaml',
      stringify({
        cases: [
          {
            name: 'later',
            skip: 'flaky upstream',
            event: 'Stop',
            hooks: { Stop: [{ hooks: [{ type: 'command', command: 'exit 2' }] }] },
            payload: { stop_hook_active: false },
            expect: { blocked: false },
          },
        ],
      }),
    );
    const report = await runFixtures([dir.root]);
    expect(report.files[0]!.cases[0]).toMatchObject({ status: 'skipped', skipReason: 'flaky upstream' });
    expect(report.summary).toMatchObject({ skipped: 1, failed: 0 });
    expect(formatCase(report.files[0]!.cases[0]!, dir.root)).toBe('- s.test.yaml › later [skipped: flaky upstream]');
  });

  it('finds *.test.{yaml,yml,json} in directories, skips node_modules; explicit files of other names count', async () => {
    dir.write('a.test.yaml', 'cases: []\n');
    dir.write('sub/b.test.yml', 'cases: []\n');
    dir.write('sub/c.test.json', '{"cases": []}');
    dir.write('sub/settings.json', '{}');
    dir.write('node_modules/x/d.test.yaml', 'cases: []\n');
    dir.write('explicit.yaml', 'cases: []\n');
    const found = await findFixtureFiles([dir.root, dir.path('explicit.yaml'), dir.path('missing')]);
    expect(found.files).toEqual([
      dir.path('a.test.yaml'),
      dir.path('sub', 'b.test.yml'),
      dir.path('sub', 'c.test.json'),
      dir.path('explicit.yaml'),
    ]);
    expect(found.errors).toEqual([{ file: dir.path('missing'), path: '(root)', message: 'no such file or directory' }]);
    const empty = await runFixtures([dir.path('sub', 'settings.json')]);
    expect(empty.files[0]!.errors[0]).toMatchObject({ path: 'cases', message: 'missing required field (expected array)' });
  });
});

describe('--update', () => {
  const hooks = { PreToolUse: [{ hooks: [{ type: 'command', command: deny('recorded reason') }] }] };

  it('JSON: records failing and missing expectations, 2-space formatted; passing cases untouched', async () => {
    const file = dir.json('u.test.json', {
      cases: [
        { name: 'passing', event: 'PreToolUse', hooks, payload: bash('x'), expect: { reason: 'recorded' } },
        { name: 'failing', event: 'PreToolUse', hooks, payload: bash('x'), expect: { decision: 'allow', reason: '/recorded/' } },
        { name: 'new', event: 'PreToolUse', hooks, payload: bash('x') },
      ],
    });
    const report = await runFixtures([file], { update: true });
    expect(report.files[0]!.updated).toBe(true);
    expect(report.files[0]!.cases.map((c) => [c.name, c.status, c.updated ?? false])).toEqual([
      ['passing', 'passed', false],
      ['failing', 'passed', true],
      ['new', 'passed', true],
    ]);
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    const data = JSON.parse(text);
    expect(data.cases[0].expect).toEqual({ reason: 'recorded' });
    expect(data.cases[1].expect).toEqual({
      decision: 'deny',
      reason: '/recorded/',
      blocked: true,
      hooks: [{ outcome: 'success', decision: 'deny' }],
    });
    expect(data.cases[2].expect).toEqual({
      blocked: true,
      decision: 'deny',
      reason: 'recorded reason',
      hooks: [{ outcome: 'success', decision: 'deny' }],
    });
    // The rewritten file passes as it is.
    expect(reportFailed(await runFixtures([file]))).toBe(false);
  });

  it('YAML: comments and untouched keys survive', async () => {
    const file = dir.write(
      'u.test.yaml',
      [
        '# header comment',
        'defaults:',
        `  hooks: ${JSON.stringify(hooks)}`,
        'cases:',
        '  # the only case',
        '  - name: a',
        '    event: PreToolUse',
        '    payload: { tool_name: Bash, tool_input: { command: x } }',
        '    expect:',
        '      reason: /recorded/ # loosened by hand',
        '      decision: allow',
        '',
      ].join('\n'),
    );
    await runFixtures([file], { update: true });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# header comment');
    expect(text).toContain('# the only case');
    expect(text).toContain('reason: /recorded/ # loosened by hand');
    expect(text).toContain('decision: deny');
    expect(text).toContain('payload: { tool_name: Bash, tool_input: { command: x } }');
    expect(reportFailed(await runFixtures([file]))).toBe(false);
  });
});

describe('reports', () => {
  it('JUnit XML: one testsuite per file, failures with the diff, escaped text', async () => {
    dir.write(
      'j.test.yaml',
      stringify({
        defaults: { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: deny('<no> & "never"') }] }] } },
        cases: [
          { name: 'ok <1>', event: 'PreToolUse', payload: bash('x'), expect: { decision: 'deny' } },
          { name: 'bad', event: 'PreToolUse', payload: bash('x'), expect: { reason: 'always' } },
        ],
      }),
    );
    dir.write('broken.test.yaml', 'cases: [');
    const xml = toJunitXml(await runFixtures([dir.root]), dir.root);
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="agent-hooks test" tests="3" failures="1" errors="1" skipped="0" time="[\d.]+">/,
    );
    expect(xml).toContain('<testsuite name="broken.test.yaml" tests="1" failures="0" errors="1"');
    expect(xml).toMatch(/<testcase classname="j.test.yaml" name="ok &lt;1&gt;" time="[\d.]+"\/>/);
    expect(xml).toContain(
      '<failure message="reason: expected a string containing &quot;always&quot;, got &quot;&lt;no&gt; &amp; \\&quot;never\\&quot;&quot;">',
    );
    expect(xml.trim().endsWith('</testsuites>')).toBe(true);
  });
});

describe('agent-hooks test (CLI)', () => {
  it('exit 0 when all pass; text report with a summary line', () => {
    dir.write(
      'a.test.yaml',
      stringify({
        cases: [
          {
            name: 'one',
            event: 'PreToolUse',
            hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: deny('no') }] }] },
            payload: bash('x'),
            expect: { decision: 'deny' },
          },
        ],
      }),
    );
    const r = cli(['test'], dir.root);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^✓ a\.test\.yaml › one \(\d+ ms\)\n1 passed, 0 failed \(1 file, \d+ ms\)\n$/);
  });

  it('exit 1 when nothing is found, or on a bad --jobs', () => {
    const r = cli(['test'], dir.root);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('no fixture files (*.test.yaml, *.test.yml, *.test.json) found in .');
    const j = cli(['test', '--jobs', '0'], dir.root);
    expect(j.code).toBe(1);
    expect(j.stderr).toContain('--jobs must be a positive integer');
  });

  it('--json prints only the JSON report; --reporter junit --output writes the file and keeps the text', () => {
    dir.write(
      'a.test.yaml',
      stringify({
        cases: [
          {
            name: 'one',
            event: 'Stop',
            hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
            payload: { stop_hook_active: false },
            expect: { blocked: true },
          },
        ],
      }),
    );
    const j = cli(['test', '--json'], dir.root);
    expect(j.code).toBe(1);
    const report = JSON.parse(j.stdout);
    expect(report.summary).toMatchObject({ total: 1, passed: 0, failed: 1 });
    expect(report.files[0].cases[0]).toMatchObject({
      name: 'one',
      status: 'failed',
      mismatches: [{ path: 'blocked', expected: 'true', actual: 'false' }],
    });
    const x = cli(['test', '--reporter', 'junit', '--output', 'out/junit.xml'], dir.root);
    expect(x.code).toBe(1);
    expect(x.stdout).toContain('0 passed, 1 failed');
    expect(readFileSync(dir.path('out', 'junit.xml'), 'utf8')).toContain('<failure message="blocked: expected true, got false">');
  });
});
