/**
 * What `agent-hooks status | trust | revoke` do (their definitions: ./trust.ts, which loads this
 * module only when one of them runs).
 */
import { resolve } from 'node:path';
import type { Diagnostic } from '../../types.js';
import {
  describeChange,
  loadTrustedConfig,
  revokeWorkspace,
  trustWorkspace,
  TrustRefusedError,
  TrustStoreError,
  type HookTrustStatus,
  type TrustReport,
} from '../../trust/index.js';
import { parseDiscoverDialects, type DiscoverDialects } from '../../agents/all.js';
import { formatDiagnostic } from '../../util/format-diagnostic.js';
import { oneLine } from '../../util/terminal-text.js';

export interface TrustFlags {
  cwd?: string;
  digest?: string;
  json?: boolean;
  workspaceOnly?: boolean;
  /** Trust even hooks whose executed files cannot be determined (they are listed as unpinned). */
  allowUnpinned?: boolean;
  /** Same as `run --discover-dialects`: the digest covers the project files of these agents too. */
  discoverDialects?: string;
}

function workspaceDirOf(flags: TrustFlags): string {
  return resolve(flags.cwd ?? process.cwd());
}

/** The same discovery as `agent-hooks run` without --settings, so digests agree. */
async function assess(dir: string, flags: TrustFlags = {}): Promise<{ report: TrustReport; diagnostics: Diagnostic[] }> {
  let discoverDialects: DiscoverDialects | undefined;
  if (flags.discoverDialects !== undefined) {
    const parsed = parseDiscoverDialects(flags.discoverDialects);
    if (!parsed.ok) throw new TrustRefusedError(parsed.message);
    discoverDialects = parsed.value;
  }
  const { config, trust } = await loadTrustedConfig(
    { cwd: dir, projectDir: dir, discover: true, ...(discoverDialects !== undefined ? { discoverDialects } : {}) },
    { workspaceDir: dir },
  );
  return { report: trust, diagnostics: config.diagnostics };
}

