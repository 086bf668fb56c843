/**
 * Reporters for `agent-hooks test`: text (a line per case, a diff per mismatch, a summary line),
 * JSON (the whole report) and JUnit XML (for CI systems).
 */
import { displayPath } from '../util/display-path.js';
import type { Mismatch } from './expect.js';
import type { CaseResult, FileResult, TestReport } from './runner.js';

const MARK: Record<CaseResult['status'], string> = { passed: '✓', failed: '✗', error: '✗', skipped: '-' };

function indentBlock(text: string, pad: string): string {
  return text
    .split('\n')
    .map((l) => pad + l)
    .join('\n');
}

function diffLines(m: Mismatch): string[] {
  return [`${m.path}`, `  - expected: ${m.expected}`, `  + actual:   ${m.actual}`];
}

/** The text of one case: its line, then (on failure) the diff, errors of its hooks, and its warnings. */
export function formatCase(r: CaseResult, cwd?: string): string {
  const dur = r.status === 'skipped' ? '' : ` (${Math.round(r.durationMs)} ms)`;
  const tag =
    r.status === 'error'
      ? ' [error]'
      : r.status === 'skipped'
        ? ` [skipped${r.skipReason && r.skipReason !== 'skipped' ? `: ${r.skipReason}` : ''}]`
        : '';
  const lines = [`${MARK[r.status]} ${displayPath(r.file, cwd)} › ${r.name}${tag}${dur}${r.updated ? ' [updated]' : ''}`];
  if (r.error) lines.push(indentBlock(r.error, '    '));
  if (r.status === 'failed') {
    for (const m of r.mismatches) lines.push(...diffLines(m).map((l) => `    ${l}`));
    // What the hooks said helps explain a wrong result.
    const hooks = (r.result?.hooks as Array<Record<string, unknown>> | undefined) ?? [];
    for (const h of hooks) {
      if (h.error && !r.warnings.some((w) => w.includes(String(h.error)))) lines.push(`    hook ${String(h.id)}: ${String(h.error)}`);
    }
  }
  for (const w of r.warnings) lines.push(`    warning: ${w}`);
  return lines.join('\n');
}

export function formatFileError(f: FileResult, cwd?: string): string {
  return [
    `✗ ${displayPath(f.file, cwd)} [invalid fixture file]`,
    ...f.errors.map((e) => `    ${displayPath(e.file, cwd)}: ${e.path}: ${e.message}`),
  ].join('\n');
}

export function formatSummary(report: TestReport): string {
  const s = report.summary;
  const parts = [`${s.passed} passed`, `${s.failed} failed`];
  if (s.skipped) parts.push(`${s.skipped} skipped`);
  if (s.fileErrors) parts.push(`${s.fileErrors} invalid file${s.fileErrors === 1 ? '' : 's'}`);
  if (s.updated) parts.push(`${s.updated} updated`);
  const lines: string[] = [];
  if (report.problem) lines.push(report.problem);
  lines.push(
    `${parts.join(', ')} (${s.files} file${s.files === 1 ? '' : 's'}, ${s.durationMs} ms)${s.bailed ? ' — stopped after the first failure (--bail)' : ''}`,
  );
  return lines.join('\n');
}

export function toJsonReport(report: TestReport, cwd?: string): Record<string, unknown> {
  return {
    summary: report.summary,
    ...(report.problem ? { problem: report.problem } : {}),
    files: report.files.map((f) => ({
      file: displayPath(f.file, cwd),
      ...(f.errors.length ? { errors: f.errors.map((e) => ({ path: e.path, message: e.message })) } : {}),
      ...(f.updated ? { updated: true } : {}),
      cases: f.cases.map((c) => ({
        name: c.name,
        event: c.event,
        status: c.status,
        durationMs: c.durationMs,
        ...(c.mismatches.length ? { mismatches: c.mismatches } : {}),
        ...(c.error ? { error: c.error } : {}),
        ...(c.warnings.length ? { warnings: c.warnings } : {}),
        ...(c.updated ? { updated: true } : {}),
        ...(c.result ? { result: c.result } : {}),
      })),
    })),
  };
}

function xml(text: string): string {
  // Characters XML 1.0 cannot carry at all are dropped; the five specials are escaped.
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function toJunitXml(report: TestReport, cwd?: string): string {
  const s = report.summary;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="agent-hooks test" tests="${s.total + s.fileErrors}" failures="${s.failed - s.errors}" errors="${s.errors + s.fileErrors}" skipped="${s.skipped}" time="${seconds(s.durationMs)}">`,
  );
  for (const f of report.files) {
    const name = xml(displayPath(f.file, cwd));
    if (f.errors.length > 0) {
      out.push(`  <testsuite name="${name}" tests="1" failures="0" errors="1" skipped="0" time="0">`);
      out.push(`    <testcase classname="${name}" name="(load fixture file)" time="0">`);
      const msg = f.errors.map((e) => `${e.path}: ${e.message}`).join('\n');
      out.push(`      <error message="${xml(f.errors[0]!.message)}">${xml(msg)}</error>`);
      out.push('    </testcase>', '  </testsuite>');
      continue;
    }
    const failures = f.cases.filter((c) => c.status === 'failed').length;
    const errors = f.cases.filter((c) => c.status === 'error').length;
    const skipped = f.cases.filter((c) => c.status === 'skipped').length;
    const time = f.cases.reduce((t, c) => t + c.durationMs, 0);
    out.push(
      `  <testsuite name="${name}" tests="${f.cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(time)}">`,
    );
    for (const c of f.cases) {
      const open = `    <testcase classname="${name}" name="${xml(c.name)}" time="${seconds(c.durationMs)}"`;
      const body: string[] = [];
      if (c.status === 'failed') {
        const first = c.mismatches[0];
        const msg = first ? `${first.path}: expected ${first.expected}, got ${first.actual}` : 'failed';
        body.push(`      <failure message="${xml(msg)}">${xml(c.mismatches.flatMap(diffLines).join('\n'))}</failure>`);
      } else if (c.status === 'error') {
        body.push(`      <error message="${xml(c.error?.split('\n', 1)[0] ?? 'error')}">${xml(c.error ?? '')}</error>`);
      } else if (c.status === 'skipped') {
        body.push(`      <skipped message="${xml(c.skipReason ?? 'skipped')}"/>`);
      }
      if (c.warnings.length > 0) body.push(`      <system-err>${xml(c.warnings.map((w) => `warning: ${w}`).join('\n'))}</system-err>`);
      out.push(body.length ? `${open}>\n${body.join('\n')}\n    </testcase>` : `${open}/>`);
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
