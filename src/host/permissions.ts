/**
 * Permission engine: allow / deny / ask rules in Claude's `Tool(pattern)` syntax — the same
 * parser and matcher as the hooks' `if` conditions (src/matching) — plus the permission mode.
 *
 * Evaluation order: deny rules, then ask rules, then allow rules, then the mode's default.
 * A deny rule denies in every mode; an ask rule asks in every mode (bypass included: it is
 * an explicit request to be asked); bypassPermissions/yolo allow whatever no rule decided.
 */
import { userHome } from '../util/os-dirs.js';
import { matchRule, parseRule, type Rule, type RuleContext } from '../matching/index.js';
import { namesFoldCase } from '../util/name-case.js';
import type { HostTool } from './types.js';

const HOST_PERMISSION_MODES = ['default', 'plan', 'acceptEdits', 'auto', 'dontAsk', 'bypassPermissions', 'yolo'] as const;
export type HostPermissionMode = (typeof HOST_PERMISSION_MODES)[number];

export interface PermissionRules {
  allow?: readonly string[];
  deny?: readonly string[];
  ask?: readonly string[];
}

export interface RuleVerdict {
  behavior: 'allow' | 'deny' | 'ask';
  /** `rule`: an explicit rule decided; `mode`: no rule matched, the mode's default applies. */
  source: 'rule' | 'mode';
  /** The rule text that decided (source `rule`). */
  rule?: string;
  reason: string;
}

export interface PermissionEngine {
  evaluate(tool: Pick<HostTool, 'name' | 'readOnly' | 'edits' | 'selfChecked'>, input: Record<string, unknown>, cwd?: string): RuleVerdict;
  mode: HostPermissionMode;
  readonly rules: Readonly<Record<'allow' | 'deny' | 'ask', readonly string[]>>;
  /** Add rules for the rest of the session (a PermissionRequest hook's updatedPermissions); an invalid rule throws. */
  addRules(kind: 'allow' | 'deny' | 'ask', texts: readonly string[]): void;
}

export class PermissionConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermissionConfigError';
  }
}

export interface PermissionEngineOptions {
  rules?: PermissionRules;
  mode?: HostPermissionMode;
  /** Workspace: relative patterns resolve against it, `/path` patterns are project-anchored. */
  workspace: string;
  homeDir?: string;
  /**
   * File names that differ only in case name one file (default: on macOS and Windows,
   * src/util/name-case.ts): deny and ask rules then also compare names composed (NFC). Deny and
   * ask rules ignore case on every platform, as Claude Code's do, so `Edit(.env)` denies `.ENV`;
   * allow rules compare names exactly, so a case-sensitive volume never lets an allow rule
   * cover another file.
   */
  foldCase?: boolean;
}

export function isPermissionMode(mode: string): mode is HostPermissionMode {
  return (HOST_PERMISSION_MODES as readonly string[]).includes(mode);
}

/** Parse every rule up front: an invalid rule is a path-qualified error, never a silently dead rule. */
function compile(kind: 'allow' | 'deny' | 'ask', texts: readonly string[] | undefined): Rule[] {
  if (texts === undefined) return [];
  if (!Array.isArray(texts)) throw new PermissionConfigError(`permissions.${kind}: must be an array of rule strings`);
  return texts.map((text, i) => {
    const r = parseRule(text);
    if (!r.ok) throw new PermissionConfigError(`permissions.${kind}[${i}]: ${r.error}`);
    return r.rule;
  });
}

export function createPermissionEngine(options: PermissionEngineOptions): PermissionEngine {
  const rules = {
    allow: compile('allow', options.rules?.allow),
    deny: compile('deny', options.rules?.deny),
    ask: compile('ask', options.rules?.ask),
  };
  const mode = options.mode ?? 'default';
  if (!isPermissionMode(mode))
    throw new PermissionConfigError(`permission mode: unknown mode ${JSON.stringify(mode)} (one of ${HOST_PERMISSION_MODES.join(', ')})`);
  const homeDir = options.homeDir ?? userHome();
  const foldCase = options.foldCase ?? namesFoldCase();
  const engine: PermissionEngine = {
    mode,
    get rules() {
      return { allow: rules.allow.map((r) => r.source), deny: rules.deny.map((r) => r.source), ask: rules.ask.map((r) => r.source) };
    },
    addRules(kind, texts) {
      rules[kind].push(...compile(kind, texts));
    },
    evaluate(tool, input, cwd = options.workspace) {
      const ctx = { cwd, homeDir, projectDir: options.workspace };
      // Deny and ask rules guard (any subcommand or path, names ignoring case); allow rules grant
      // (the whole call, names exact): src/matching/if-rule.ts RuleContext.grant.
      const guarding: RuleContext = { ...ctx, foldCase, ignoreCase: true };
      const granting: RuleContext = { ...ctx, grant: true };
      const hit = (list: Rule[], c: RuleContext) => list.find((r) => matchRule(r, tool.name, input, c));
      const deny = hit(rules.deny, guarding);
      if (deny) return { behavior: 'deny', source: 'rule', rule: deny.source, reason: `denied by permission rule ${deny.source}` };
      const ask = hit(rules.ask, guarding);
      if (ask) return { behavior: 'ask', source: 'rule', rule: ask.source, reason: `permission rule ${ask.source} asks for confirmation` };
      const allow = hit(rules.allow, granting);
      if (allow) return { behavior: 'allow', source: 'rule', rule: allow.source, reason: `allowed by permission rule ${allow.source}` };
      return modeDefault(engine.mode, tool);
    },
  };
  return engine;
}

/** What the mode does with a call no rule decided. */
function modeDefault(mode: HostPermissionMode, tool: Pick<HostTool, 'name' | 'readOnly' | 'edits' | 'selfChecked'>): RuleVerdict {
  if (mode === 'bypassPermissions' || mode === 'yolo') return { behavior: 'allow', source: 'mode', reason: `${mode} mode allows it` };
  if (tool.readOnly) return { behavior: 'allow', source: 'mode', reason: 'read-only tool' };
  if (tool.selfChecked) return { behavior: 'allow', source: 'mode', reason: `${tool.name} needs no permission of its own` };
  if (tool.edits && mode === 'acceptEdits') return { behavior: 'allow', source: 'mode', reason: 'acceptEdits mode allows file edits' };
  if (mode === 'dontAsk') return { behavior: 'deny', source: 'mode', reason: 'dontAsk mode denies what no rule allows' };
  return { behavior: 'ask', source: 'mode', reason: `${tool.name} needs permission` };
}
