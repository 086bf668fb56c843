/**
 * One adapter per door (entry point) of the engine: each takes a conformance case, feeds its
 * events through that door as the door's user would (a library call, a session, a process of the
 * built CLI, an HTTP request), and turns the answer back into Outcomes. The adapters only
 * translate; what the answer must be is the case's (cases.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { loadConfig } from '../../src/config/index.js';
import type { loadFrontmatterHooks } from '../../src/config/frontmatter.js';
import type { createHookEngine } from '../../src/engine/engine.js';
import type { engineOptionsFromConfig } from '../../src/load/engine-options.js';
import { CLI_BIN } from '../helpers/cli.js';
import type { ConformanceCase, DoorName, Expected, Outcome, Step } from './cases.js';

/** What the library door needs from the engine's source: the real src/, or a mutated copy of it. */
export interface Library {
  loadConfig: typeof loadConfig;
  createHookEngine: typeof createHookEngine;
  engineOptionsFromConfig: typeof engineOptionsFromConfig;
  loadFrontmatterHooks: typeof loadFrontmatterHooks;
}

/** A case's files on disk: its project directory, settings files and skill file. */
export interface Prepared {
  cwd: string;
  settingsFiles: string[];
  skillFile?: string;
  sessionId: string;
}

/** Write the case's settings (and skill) under `root/<id>`. */
export function prepareCase(c: ConformanceCase, root: string): Prepared {
  const cwd = join(root, c.id);
  mkdirSync(cwd, { recursive: true });
  const settingsFiles = c.settings.map((s, i) => {
    const file = join(cwd, `settings-${i}.json`);
    writeFileSync(file, typeof s === 'string' ? s : JSON.stringify(s, null, 2));
    return file;
  });
  let skillFile: string | undefined;
  if (c.skillHooks) {
    const dir = join(cwd, '.claude', 'skills', 'guard');
    mkdirSync(dir, { recursive: true });
    skillFile = join(dir, 'SKILL.md');
    writeFileSync(skillFile, `---\nname: guard\ndescription: a guard\nhooks: ${JSON.stringify(c.skillHooks)}\n---\nBody.\n`);
  }
  return { cwd, settingsFiles, ...(skillFile ? { skillFile } : {}), sessionId: `conformance-${c.id}` };
}

/** The canonical payload of a step, with the fields an agent always sends. */
export function payloadOf(step: Step, p: Prepared): Record<string, unknown> {
  return { session_id: p.sessionId, transcript_path: '', cwd: p.cwd, hook_event_name: step.event, ...step.payload };
}

type Decisionish = { decision?: unknown; blocked?: unknown; reason?: unknown; updatedInput?: unknown; updatedOutput?: unknown };

/** A Decision (or its `run --json` form) as an Outcome. */
export function fromDecision(d: Decisionish): Outcome {
  return {
    blocked: d.blocked === true,
    ...(d.decision !== undefined ? { decision: d.decision as Outcome['decision'] } : {}),
    ...(d.reason !== undefined ? { reason: String(d.reason) } : {}),
    ...(d.updatedInput !== undefined ? { updatedInput: d.updatedInput as Record<string, unknown> } : {}),
    ...(d.updatedOutput !== undefined ? { updatedOutput: d.updatedOutput } : {}),
  };
}

/** Why an outcome is not the expected one ([] when it is). */
export function mismatches(expected: Expected, actual: Outcome): string[] {
  const out: string[] = [];
  if (actual.blocked !== expected.blocked) out.push(`blocked: expected ${expected.blocked}, got ${actual.blocked}`);
  if (actual.decision !== expected.decision)
    out.push(`decision: expected ${expected.decision ?? '(none)'}, got ${actual.decision ?? '(none)'}`);
  if (expected.reason && !expected.reason.test(actual.reason ?? ''))
    out.push(`reason: expected ${expected.reason}, got ${JSON.stringify(actual.reason)}`);
  if (!isDeepStrictEqual(actual.updatedInput, expected.updatedInput))
    out.push(`updatedInput: expected ${JSON.stringify(expected.updatedInput)}, got ${JSON.stringify(actual.updatedInput)}`);
  if (!isDeepStrictEqual(actual.updatedOutput, expected.updatedOutput))
    out.push(`updatedOutput: expected ${JSON.stringify(expected.updatedOutput)}, got ${JSON.stringify(actual.updatedOutput)}`);
  return out;
}

/** Every step's mismatches, numbered; [] when the outcomes are the expected ones. */
export function compareAll(expected: readonly Expected[], actual: readonly Outcome[]): string[] {
  if (expected.length !== actual.length) return [`expected ${expected.length} outcomes, got ${actual.length}`];
  return expected.flatMap((e, i) => mismatches(e, actual[i]!).map((m) => `event ${i + 1}: ${m}`));
}

