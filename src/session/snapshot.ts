/**
 * What a session runs from config: the project's config through the LRU cache, the host's trust
 * gate over it, frozen into a snapshot; and skill/agent frontmatter hooks, gated and
 * policy-checked when they are registered.
 */
import path from 'node:path';
import { isManagedHook } from '../config/registry.js';
import { loadFrontmatterHooks, type FrontmatterHooks } from '../config/frontmatter.js';
import { assessTrust, defaultNeedsTrust } from '../trust/index.js';
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
 * Skill/agent hooks registered at runtime are not part of the trusted config digest (they are
 * registered when invoked, as in Claude Code); those from inside the workspace need workspace
 * trust, read from the store at registration time. A store error fails closed.
 */
async function workspaceTrustGate(m: ManagerState, hooks: readonly NormalizedHook[], projectDir: string): Promise<GateResult> {
  const trust = m.options.trust;
  if (!trust || hooks.length === 0) return { allowed: [...hooks], warnings: [] };
  const report = await assessTrust({ hooks: [] }, m.trustFor(projectDir));
  const trusted = report.workspaceTrusted && report.state !== 'error';
  if (trusted) return { allowed: [...hooks], warnings: [] };
  const needsTrust = trust.needsTrust ?? defaultNeedsTrust;
  const allowed: NormalizedHook[] = [];
  const warnings: string[] = [];
  for (const h of hooks) {
    const root = h.source.skillRoot ?? h.source.pluginRoot;
    const source = { kind: h.source.kind, file: h.source.file, ...(root !== undefined ? { skillRoot: canonicalDir(root) } : {}) };
    if (!needsTrust(source, report.workspace)) allowed.push(h);
    else
      warnings.push(
        `${h.source.file}: ${h.source.path}: ${h.source.kind} ${h.handler.type} hook skipped (${report.state === 'error' ? report.reason : 'the workspace is not trusted'}); trust the workspace first`,
      );
  }
  return { allowed, warnings };
}

/** Frontmatter hooks → gated, policy-checked registration. */
export async function frontmatterFor(m: ManagerState, s: SessionState, file: string, kind: 'skill' | 'agent'): Promise<SkillRegistration> {
  const fm: FrontmatterHooks = await loadFrontmatterHooks(file, { kind, cwd: s.worktreeDir ?? s.projectDir });
  const warnings: string[] = [];
  let hooks = fm.hooks;
  const cfg = s.snapshot.config;
  // Frontmatter hooks are never managed: policy that removes non-managed hooks removes them too.
  if (hooks.length > 0 && (cfg.disabled.nonManaged || cfg.managedOnly)) {
    warnings.push(
      `${kind} ${fm.name}: its hooks are not registered (${cfg.managedOnly ? 'allowManagedHooksOnly' : 'disableAllHooks'} is in force)`,
    );
    hooks = hooks.filter(isManagedHook);
  }
  const trusted = await workspaceTrustGate(m, hooks, s.projectDir);
  const gated = await gate(m, trusted.allowed, s.projectDir);
  warnings.push(...trusted.warnings, ...gated.warnings);
  for (const w of warnings) m.warn(w, s.id);
  for (const d of fm.diagnostics) if (d.level === 'error') m.warn(`${d.file ?? file}: ${d.path}: ${d.message}`, s.id);
  return { name: fm.name, file: fm.file, root: fm.root, hooks: frozenCopy(gated.allowed), diagnostics: fm.diagnostics, warnings };
}
