/** The real-agents suite's closing summary (test/agents/harness/table.ts) counts cells in the matrix's categories. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentResults } from '../agents/harness/agent.js';
import { categoryOf, NOT_DELIVERABLE, summaryTable } from '../agents/harness/table.js';

const nd = { 'gemini:context-before': { version: 'Gemini CLI 0.61.0', what: 'drops it' } };
const cell = (verdict: string) => ({ verdict, detail: 'd' }) as never;

describe('agents suite summary', () => {
  it('an unhonoured or unfired cell the agent cannot deliver is "not deliverable", elsewhere it stays a finding', () => {
    expect(categoryOf('gemini:context-before', 'ignored', nd)).toBe('not deliverable');
    expect(categoryOf('gemini:context-before', 'unfired', nd)).toBe('not deliverable');
    expect(categoryOf('gemini:context-after', 'ignored', nd)).toBe('not honoured');
    expect(categoryOf('codex:allow', 'unfired', nd)).toBe('hook never ran');
    // A known undeliverable cell that fails open is still a fail-open.
    expect(categoryOf('gemini:context-before', 'open', nd)).toBe('FAILS OPEN');
    expect(categoryOf('x:y', 'honoured', nd)).toBe('honoured');
    expect(categoryOf('x:y', 'closed', nd)).toBe('fails closed');
  });

  it('prints the four categories, and the others only when a cell is in them', () => {
    const gemini: AgentResults = {
      agent: 'gemini',
      version: '0.61.0',
      notRunnable: null,
      cells: {
        'context-before': { native: cell('ignored'), dispatch: cell('ignored') },
        deny: { native: cell('honoured'), dispatch: cell('closed') },
      },
    };
    const lines = summaryTable([gemini], 0, nd)
      .split('\n')
      .map((l) => l.trimEnd());
    expect(lines[1]!.split(/\s{2,}/)).toEqual(['agent', 'version', 'mode', 'honoured', 'fails closed', 'not deliverable', 'FAILS OPEN']);
    expect(lines[2]!.split(/\s+/)).toEqual(['gemini', '0.61.0', 'native', '1', '0', '1', '0']);
    expect(lines[3]!.split(/\s+/)).toEqual(['gemini', '0.61.0', 'dispatch', '0', '1', '1', '0']);
    expect(lines.join('\n')).not.toMatch(/ignored|unfired/);
    const other = summaryTable([{ ...gemini, cells: { 'context-after': { native: cell('ignored') } } }], 0, nd).split('\n');
    expect(other[1]).toContain('not honoured');
  });

  it('the committed results have no cell left as "not honoured" or "hook never ran": each is a known not-deliverable one', () => {
    const dir = new URL('../agents/results/', import.meta.url);
    const all = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as AgentResults);
    const table = summaryTable(all, 0, NOT_DELIVERABLE);
    expect(table.split('\n')[1]).not.toMatch(/not honoured|hook never ran/);
    expect(table).toMatch(/not deliverable/);
  });
});
