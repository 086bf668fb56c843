/**
 * Warnings about hooks that load but will not behave as written, beyond what the config
 * loader already reports: invalid regex matchers and invalid `if` rules (the hook never
 * runs), and hook types this engine has no backend for.
 */
import { catalog } from '../events/catalog.js';
import type { EventSpec } from '../events/spec.js';
import { compileMatcher, parseRule } from '../matching/index.js';
import type { Diagnostic, NormalizedHook } from '../types.js';

export function lintHooks(hooks: readonly NormalizedHook[], executableTypes: readonly string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const hook of hooks) {
    const spec = catalog[hook.event] as EventSpec;
    const at = { level: 'warning' as const, file: hook.source.file, path: hook.source.path };
    if (spec.matcher && hook.matcher !== undefined) {
      const m = compileMatcher(hook.matcher, spec.matcher.exactSet);
      if (m.kind === 'invalid') {
        out.push({ ...at, message: `matcher ${JSON.stringify(hook.matcher)} is not a valid regular expression (${m.error ?? 'invalid'}); this hook never runs` });
      }
    }
    if (spec.ifCondition && hook.handler.if !== undefined) {
      const parsed = parseRule(hook.handler.if);
      if (!parsed.ok) out.push({ ...at, message: `"if" condition ${JSON.stringify(hook.handler.if)} is invalid (${parsed.error}); this hook never runs` });
    }
    if (!executableTypes.includes(hook.handler.type)) {
      out.push({ ...at, message: `hook type "${hook.handler.type}" has no backend in this engine yet; it reports an error and its failure policy applies` });
    }
  }
  return out;
}
