/**
 * What a session runs from config: the project's config through the LRU cache, the host's trust
 * gate over it, frozen into a snapshot; and skill/agent frontmatter hooks, gated and
 * policy-checked when they are registered.
 */
import path from 'node:path';
import { loadFrontmatterHooks, PROJECT_FRONTMATTER_DIRS, type FrontmatterHooks } from '../config/frontmatter.js';
import { defaultNeedsTrust, failClosed, frontmatterVerdict, resolveWorkspace } from '../trust/index.js';
import type { NormalizedHook } from '../types.js';
import { canonicalDir, frozenCopy, type ManagerState, type ProjectEntry, type SessionState } from './state.js';
import type { GateResult, SessionConfigSnapshot, SkillRegistration } from './types.js';

export function projectEntry(m: ManagerState, projectDir: string): Promise<ProjectEntry> {
  const key = canonicalDir(projectDir);
  const hit = m.cache.get(key);
  if (hit) return hit;
  const p = Promise.resolve().then(() => m.load(path.resolve(projectDir)));
  m.cache.set(key, p);
  // A failed load is not cached: the next bind tries again.
  p.catch(() => {
    if (m.cache.peek(key) === p) m.cache.delete(key);
  });
  return p;
}

/** The host's trust gate (HookManagerOptions.gate); one that throws lets nothing through. */
async function gate(m: ManagerState, hooks: readonly NormalizedHook[], projectDir: string): Promise<GateResult> {
  if (!m.options.gate || hooks.length === 0) return { allowed: [...hooks], warnings: [] };
  try {
    const r = await m.options.gate(hooks, projectDir);
    return { allowed: [...r.allowed], warnings: [...r.warnings] };
  } catch (e) {
    return {
      allowed: [],
      warnings: [`hook trust gate failed for ${projectDir}; no hooks from it run: ${(e as Error)?.message ?? String(e)}`],
    };
  }
}

export async function snapshotFor(m: ManagerState, projectDir: string): Promise<SessionConfigSnapshot> {
  const { config, trust } = await projectEntry(m, projectDir);
  const gated = await gate(m, config.hooks, projectDir);
  return Object.freeze({
    config: frozenCopy(config),
    hooks: frozenCopy(gated.allowed),
    warnings: Object.freeze([...(trust?.warnings ?? []), ...gated.warnings]),
    ...(trust ? { trust: frozenCopy(trust) } : {}),
  });
}

/**
 * A skill/agent file's hooks under hook trust. The user's own (outside the workspace) run as they
 * are. A project file's are what the trust assessment reviewed, assessed again now so that a file
 * added, edited or deleted since the review is seen: unchanged → run, verified at each execution;
 * the workspace changed since → they fail closed, saying how to re-trust; never trusted → none.
 */
async function reviewedGate(m: ManagerState, s: SessionState, fm: FrontmatterHooks, hooks: readonly NormalizedHook[]): Promise<GateResult> {
  const trust = m.options.trust;
  if (!trust || !m.review) return { allowed: [...hooks], warnings: [] };
  const workspace = await resolveWorkspace(s.projectDir);
  const needsTrust = trust.needsTrust ?? defaultNeedsTrust;
  if (!needsTrust({ kind: 'skill', file: fm.file, skillRoot: canonicalDir(fm.root) }, workspace))
    return { allowed: [...hooks], warnings: [] };
  const what = `${fm.kind} ${fm.file}`;
  let review: Awaited<ReturnType<NonNullable<ManagerState['review']>>>;
  try {
    review = await m.review(s.projectDir);
  } catch (e) {
    const reason = `${what}: its hooks cannot be checked against the review (${(e as Error)?.message ?? String(e)})`;
    return { allowed: failClosed(hooks, `${reason}; the events they guard are denied`), warnings: [reason] };
  }
  const report = review.trust;
  const o = {
    ...(trust.homeDir !== undefined ? { homeDir: trust.homeDir } : {}),
    ...(trust.command !== undefined ? { command: trust.command } : {}),
  };
  const verdict = frontmatterVerdict(fm.file, fm.kind, review, o);
  if (verdict === undefined) {
    const how = `review and trust the workspace's hooks first (\`${trust.command ?? 'agent-hooks'} trust\`)`;
    return {
      allowed: [],
      warnings: hooks.map(
        (h) => `${h.source.file}: ${h.source.path}: ${fm.kind} ${h.handler.type} hook skipped (${report.reason}); ${how}`,
      ),
    };
  }
  const allowed = [...verdict.hooks];
  const warnings: string[] = [];
  if (!verdict.read && hooks.length > 0) {
    const reason = `${what}: its hooks were not reviewed (the review reads the frontmatter of ${PROJECT_FRONTMATTER_DIRS.skill} and ${PROJECT_FRONTMATTER_DIRS.agent} in the project); the events they guard are denied`;
    allowed.push(...failClosed(hooks, reason));
    warnings.push(reason);
  } else if (report.state !== 'trusted' && allowed.length > 0)
    warnings.push(
      `${what}: the workspace's hooks changed since they were reviewed (${report.reason}); its hooks fail closed until it is re-trusted`,
    );
  return { allowed, warnings };
}

/** Frontmatter hooks → gated, policy-checked registration. */
export async function frontmatterFor(m: ManagerState, s: SessionState, file: string, kind: 'skill' | 'agent'): Promise<SkillRegistration> {
  const fm: FrontmatterHooks = await loadFrontmatterHooks(file, { kind, cwd: s.worktreeDir ?? s.projectDir });
  const warnings: string[] = [];
  const cfg = s.snapshot.config;
  // Frontmatter hooks are never managed: policy that removes non-managed hooks removes them all.
  const policyOff = cfg.disabled.nonManaged || cfg.managedOnly;
  if (fm.hooks.length > 0 && policyOff)
    warnings.push(
      `${kind} ${fm.name}: its hooks are not registered (${cfg.managedOnly ? 'allowManagedHooksOnly' : 'disableAllHooks'} is in force)`,
    );
  const trusted = policyOff ? { allowed: [], warnings: [] } : await reviewedGate(m, s, fm, fm.hooks);
  const gated = await gate(m, trusted.allowed, s.projectDir);
  warnings.push(...trusted.warnings, ...gated.warnings);
  for (const w of warnings) m.warn(w, s.id);
  for (const d of fm.diagnostics) if (d.level === 'error') m.warn(`${d.file ?? file}: ${d.path}: ${d.message}`, s.id);
  return { name: fm.name, file: fm.file, root: fm.root, hooks: frozenCopy(gated.allowed), diagnostics: fm.diagnostics, warnings };
}
