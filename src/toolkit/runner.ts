/**
 * The fixture runner behind `agent-hooks test`: find fixture files, load each case's config
 * through the library (loadConfig, createHookEngine — no CLI per case), run the cases in parallel
 * with a bound, compare with the expectations, optionally record results (--update).
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { nowMs } from '../util/clock.js';
import { toJson } from '../reduce/json.js';
import { walkFiles } from '../util/walk.js';
import { loadConfig, type LoadedConfig } from '../config/index.js';
import { createHookEngine, InvalidHookInputError } from '../engine/engine.js';
import { engineOptionsFromConfig } from '../load/engine-options.js';
import { createSemaphore } from '../engine/semaphore.js';
import type { NormalizedHook } from '../types.js';
import { compare, type Actual, type Mismatch } from './expect.js';
import { parseTextMatcher } from './text-matcher.js';
import {
  completePayload,
  fixtureFormat,
  loadFixture,
  type Expectation,
  type Fixture,
  type FixtureCase,
  type FixtureError,
} from './fixture.js';
import { displayPath } from '../util/display-path.js';
import { mergeExpectation, writeExpectations } from './update.js';

type CaseStatus = 'passed' | 'failed' | 'error' | 'skipped';

export interface CaseResult {
  file: string;
  name: string;
  index: number;
  event: string;
  status: CaseStatus;
  durationMs: number;
  mismatches: Mismatch[];
  /** Why the case could not run (config error, invalid payload, engine failure). */
  error?: string;
  /** Config warnings and the decision's warnings (output linting included). */
  warnings: string[];
  /** The `run --json` object. */
  result?: Record<string, unknown>;
  /** --update changed this case's expectation. */
  updated?: boolean;
  skipReason?: string;
}

export interface FileResult {
  file: string;
  errors: FixtureError[];
  cases: CaseResult[];
  /** --update rewrote the file. */
  updated?: boolean;
}

interface TestSummary {
  files: number;
  total: number;
  passed: number;
  /** Failed expectations and cases that could not run. */
  failed: number;
  errors: number;
  skipped: number;
  fileErrors: number;
  updated: number;
  bailed: boolean;
  durationMs: number;
}

export interface TestReport {
  files: FileResult[];
  summary: TestSummary;
  /** A problem with the run itself (no fixture files, filter matched nothing). */
  problem?: string;
}

export interface RunFixturesOptions {
  /** Cases run at once (default: available parallelism, at most 8). */
  jobs?: number;
  /** Only cases whose name contains this text, or matches /regex/flags. */
  filter?: string;
  /** Start no new case after the first failure. */
  bail?: boolean;
  /** Record current results as the expectations. */
  update?: boolean;
  /** Called once per case, in file and case order. */
  onCase?: (result: CaseResult) => void;
  /** Called once per file that fails to load. */
  onFileError?: (file: FileResult) => void;
}

const SKIP_DIRS = new Set(['node_modules', '.git']);
const FIXTURE_NAME = /\.test\.(ya?ml|json)$/i;
const MAX_DEPTH = 12;

/** Files given explicitly are taken as they are; directories are searched for `*.test.{yaml,yml,json}`. */
export async function findFixtureFiles(paths: readonly string[]): Promise<{ files: string[]; errors: FixtureError[] }> {
  const files: string[] = [];
  const errors: FixtureError[] = [];
  const walk = (dir: string) =>
    walkFiles(dir, { maxDepth: MAX_DEPTH, skipDirs: SKIP_DIRS, accept: (_file, name) => FIXTURE_NAME.test(name) }, 0, files);
  for (const p of paths) {
    const full = resolve(p);
    let info: Stats;
    try {
      info = await stat(full);
    } catch {
      errors.push({ file: full, path: '(root)', message: 'no such file or directory' });
      continue;
    }
    if (info.isDirectory()) await walk(full);
    else if (fixtureFormat(full)) files.push(full);
    else errors.push({ file: full, path: '(root)', message: 'not a fixture file (expected .yaml, .yml or .json)' });
  }
  return { files: [...new Set(files)], errors };
}

function nameFilter(filter: string | undefined): (name: string) => boolean {
  if (filter === undefined || filter === '') return () => true;
  const m = parseTextMatcher(filter);
  if (m.kind === 'regex') return (name) => m.re.test(name);
  if (m.kind === 'invalid') throw new Error(`--filter: ${m.error}`);
  const needle = filter.toLowerCase();
  return (name) => name.toLowerCase().includes(needle);
}

