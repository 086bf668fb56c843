/** What a reviewer does with an assessment: trust the workspace (and its hooks), or revoke it. */
import os from 'node:os';
import { defaultTrustStorePath, updateTrustStore, type TrustRecord } from './store.js';
import type { TrustReport } from './types.js';
import { resolveWorkspace } from './workspace.js';

export class TrustRefusedError extends Error {
  override name = 'TrustRefusedError';
}

export interface TrustResult {
  identity: string;
  digest?: string;
  workspaceOnly: boolean;
  record: TrustRecord;
}

/**
 * Record trust for the assessed workspace: workspace trust, and (unless `workspaceOnly`) the
 * report's digest and canonical config. Refuses (TrustRefusedError) when the report is in state
 * error, or when `expectedDigest` is given and differs from the digest of the report — the
 * config changed since it was shown. What is stored is exactly what was assessed.
 */
export async function trustWorkspace(
  report: TrustReport,
  opts: { expectedDigest?: string; workspaceOnly?: boolean; allowUnpinned?: boolean } = {},
): Promise<TrustResult> {
  // Workspace trust alone needs no digest; hook trust needs a complete, readable config.
  if (!opts.workspaceOnly && (report.errors.length > 0 || !report.config || !report.digest)) {
    throw new TrustRefusedError(`cannot trust ${report.workspace.dir}: ${report.errors.join('; ') || report.reason}`);
  }
  // A report that read only some events' scripts vouches for nothing else.
  if (!opts.workspaceOnly && report.events) {
    throw new TrustRefusedError(
      `cannot trust ${report.workspace.dir}: this assessment read only the scripts of ${report.events.join(', ')} hooks; assess every hook (no \`events\`) to trust`,
    );
  }
  if (opts.expectedDigest !== undefined && opts.expectedDigest !== report.digest) {
    throw new TrustRefusedError(
      `refusing to trust ${report.workspace.dir}: the hooks changed since they were shown (expected ${opts.expectedDigest}, now ${report.digest}); review them again`,
    );
  }
  // An unpinned hook can change what it runs without changing the digest: only an explicit yes trusts it.
  const unpinned = report.unpinned ?? [];
  if (!opts.workspaceOnly && unpinned.length > 0 && !opts.allowUnpinned) {
    const first = unpinned[0]!;
    throw new TrustRefusedError(
      `refusing to trust ${report.workspace.dir}: ${unpinned.length} hook(s) are unpinned — what they execute cannot be determined, so a change there would not show as modified (first: ${first.reasons[0]}); acknowledge with --allow-unpinned (library: allowUnpinned) after reviewing them`,
    );
  }
  const now = new Date().toISOString();
  const { config, digest } = report;
  const record = await updateTrustStore(report.store, (data) => {
    const prev = data.workspaces[report.workspace.identity];
    const next: TrustRecord = {
      path: report.workspace.dir,
      workspaceTrustedAt: prev?.workspaceTrustedAt ?? now,
      ...(opts.workspaceOnly || !config || !digest
        ? prev?.hooks
          ? { hooks: prev.hooks }
          : {}
        : { hooks: { digest, trustedAt: now, config } }),
    };
    data.workspaces[report.workspace.identity] = next;
    return next;
  });
  return {
    identity: report.workspace.identity,
    ...(record.hooks ? { digest: record.hooks.digest } : {}),
    workspaceOnly: !!opts.workspaceOnly,
    record,
  };
}

/**
 * Remove a workspace's record (workspace and hook trust). With `expectedDigest`, refuses
 * (TrustRefusedError) unless that is the digest currently trusted — the trust changed since it
 * was shown. Returns the removed record, or undefined when there was none.
 */
export async function revokeWorkspace(opts: {
  workspaceDir: string;
  storePath?: string;
  expectedDigest?: string;
  homeDir?: string;
}): Promise<{ identity: string; removed?: TrustRecord }> {
  const workspace = await resolveWorkspace(opts.workspaceDir);
  const storePath = opts.storePath ?? defaultTrustStorePath(process.env, opts.homeDir ?? os.homedir());
  const removed = await updateTrustStore(storePath, (data) => {
    const rec = data.workspaces[workspace.identity];
    if (opts.expectedDigest !== undefined && rec?.hooks?.digest !== opts.expectedDigest) {
      throw new TrustRefusedError(
        `refusing to revoke ${workspace.dir}: the trusted digest is ${rec?.hooks?.digest ?? 'none'}, not ${opts.expectedDigest} — the trust changed since it was shown`,
      );
    }
    delete data.workspaces[workspace.identity];
    return rec;
  });
  return { identity: workspace.identity, ...(removed ? { removed } : {}) };
}
