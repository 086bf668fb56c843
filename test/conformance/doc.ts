/** docs/conformance.md, rendered from the case table (doc.test.ts keeps the committed file equal to it). */
import { CASES, DOORS, type Cell, type ConformanceCase, type DoorName, type Expected } from './cases.js';

const DOOR_HOW: Record<DoorName, string> = {
  library:
    '`loadConfig({ settingsFiles })` → `createHookEngine({ hooks, ...engineOptionsFromConfig(config) })` → `engine.run(event, payload)`, one engine per case',
  session: '`createHookManager({ load })` → `bindSession` (→ `addSkill`) → `session.run`, one session per case',
  run: '`agent-hooks run EVENT --payload FILE --settings … --json` (the built CLI), one process per event; the exit code must agree (2 blocked, 3 ask)',
  test: '`agent-hooks test FILE --json` over one fixture file holding every case it takes, each with the case’s expectation; the door passes when the runner reports the case passed (and a wrong expectation is reported failed)',
  'dispatch-claude':
    '`agent-hooks dispatch --agent claude --settings …`, one process per event; Claude Code’s answer (stdout JSON, exit 2) decoded',
  'dispatch-codex':
    '`agent-hooks dispatch --agent codex --settings …`, one process per event, Codex payloads (`apply_patch`); Codex’s answer decoded',
  server: '`startPolicyServer` in process on 127.0.0.1, `POST /v1/decide` per event, one session id across the requests',
  remote: '`agent-hooks dispatch --agent claude --remote URL` against that server, one process per event',
};

function showExpected(e: Expected): string {
  const parts = [e.decision ?? 'no decision', e.blocked ? 'blocked' : 'not blocked'];
  if (e.reason) parts.push(`reason ~ \`${e.reason.source}\``);
  if (e.updatedInput) parts.push(`updatedInput \`${JSON.stringify(e.updatedInput)}\``);
  if (e.updatedOutput !== undefined) parts.push(`updatedOutput \`${JSON.stringify(e.updatedOutput)}\``);
  return parts.join(', ');
}

/** The steps' expectations, runs of equal ones folded ("1–8: …; 9: …"). */
function showSteps(c: ConformanceCase): string {
  const out: string[] = [];
  let start = 0;
  for (let i = 1; i <= c.steps.length; i++) {
    const same = i < c.steps.length && showExpected(c.steps[i]!.expect) === showExpected(c.steps[start]!.expect);
    if (same) continue;
    const range = i - start === 1 ? `${start + 1}` : `${start + 1}–${i}`;
    out.push(
      `${c.steps.length > 1 ? `${c.steps[start]!.event} ${range}: ` : `${c.steps[start]!.event}: `}${showExpected(c.steps[start]!.expect)}`,
    );
    start = i;
  }
  return out.join('; ');
}

/** Text for a table cell: a `|` would end the cell. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

const MARK: Record<Cell['kind'], string> = { translated: 'translated', refuses: 'refuses', 'n/a': '—', pending: 'pending' };

export function renderConformanceDoc(): string {
  const notes: string[] = [];
  const note = (cell: Cell) => {
    const text = cell.kind === 'refuses' ? `${cell.why} (error: \`${cell.error.source}\`)` : cell.why;
    let n = notes.indexOf(text);
    if (n < 0) n = notes.push(text) - 1;
    return `${MARK[cell.kind]}&nbsp;[${n + 1}]`;
  };
  const lines = [
    '# Conformance across doors',
    '',
    '<!-- Generated from test/conformance/cases.ts by test/conformance/doc.test.ts (`UPDATE_DOCS=1 npx vitest run test/conformance/doc.test.ts`). Do not edit by hand. -->',
    '',
    'A Decision is made in one place, `engine.run()` (docs/architecture.md); every entry point (a *door*) only',
    'translates its input into an event and the Decision into its answer. The conformance suite',
    '(`test/conformance/`) runs one table of cases through every door that can carry them and expects the',
    'same answer, or the door’s documented translation where its agent cannot say the engine’s answer.',
    '',
    '## Doors',
    '',
    '| door | how the suite drives it |',
    '| --- | --- |',
    ...DOORS.map((d) => `| ${d} | ${DOOR_HOW[d]} |`),
    '',
    'The reference runtime (`src/host/`) fires its events through the session manager (`createHookManager`),',
    'so the session door covers it; `mcp-proxy` fires PreToolUse/PostToolUse through the same engine as `run`.',
    '',
    '## Matrix',
    '',
    '✓ the case’s answer; *translated* the door’s documented translation; *refuses* the door refuses the',
    'case with an error, by design; — the door cannot carry the case; *pending* the door should carry it and',
    'does not yet (run as an expected failure, so it flips when the missing piece lands).',
    '',
    `| case | expected | ${DOORS.join(' | ')} |`,
    `| --- | --- | ${DOORS.map(() => ':---:').join(' | ')} |`,
  ];
  for (const c of CASES) {
    const cells = DOORS.map((d) => {
      const at = c.doors[d];
      return at ? note(at) : '✓';
    });
    lines.push(`| \`${c.id}\` ${cell(c.title)} | ${cell(showSteps(c))} | ${cells.join(' | ')} |`);
  }
  lines.push('', ...notes.map((n, i) => `${i + 1}. ${n}`), '');
  lines.push(
    '## Rules, where they live, and the mutant that removes them',
    '',
    'Each case fails when its rule is removed: `test/conformance/mutants.test.ts` copies `src/`, applies the',
    'edit below (its text must be found once in the real source), and runs the case’s library door on the copy.',
    '',
    '| case | rule | module | mutant |',
    '| --- | --- | --- | --- |',
    ...CASES.map((c) => `| \`${c.id}\` | ${cell(c.rule)} | ${cell(c.module)} | \`src/${c.mutant.file}\`: ${cell(c.mutant.removes)} |`),
    '',
  );
  return lines.join('\n');
}