export async function runFixtures(paths: readonly string[], opts: RunFixturesOptions = {}): Promise<TestReport> {
  const started = nowMs();
  const accept = nameFilter(opts.filter);
  const found = await findFixtureFiles(paths.length > 0 ? paths : ['.']);
  const fileResults: FileResult[] = found.errors.map((e) => ({ file: e.file, errors: [e], cases: [] }));
  for (const f of fileResults) opts.onFileError?.(f);
  const { jobs, fixtures } = await loadJobs(found.files, accept, fileResults, opts);

  let problem: string | undefined;
  if (found.files.length === 0 && found.errors.length === 0)
    problem = `no fixture files (*.test.yaml, *.test.yml, *.test.json) found in ${paths.length ? paths.join(', ') : '.'}`;
  else if (opts.filter !== undefined && jobs.length === 0 && fixtures.length > 0)
    problem = `no case matches --filter ${JSON.stringify(opts.filter)}`;

  const bailed = await runJobs(jobs, opts);
  // Cases never started after a bail are dropped; report what ran, in order.
  const ran = jobs.filter((j) => j.result);
  if (opts.update && !bailed) await updateExpectations(fixtures, ran);

  for (const j of ran) fileResults.find((f) => f.file === j.fixture.file)!.cases.push(j.result!);
  const cases = ran.map((j) => j.result!);
  const count = (s: CaseStatus) => cases.filter((c) => c.status === s).length;
  const summary: TestSummary = {
    files: fileResults.length,
    total: cases.length,
    passed: count('passed'),
    failed: count('failed') + count('error'),
    errors: count('error'),
    skipped: count('skipped'),
    fileErrors: fileResults.filter((f) => f.errors.length > 0).length,
    updated: cases.filter((c) => c.updated).length,
    bailed,
    durationMs: Math.round(nowMs() - started),
  };
  return { files: fileResults, summary, ...(problem ? { problem } : {}) };
}

/** One case to run, with its result once it ran. */
type Job = { fixture: Fixture; fc: FixtureCase; result?: CaseResult };
type LoadedFixture = { fixture: Fixture; fileResult: FileResult };

/** Load the files in order (each file's result is appended to `fileResults`); the cases the filter accepts become jobs. */
async function loadJobs(
  files: readonly string[],
  accept: (name: string) => boolean,
  fileResults: FileResult[],
  opts: RunFixturesOptions,
): Promise<{ jobs: Job[]; fixtures: LoadedFixture[] }> {
  const jobs: Job[] = [];
  const fixtures: LoadedFixture[] = [];
  for (const file of files) {
    const { fixture, errors } = await loadFixture(file);
    const fileResult: FileResult = { file, errors, cases: [] };
    fileResults.push(fileResult);
    if (!fixture) {
      opts.onFileError?.(fileResult);
      continue;
    }
    fixtures.push({ fixture, fileResult });
    for (const fc of fixture.cases) if (accept(fc.name)) jobs.push({ fixture, fc });
  }
  return { jobs, fixtures };
}

/** Run the jobs in parallel up to the limit, report each case in job order; true when a failure bailed. */
async function runJobs(jobs: Job[], opts: RunFixturesOptions): Promise<boolean> {
  const configs = new Map<string, Promise<LoadedConfig>>();
  const limit = createSemaphore(Math.max(1, Math.floor(opts.jobs ?? Math.min(8, availableParallelism()))));
  let bailed = false;
  let next = 0;
  const emit = () => {
    while (next < jobs.length && jobs[next]!.result) {
      const result = jobs[next++]!.result!;
      opts.onCase?.(result);
    }
  };

  await Promise.all(
    jobs.map(async (job) => {
      const release = await limit.acquire();
      try {
        if (bailed) return;
        job.result = await runCase(job.fixture, job.fc, configs);
        if (opts.bail && (job.result.status === 'failed' || job.result.status === 'error')) bailed = true;
      } finally {
        release();
      }
      emit();
    }),
  );
  return bailed;
}

/** `--update`: record the actual result of failing cases and of cases without `expect`, then re-judge them. */
async function updateExpectations(fixtures: LoadedFixture[], ran: Job[]): Promise<void> {
  for (const { fixture, fileResult } of fixtures) {
    const updates = new Map<number, Expectation>();
    for (const j of ran) {
      if (j.fixture !== fixture) continue;
      const r = j.result!;
      // Like snapshot tests: passing cases are left as written; failing ones and cases without `expect` are recorded.
      if (!r.result || !(r.status === 'failed' || (r.status === 'passed' && !j.fc.expect))) continue;
      const actual: Actual = { json: r.result, durationMs: r.durationMs, warnings: r.warnings };
      const exp = mergeExpectation(j.fc.expect, actual);
      if (JSON.stringify(exp) === JSON.stringify(j.fc.expect ?? null)) continue;
      updates.set(j.fc.index, exp);
      r.updated = true;
      r.mismatches = compare(exp, actual);
      r.status = r.mismatches.length === 0 ? 'passed' : 'failed';
    }
    fileResult.updated = await writeExpectations(fixture, updates);
  }
}

