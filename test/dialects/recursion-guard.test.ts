/**
 * The recursion guard honours AGENT_HOOKS_DISPATCH only when it names a running `dispatch` that
 * is an ancestor of this process, started at the time the value says (src/dispatch/recursion-guard.ts).
 * The process tables here are data; test/dialects/dispatch.test.ts drives the real thing.
 */
import { describe, expect, it } from 'vitest';
import { calledFromDispatch, dispatchMarker, psTable } from '../../src/dispatch/recursion-guard.js';

const DISPATCH = ['node', '/x/bin.cjs', 'dispatch', '--agent', 'claude'];
/** This process → its shell (the hook) → a dispatch (pid 500, started at tick 77) → the agent → init. */
function table(dispatchArgs = DISPATCH): (pid: number) => { ppid: number; start: string; args: string[] } | undefined {
  const rows = new Map([
    [process.ppid, { ppid: 500, start: '90', args: ['sh', '-c', 'agent-hooks dispatch'] }],
    [500, { ppid: 400, start: '77', args: dispatchArgs }],
    [400, { ppid: 1, start: '10', args: ['claude'] }],
  ]);
  return (pid) => rows.get(pid);
}

describe('calledFromDispatch', () => {
  it('is true below the dispatch the value names', () => {
    expect(calledFromDispatch('500:77', table())).toBe(true);
  });

  it('is false for any value the agent could set: a constant, its own pid, a wrong start time, no such ancestor', () => {
    for (const value of [undefined, '', '1', '0', 'true', '400:10', '500:78', '500:', '123:77', `${process.ppid}:90`]) {
      expect(calledFromDispatch(value, table()), String(value)).toBe(false);
    }
  });

  it('is false when the named ancestor is not a dispatch', () => {
    expect(calledFromDispatch('500:77', table(['node', '/x/bin.cjs', 'run']))).toBe(false);
  });

  it('the marker names this process as the lookup sees it', () => {
    const [pid, start] = dispatchMarker().split(':');
    expect(Number(pid)).toBe(process.pid);
    if (process.platform === 'linux') expect(start).toMatch(/^\d+$/);
  });
});

describe('psTable (systems without /proc)', () => {
  it('reads parent links and arguments from ps output', () => {
    const t = psTable('  500   400 node /x/bin.cjs dispatch --agent claude\n  400     1 claude\n');
    expect(t.get(500)).toEqual({ ppid: 400, start: '', args: DISPATCH });
    expect(calledFromDispatch('500:', (pid) => (pid === process.ppid ? { ppid: 500, start: '', args: ['sh'] } : t.get(pid)))).toBe(true);
  });
});