// ---------------------------------------------------------------------------------------------
// In-process doors

/** library: loadConfig → createHookEngine(engineOptionsFromConfig) → engine.run, one engine for the case. */
export async function libraryDoor(lib: Library, c: ConformanceCase, p: Prepared): Promise<Outcome[]> {
  const config = await lib.loadConfig({ cwd: p.cwd, projectDir: p.cwd, discover: false, settingsFiles: p.settingsFiles });
  const skill = p.skillFile ? await lib.loadFrontmatterHooks(p.skillFile, { kind: 'skill' }) : undefined;
  const engine = lib.createHookEngine({
    hooks: [...config.hooks, ...(skill?.hooks ?? [])],
    projectDir: p.cwd,
    cwd: p.cwd,
    ...lib.engineOptionsFromConfig(config),
    ...c.hostOptions,
  });
  try {
    const out: Outcome[] = [];
    for (const step of c.steps) {
      const ctx = c.hostPermissionMode ? { permissionMode: c.hostPermissionMode } : {};
      out.push(fromDecision(await engine.run(step.event, payloadOf(step, p), ctx)));
    }
    return out;
  } finally {
    await engine.close();
  }
}

/** session manager: createHookManager → bindSession (→ addSkill) → session.run, one session for the case. */
export async function sessionDoor(c: ConformanceCase, p: Prepared): Promise<Outcome[]> {
  const { createHookManager } = await import('../../src/session/manager.js');
  const { loadConfig } = await import('../../src/config/index.js');
  const manager = createHookManager({
    load: (projectDir) => loadConfig({ cwd: projectDir, projectDir, discover: false, settingsFiles: p.settingsFiles }),
    ...(c.hostOptions ? { engineOptions: c.hostOptions } : {}),
  });
  try {
    const session = await manager.bindSession({ sessionId: p.sessionId, projectDir: p.cwd });
    if (p.skillFile) await session.addSkill(p.skillFile);
    const out: Outcome[] = [];
    for (const step of c.steps) {
      const ctx = c.hostPermissionMode ? { permissionMode: c.hostPermissionMode } : {};
      out.push(fromDecision(await session.run(step.event, payloadOf(step, p), ctx)));
    }
    return out;
  } finally {
    await manager.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The built CLI

export interface Proc {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI as a child process, with a minimal environment (HOME: the case's directory). */
export function cli(args: string[], opts: { stdin?: string; cwd: string; env?: Record<string, string> }): Promise<Proc> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: opts.cwd, ...opts.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.stdin ?? '');
  });
}

/** `agent-hooks run EVENT --payload F --settings … --json`; the exit code must agree with the JSON (2 blocked, 3 ask). */
export async function runDoor(c: ConformanceCase, p: Prepared): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const [i, step] of c.steps.entries()) {
    const payloadFile = join(p.cwd, `run-payload-${i}.json`);
    writeFileSync(payloadFile, JSON.stringify(payloadOf(step, p)));
    const settings = p.settingsFiles.flatMap((f) => ['--settings', f]);
    const r = await cli(['run', step.event, '--payload', payloadFile, ...settings, '--json'], { cwd: p.cwd });
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(r.stdout) as Record<string, unknown>;
    } catch {
      throw new Error(`run ${step.event}: exit ${r.code}, no JSON on stdout: ${r.stdout}${r.stderr}`);
    }
    const o = fromDecision(json);
    const code = o.blocked || json.continue === false ? 2 : o.decision === 'ask' ? 3 : 0;
    if (r.code !== code && !(code === 0 && r.code === 1))
      throw new Error(`run ${step.event}: exit ${r.code} for ${r.stdout} (expected ${code})`);
    out.push(o);
  }
  return out;
}

/** A text matcher of a fixture (`/source/flags`) from an expected reason. */
const matcherOf = (re: RegExp) => `/${re.source}/${re.flags}`;

/** The fixture case of a conformance case (one event), with its expectation. */
export function fixtureCase(c: ConformanceCase, p: Prepared, name: string, expect: Expected): Record<string, unknown> {
  const step = c.steps[0]!;
  return {
    name,
    event: step.event,
    payload: payloadOf(step, p),
    settings: p.settingsFiles,
    cwd: p.cwd,
    expect: {
      blocked: expect.blocked,
      decision: expect.decision ?? null,
      ...(expect.reason ? { reason: matcherOf(expect.reason) } : {}),
      updatedInput: expect.updatedInput ?? null,
      updatedOutput: expect.updatedOutput ?? null,
    },
  };
}