/** Whether the run as a whole failed (the CLI exits 1). */
export function reportFailed(report: TestReport): boolean {
  return report.summary.failed > 0 || report.summary.fileErrors > 0 || report.problem !== undefined;
}

function configFor(fixture: Fixture, fc: FixtureCase, cache: Map<string, Promise<LoadedConfig>>): Promise<LoadedConfig> {
  const key = JSON.stringify([fixture.file, fc.cwd, fc.settings, fc.plugins, fc.hooks ?? null]);
  let p = cache.get(key);
  if (!p) {
    const inline = fc.hooks ? [JSON.stringify({ hooks: fc.hooks.value })] : [];
    p = loadConfig({
      cwd: fc.cwd,
      projectDir: fc.cwd,
      discover: false,
      settingsFiles: [...fc.settings, ...inline],
      plugins: fc.plugins,
    }).then((config) => relabelInline(config, fixture.file, fc.settings.length + 1, fc.hooks?.at));
    cache.set(key, p);
  }
  return p;
}

/** Inline hooks load as `<--settings #N>`; name them after the fixture instead (`x.test.yaml#cases[2].hooks.PreToolUse[0]…`). */
function relabelInline(config: LoadedConfig, file: string, n: number, at: string | undefined): LoadedConfig {
  if (!at) return config;
  const label = `<--settings #${n}>`;
  const base = at.replace(/\.hooks$/, '');
  const rewritePath = (p: string) => (p === '(root)' ? at : `${base}.${p}`);
  const hooks = config.hooks.map((h): NormalizedHook => {
    if (h.source.file !== label) return h;
    const path = rewritePath(h.source.path);
    return { ...h, id: `fixture:${displayPath(file)}#${path}`, source: { ...h.source, file, path } };
  });
  const diagnostics = config.diagnostics.map((d) => (d.file === label ? { ...d, file, path: rewritePath(d.path) } : d));
  return { ...config, hooks, diagnostics };
}

function formatDiag(d: { file?: string; path: string; message: string }): string {
  return `${[d.file, d.path].filter(Boolean).join(': ')}: ${d.message}`;
}

async function runCase(fixture: Fixture, fc: FixtureCase, configs: Map<string, Promise<LoadedConfig>>): Promise<CaseResult> {
  const base: CaseResult = {
    file: fixture.file,
    name: fc.name,
    index: fc.index,
    event: fc.event,
    status: 'passed',
    durationMs: 0,
    mismatches: [],
    warnings: [],
  };
  if (fc.skip) return { ...base, status: 'skipped', skipReason: fc.skip };
  const config = await configFor(fixture, fc, configs);
  const errors = config.diagnostics.filter((d) => d.level === 'error');
  const warnings = config.diagnostics.filter((d) => d.level === 'warning').map((d) => formatDiag(d));
  if (errors.length > 0) return { ...base, status: 'error', warnings, error: `config error: ${errors.map(formatDiag).join('; ')}` };

  const engine = createHookEngine({
    hooks: config.hooks,
    projectDir: fc.cwd,
    cwd: fc.cwd,
    sessionEnv: fc.env,
    ...engineOptionsFromConfig(config),
  });
  const t0 = nowMs();
  let json: Record<string, unknown>;
  let durationMs: number;
  try {
    // The case's permission mode is in its payload, reported as an agent reports it (as under dispatch).
    const decision = await engine.run(fc.event, completePayload(fc));
    durationMs = nowMs() - t0;
    json = toJson(decision);
    warnings.push(...decision.warnings);
  } catch (err) {
    const message = err instanceof InvalidHookInputError ? err.message : `engine failed: ${(err as Error)?.message ?? String(err)}`;
    return { ...base, status: 'error', durationMs: nowMs() - t0, warnings, error: message };
  } finally {
    await engine.close();
  }
  const actual: Actual = { json, durationMs, warnings };
  const mismatches = fc.expect ? compare(fc.expect, actual) : [];
  return {
    ...base,
    status: mismatches.length ? 'failed' : 'passed',
    durationMs: Math.round(durationMs * 1000) / 1000,
    mismatches,
    warnings,
    result: json,
  };
}
