/**
 * Dispatch ends the agent for a decision the agent has no answer for and would let through
 * (src/dispatch/end-agent.ts): a real "agent" process runs dispatch through `sh -c`, as Letta Code
 * and Auggie run a hook line, waits for the answer and then goes on (writes a marker). It must be
 * ended before it goes on, with the reason on its own stderr; an answer it can read does not end it.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { agentPid } from '../../src/dispatch/end-agent.js';
import { useTempDir } from '../helpers/tmp.js';

const BIN = join(resolve(__dirname, '../..'), 'dist/cli/bin.cjs');
const tmp = useTempDir('agent-hooks-end-agent-');

/** The fake agent: one hook call through sh -c, then the marker (what the model would read next). */
const AGENT = `
const { spawn } = require('node:child_process');
const [cmd, payload, marker] = process.argv.slice(2);
const child = spawn('sh', ['-c', cmd], { stdio: ['pipe', 'pipe', 'pipe'] });
let out = '';
child.stdout.on('data', (c) => (out += c));
child.stderr.on('data', () => {});
child.on('close', (code) => { require('node:fs').writeFileSync(marker, 'exit ' + code + ' ' + out); process.exit(0); });
child.stdin.end(payload);
`;

/** `name`: the file the fake agent runs as (its command line is how dispatch recognises the agent). */
function runAgent(
  hookOutput: unknown,
  payload: unknown,
  name = 'letta.js',
): Promise<{ code: number | null; signal: string | null; stderr: string; marker: string }> {
  const hook = tmp.write('hook.js', `process.stdout.write(${JSON.stringify(JSON.stringify(hookOutput))});`);
  const settings = tmp.json('settings.json', {
    hooks: { PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `node ${hook}` }] }] },
  });
  const cmd = `${process.execPath} ${BIN} dispatch --agent letta --settings ${settings}`;
  const marker = tmp.path('went-on');
  return new Promise((res, rej) => {
    // Its stderr a file: Node's own stdio pipes are sockets, which /proc/<pid>/fd cannot open.
    const stderrFile = tmp.path('agent-stderr');
    const fd = openSync(stderrFile, 'w');
    const agent = spawn(process.execPath, [tmp.write(name, AGENT), cmd, JSON.stringify(payload), marker], {
      stdio: ['ignore', 'ignore', fd],
      cwd: tmp.root,
      env: { PATH: process.env.PATH, HOME: tmp.root, XDG_STATE_HOME: tmp.path('state') },
    });
    closeSync(fd);
    agent.on('error', rej);
    agent.on('close', (code, signal) => res({ code, signal, stderr: readFileSync(stderrFile, 'utf8'), marker }));
  });
}

const post = (output: string) => ({
  event_type: 'PostToolUse',
  working_directory: '/tmp',
  tool_name: 'Bash',
  tool_input: { command: 'cat secret' },
  tool_call_id: 't1',
  tool_result: { status: 'success', output },
});

test('a replaced output Letta Code cannot apply: the agent is ended before it reads anything, and told why', async () => {
  const r = await runAgent({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'REDACTED' } }, post('SECRET'));
  expect(existsSync(r.marker)).toBe(false);
  expect(r.signal).toBe('SIGTERM');
  expect(r.stderr).toContain('agent-hooks: ended the agent: a hook replaced the output of Bash, which Letta Code cannot apply or withhold');
}, 30_000);

test('a parent that is not the agent (dispatch run by hand or under a wrapper) is never ended: the answer is given', async () => {
  const replaced = { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'REDACTED' } };
  const r = await runAgent(replaced, post('SECRET'), 'wrapper.js');
  expect(r.signal).toBe(null);
  expect(readFileSync(r.marker, 'utf8')).toMatch(/^exit 2 /);
}, 30_000);

test('an answer the agent can read (a context) does not end it', async () => {
  const r = await runAgent({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'NOTE' } }, post('fine'));
  expect(r.signal).toBe(null);
  expect(existsSync(r.marker)).toBe(true);
}, 30_000);

test('the agent is the nearest ancestor that is not a shell', () => {
  const table = new Map([
    [30, { ppid: 20, start: '', args: ['/bin/sh', '-c', 'x'] }],
    [20, { ppid: 10, start: '', args: ['/usr/bin/node', 'letta.js'] }],
    [10, { ppid: 1, start: '', args: ['-bash'] }],
  ]);
  const letta = /letta/i;
  expect(agentPid(letta, (p) => table.get(p), 30)).toBe(20);
  expect(agentPid(letta, (p) => table.get(p), 20)).toBe(20);
  // The first process above the shells is another program: it is not the agent, and is not ended.
  expect(agentPid(/auggie/i, (p) => table.get(p), 30)).toBe(undefined);
  // Links that cannot be read, or only shells up to init: no agent to end.
  expect(agentPid(letta, () => undefined, 30)).toBe(undefined);
  expect(agentPid(letta, (p) => table.get(p), 10)).toBe(undefined);
});