/** One case's line of an `agent-hooks test --json` report. */
export interface FixtureResult {
  name: string;
  status: string;
  error?: string;
  mismatches?: unknown[];
  result?: Record<string, unknown>;
}

/** `agent-hooks test FILE --json` over a fixture file of many cases: each case's result, by name. */
export async function testDoor(
  cases: ReadonlyArray<Record<string, unknown>>,
  dir: string,
): Promise<{ byName: Map<string, FixtureResult>; proc: Proc }> {
  const file = join(dir, 'conformance.test.json');
  writeFileSync(file, JSON.stringify({ cases }, null, 2));
  const proc = await cli(['test', file, '--json'], { cwd: dir });
  const report = JSON.parse(proc.stdout) as { files: Array<{ cases: FixtureResult[]; errors?: unknown[] }> };
  const byName = new Map<string, FixtureResult>();
  for (const f of report.files) {
    if (f.errors?.length) throw new Error(`fixture file rejected: ${JSON.stringify(f.errors)}`);
    for (const r of f.cases) byName.set(r.name, r);
  }
  return { byName, proc };
}

/** The agent's own payload for `dispatch --agent`: Codex names its patch tool apply_patch. */
function nativePayload(agent: 'claude' | 'codex', payload: Record<string, unknown>): Record<string, unknown> {
  if (agent === 'codex' && payload.tool_name === 'ApplyPatch') return { ...payload, tool_name: 'apply_patch' };
  return payload;
}

/** What Claude Code or Codex reads from a hook's answer (stdout JSON, exit code), as an Outcome. */
export function decodeAgentAnswer(event: string, r: Proc): Outcome {
  if (r.code === 2) return { blocked: true, decision: event === 'PreToolUse' ? 'deny' : 'block', reason: r.stderr.trim() };
  if (r.code !== 0) throw new Error(`dispatch ${event}: exit ${r.code}: ${r.stderr}`);
  if (r.stdout.trim() === '') return { blocked: false };
  const o = JSON.parse(r.stdout) as Record<string, unknown>;
  const hso = (o.hookSpecificOutput ?? {}) as Record<string, unknown>;
  if (event === 'PreToolUse') {
    const decision = hso.permissionDecision as Outcome['decision'];
    return {
      blocked: decision === 'deny' || decision === 'defer' || o.continue === false,
      ...(decision ? { decision } : {}),
      ...(hso.permissionDecisionReason !== undefined ? { reason: String(hso.permissionDecisionReason) } : {}),
      ...(hso.updatedInput !== undefined ? { updatedInput: hso.updatedInput as Record<string, unknown> } : {}),
    };
  }
  const updatedOutput = hso.updatedToolOutput ?? hso.updatedMCPToolOutput;
  return {
    blocked: o.decision === 'block' || o.continue === false,
    ...(o.decision === 'block' ? { decision: 'block' as const } : {}),
    ...(o.reason !== undefined ? { reason: String(o.reason) } : {}),
    ...(updatedOutput !== undefined ? { updatedOutput } : {}),
  };
}

/** `agent-hooks dispatch --agent A` (or `--remote URL`): a new process per event, as the agent runs it. */
export async function dispatchDoor(
  agent: 'claude' | 'codex',
  c: ConformanceCase,
  p: Prepared,
  remote?: { url: string; token: string },
): Promise<Outcome[]> {
  const out: Outcome[] = [];
  const source = remote ? ['--remote', remote.url] : p.settingsFiles.flatMap((f) => ['--settings', f]);
  for (const step of c.steps) {
    const r = await cli(['dispatch', '--agent', agent, ...source], {
      cwd: p.cwd,
      stdin: JSON.stringify(nativePayload(agent, payloadOf(step, p))),
      ...(remote ? { env: { AGENT_HOOKS_REMOTE_TOKEN: remote.token } } : {}),
    });
    out.push(decodeAgentAnswer(step.event, r));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The policy server

/** POST /v1/decide for each event, one session id across the requests. */
export async function serverDoor(c: ConformanceCase, p: Prepared, server: { url: string; token: string }): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const step of c.steps) {
    const res = await fetch(`${server.url}/v1/decide`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(payloadOf(step, p)),
    });
    const body = (await res.json()) as { decision?: Record<string, unknown>; error?: string };
    if (!res.ok || !body.decision) throw new Error(`POST /v1/decide ${step.event}: HTTP ${res.status} ${JSON.stringify(body)}`);
    out.push(fromDecision(body.decision));
  }
  return out;
}

/** The doors that run as one process per event or request (the others are in-process). */
export const PROCESS_DOORS: ReadonlySet<DoorName> = new Set(['run', 'dispatch-claude', 'dispatch-codex', 'remote']);