function printDiagnostics(diagnostics: Diagnostic[]): void {
  for (const d of diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
}

function fail(err: unknown): number {
  if (err instanceof TrustRefusedError || err instanceof TrustStoreError) {
    process.stderr.write(`agent-hooks: ${err.message}\n`);
    return 1;
  }
  throw err;
}

function quote(s: string): string {
  return /^[A-Za-z0-9_\-./:@%+=,]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function hookJson(h: HookTrustStatus): Record<string, unknown> {
  return {
    id: h.id,
    event: h.event,
    ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
    type: h.type,
    summary: h.summary,
    source: h.source,
    needsTrust: h.needsTrust,
    state: h.state,
    changes: h.changes.map((c) => ({ ...c, description: describeChange(c) })),
    scripts: h.scripts,
    pinned: h.unpinned.length === 0,
    ...(h.unpinned.length > 0 ? { unpinned: h.unpinned } : {}),
    ...(h.outside.length > 0 ? { outside: h.outside } : {}),
    ...(h.errors.length > 0 ? { errors: h.errors } : {}),
  };
}

export function statusJson(r: TrustReport): Record<string, unknown> {
  return {
    workspace: { dir: r.workspace.dir, identity: r.workspace.identity, root: r.workspace.root, trusted: r.workspaceTrusted },
    state: r.state,
    reason: r.reason,
    ...(r.digest ? { digest: r.digest } : {}),
    ...(r.trustedDigest ? { trustedDigest: r.trustedDigest, trustedAt: r.trustedAt } : {}),
    store: r.store,
    hooks: r.hooks.map(hookJson),
    removed: r.removed,
    settingsChanges: r.settingsChanges.map((c) => ({ ...c, description: describeChange(c) })),
    scripts: r.scripts,
    unpinned: r.unpinned,
    errors: r.errors,
  };
}

function formatStatus(r: TrustReport): string {
  const lines: string[] = [];
  const gated = r.hooks.filter((h) => h.needsTrust);
  lines.push(`workspace ${r.workspace.dir}`);
  lines.push(`  identity:        ${r.workspace.identity}`);
  lines.push(`  workspace trust: ${r.workspaceTrusted ? 'trusted' : 'not trusted'}`);
  lines.push(`  hook trust:      ${r.state} — ${r.reason}`);
  if (r.digest) lines.push(`  digest:          ${r.digest}`);
  if (r.trustedDigest) lines.push(`  trusted digest:  ${r.trustedDigest} (${r.trustedAt})`);
  lines.push(`  store:           ${r.store}`);
  for (const e of r.errors) lines.push(`  error: ${e}`);
  lines.push('');
  if (r.hooks.length === 0) lines.push('no hooks');
  else lines.push(`hooks (${r.hooks.length}, ${gated.length} need trust):`);
  for (const h of r.hooks) {
    const where = [h.source.kind, h.source.pluginName, h.source.file, h.source.path].filter(Boolean).join(' ');
    lines.push(`  ${h.state.padEnd(9)} ${h.event.padEnd(18)} ${(h.matcher ?? '*').padEnd(12)} ${h.type.padEnd(8)} ${h.summary}`);
    lines.push(`      from ${where}${h.needsTrust ? '' : ' (needs no trust)'}`);
    if (h.needsTrust && h.type === 'command') {
      for (const p of h.scripts) lines.push(`      pins: ${p}${h.outside.includes(p) ? '  (outside the workspace)' : ''}`);
      for (const u of h.unpinned) lines.push(`      UNPINNED: ${u}`);
    }
    for (const c of h.changes) lines.push(`      changed: ${describeChange(c)}`);
    for (const e of h.errors) lines.push(`      error: ${e}`);
  }
  if (r.removed.length > 0) {
    lines.push('removed since trusted:');
    for (const h of r.removed) lines.push(`  ${h.event} ${h.matcher ?? '*'} ${String(h.handler.type)} (${h.source.kind} ${h.source.path})`);
  }
  if (r.settingsChanges.length > 0) {
    lines.push('settings changed since trusted:');
    for (const c of r.settingsChanges) lines.push(`  ${describeChange(c)}`);
  }
  if (r.scripts.length > 0) {
    lines.push('referenced scripts:');
    for (const s of r.scripts) {
      const was = s.trusted !== undefined && s.trusted !== s.current ? ` (trusted: ${s.trusted})` : '';
      lines.push(`  ${s.path}  ${s.current}${was}`);
    }
  }
  lines.push('');
  if (r.unpinned.length > 0) {
    lines.push(
      `${r.unpinned.length} hook(s) UNPINNED: what they execute cannot be determined, so a change there would not show as modified; trusting them needs --allow-unpinned`,
    );
  }
  if (r.state !== 'trusted' && r.state !== 'error' && r.digest) {
    lines.push(
      `to trust exactly this:  agent-hooks trust --cwd ${quote(r.workspace.dir)} --digest ${r.digest}${r.unpinned.length > 0 ? ' --allow-unpinned' : ''}`,
    );
  }
  if (r.trustedDigest) lines.push(`to revoke the trust:    agent-hooks revoke --cwd ${quote(r.workspace.dir)} --digest ${r.trustedDigest}`);
  else if (r.workspaceTrusted) lines.push(`to revoke the trust:    agent-hooks revoke --cwd ${quote(r.workspace.dir)}`);
  return `${lines.map((l) => oneLine(l)).join('\n')}\n`;
}

export async function statusCommand(flags: TrustFlags): Promise<number> {
  let assessed: Awaited<ReturnType<typeof assess>>;
  try {
    assessed = await assess(workspaceDirOf(flags), flags);
  } catch (err) {
    return fail(err);
  }
  const { report, diagnostics } = assessed;
  printDiagnostics(diagnostics);
  if (flags.json) process.stdout.write(`${JSON.stringify(statusJson(report), null, 2)}\n`);
  else process.stdout.write(formatStatus(report));
  return report.state === 'error' ? 1 : 0;
}

export async function trustCommand(flags: TrustFlags): Promise<number> {
  let assessed: Awaited<ReturnType<typeof assess>>;
  try {
    assessed = await assess(workspaceDirOf(flags), flags);
  } catch (err) {
    return fail(err);
  }
  const { report, diagnostics } = assessed;
  printDiagnostics(diagnostics);
  try {
    const result = await trustWorkspace(report, {
      ...(flags.digest !== undefined ? { expectedDigest: flags.digest } : {}),
      workspaceOnly: flags.workspaceOnly,
      allowUnpinned: flags.allowUnpinned === true,
    });
    const gated = report.hooks.filter((h) => h.needsTrust);
    if (flags.json) {
      process.stdout.write(
        `${JSON.stringify({ workspace: report.workspace.dir, identity: result.identity, digest: result.digest, workspaceOnly: result.workspaceOnly, hooks: gated.length, unpinned: report.unpinned.length }, null, 2)}\n`,
      );
    } else if (result.workspaceOnly) {
      process.stdout.write(
        `trusted workspace ${oneLine(report.workspace.dir)} (workspace only; its hooks still need \`agent-hooks trust\`)\n`,
      );
    } else {
      process.stdout.write(`trusted ${oneLine(report.workspace.dir)}: ${gated.length} hook(s), digest ${result.digest}\n`);
      if (report.unpinned.length > 0)
        process.stdout.write(`  including ${report.unpinned.length} UNPINNED hook(s) (acknowledged with --allow-unpinned)\n`);
      for (const h of gated) process.stdout.write(`  ${h.event} ${oneLine(h.matcher ?? '*')} ${h.type} ${oneLine(h.summary)}\n`);
    }
    return 0;
  } catch (err) {
    return fail(err);
  }
}

export async function revokeCommand(flags: TrustFlags): Promise<number> {
  try {
    const dir = workspaceDirOf(flags);
    const result = await revokeWorkspace({ workspaceDir: dir, ...(flags.digest !== undefined ? { expectedDigest: flags.digest } : {}) });
    if (flags.json)
      process.stdout.write(
        `${JSON.stringify({ identity: result.identity, revoked: result.removed !== undefined, digest: result.removed?.hooks?.digest }, null, 2)}\n`,
      );
    else
      process.stdout.write(
        result.removed
          ? `revoked trust for ${oneLine(dir)} (${oneLine(result.identity)})\n`
          : `${oneLine(dir)} was not trusted; nothing to revoke\n`,
      );
    return 0;
  } catch (err) {
    return fail(err);
  }
}
