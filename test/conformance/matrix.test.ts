/**
 * The door × case matrix: every case of cases.ts through every door that carries it, expecting
 * the case's outcome (or the door's documented translation); a door that refuses a case must
 * refuse it with its error; a door that cannot carry a case is listed (skipped, with the reason);
 * a pending cell runs as an expected failure, so it flips loudly when its missing piece lands.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHookEngine } from '../../src/engine/engine.js';
import { loadConfig } from '../../src/config/index.js';
import { loadFrontmatterHooks } from '../../src/config/frontmatter.js';
import { engineOptionsFromConfig } from '../../src/load/engine-options.js';
import { startPolicyServer, type RunningPolicyServer } from '../../src/policy-server/server.js';
import { newToken } from '../../src/policy-server/tokens.js';
import { requireBuiltCli, CLI_BIN } from '../helpers/cli.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { CASES, DOORS, expectedAt, type ConformanceCase, type DoorName, type Outcome } from './cases.js';
import {
  compareAll,
  dispatchDoor,
  fixtureCase,
  fromDecision,
  libraryDoor,
  prepareCase,
  runDoor,
  serverDoor,
  sessionDoor,
  testDoor,
  type FixtureResult,
  type Prepared,
} from './doors.js';

requireBuiltCli(CLI_BIN);

const lib = { loadConfig, createHookEngine, engineOptionsFromConfig, loadFrontmatterHooks };
const token = newToken('conformance');
let root: TempDir;
const prepared = new Map<string, Prepared>();
const servers = new Map<string, RunningPolicyServer | Error>();
let fixtures: Map<string, FixtureResult>;
const SANITY = 'sanity: a wrong expectation is reported failed';

const carries = (c: ConformanceCase, door: DoorName) => {
  const kind = c.doors[door]?.kind;
  return kind === undefined || kind === 'translated' || kind === 'pending';
};
const fixtureName = (c: ConformanceCase) => `conformance ${c.id}`;

beforeAll(async () => {
  root = tempDir('agent-hooks-conformance-');
  const tokensFile = root.json('tokens.json', { clients: [{ ...token.entry, ratePerSec: 10_000 }] });
  for (const c of CASES) prepared.set(c.id, prepareCase(c, root.root));
  // One policy server per case (its config files are the case's settings), shared by the server and remote doors.
  const serverCases = CASES.filter((c) => c.doors.server?.kind !== 'n/a');
  await Promise.all(
    serverCases.map(async (c) => {
      const p = prepared.get(c.id)!;
      try {
        const s = await startPolicyServer({
          configFiles: p.settingsFiles,
          tokensFile,
          workDir: p.cwd,
          auditSinks: [],
          settingsEnv: {},
          onWarning: () => {},
        });
        servers.set(c.id, s);
      } catch (err) {
        servers.set(c.id, err as Error);
      }
    }),
  );
  // `agent-hooks test`: one fixture file for every case it takes, plus the sanity case.
  const testCases = CASES.filter((c) => c.steps.length === 1 && c.doors.test?.kind !== 'n/a');
  const fixtureCases = testCases.map((c) => fixtureCase(c, prepared.get(c.id)!, fixtureName(c), expectedAt(c, 'test')[0]!));
  const rewrite = CASES.find((c) => c.id === 'rewrite')!;
  fixtureCases.push(
    fixtureCase(rewrite, prepared.get(rewrite.id)!, SANITY, { decision: 'allow', blocked: false, updatedInput: { command: 'ls' } }),
  );
  fixtures = (await testDoor(fixtureCases, root.root)).byName;
}, 60_000);

afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => (s instanceof Error ? undefined : s.close())));
  root?.cleanup();
});

/** The case's files with a session id of this door's own (the server's counters are shared by its doors). */
function at(c: ConformanceCase, door: DoorName): Prepared {
  const p = prepared.get(c.id)!;
  return { ...p, sessionId: `${p.sessionId}-${door}` };
}

function server(c: ConformanceCase): RunningPolicyServer {
  const s = servers.get(c.id);
  if (!s) throw new Error(`no policy server for ${c.id}`);
  if (s instanceof Error) throw s;
  return s;
}

function fixtureOutcome(c: ConformanceCase): Outcome[] {
  const r = fixtures.get(fixtureName(c));
  if (!r) throw new Error(`agent-hooks test did not report ${fixtureName(c)}`);
  if (r.status !== 'passed') throw new Error(`agent-hooks test: ${r.status}: ${r.error ?? JSON.stringify(r.mismatches)}`);
  return [fromDecision(r.result ?? {})];
}

/** Run the case through the door: its outcomes, one per event. */
async function through(door: DoorName, c: ConformanceCase): Promise<Outcome[]> {
  const p = at(c, door);
  switch (door) {
    case 'library':
      return libraryDoor(lib, c, p);
    case 'session':
      return sessionDoor(c, p);
    case 'run':
      return runDoor(c, p);
    case 'test':
      return fixtureOutcome(c);
    case 'dispatch-claude':
      return dispatchDoor('claude', c, p);
    case 'dispatch-codex':
      return dispatchDoor('codex', c, p);
    case 'server':
      return serverDoor(c, p, { url: server(c).url, token: token.token });
    case 'remote':
      return dispatchDoor('claude', c, p, { url: server(c).url, token: token.token });
  }
}

/** The error a door answers a case it refuses with. */
async function refusal(door: DoorName, c: ConformanceCase): Promise<string> {
  if (door === 'test') {
    const r = fixtures.get(fixtureName(c));
    return r?.status === 'error' ? (r.error ?? '') : `not refused: ${JSON.stringify(r)}`;
  }
  if (door === 'server') {
    const s = servers.get(c.id);
    return s instanceof Error ? s.message : 'not refused: the server started';
  }
  throw new Error(`no refusal check for the ${door} door`);
}

describe.concurrent.each(CASES)('$id: $title', (c) => {
  for (const door of DOORS) {
    const cell = c.doors[door];
    if (cell?.kind === 'n/a') {
      test.skip(`${door}: n/a (${cell.why})`, () => {});
      continue;
    }
    if (cell?.kind === 'refuses') {
      test(`${door}: refuses (${cell.why})`, async () => {
        expect(await refusal(door, c)).toMatch(cell.error);
      });
      continue;
    }
    const name = `${door}${cell?.kind === 'translated' ? ` (translated: ${cell.why})` : ''}`;
    const body = async () => {
      expect(compareAll(expectedAt(c, door), await through(door, c))).toEqual([]);
    };
    // Pending: expected to fail until the missing piece lands (then vitest reports it, and the cell is updated).
    if (cell?.kind === 'pending') test.fails(`${door}: pending (${cell.why})`, body, 90_000);
    else test(name, body, 90_000);
  }
});

describe('the table', () => {
  test('every case is carried by the library door (the mutation check runs it there) and by at least one other door', () => {
    for (const c of CASES) {
      expect(carries(c, 'library'), c.id).toBe(true);
      expect(DOORS.filter((d) => carries(c, d)).length, c.id).toBeGreaterThanOrEqual(2);
    }
  });

  test('agent-hooks test reports a case failed when its expectation is wrong', () => {
    const r = fixtures.get(SANITY);
    expect(r?.status).toBe('failed');
    expect(JSON.stringify(r?.mismatches)).toContain('updatedInput');
  });
});
