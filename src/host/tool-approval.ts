/**
 * Approval of a tool call (tool-pipeline.ts): the permission gate and the plan-mode guard as
 * beforeTool listeners, and the deferred approval — rules and PreToolUse merged; if still `ask`,
 * PermissionRequest hooks, then the user or the auto-mode classifier.
 */
import { isPermissionMode, type RuleVerdict } from './permissions.js';
import type { PipelineState } from './pipeline-state.js';
import type { BeforeToolEvent } from './runtime-slots.js';
import type { SlotEvent } from './slots.js';
import { isolationProblem } from './tools/workspace.js';
import type { AutoClassifier, HostTool } from './types.js';

/** Merge the rule verdict and the PreToolUse verdict (deny/defer already vetoed). */
function mergeDecisions(rule: RuleVerdict, hook: BeforeToolEvent['hook']): { behavior: 'allow' | 'ask'; reason: string } {
  // An explicit ask rule is still evaluated whatever a hook says: a hook `allow` cannot skip it.
  if (rule.behavior === 'ask' && rule.source === 'rule') return { behavior: 'ask', reason: rule.reason };
  if (hook?.decision === 'ask') return { behavior: 'ask', reason: hook.reason ?? 'a PreToolUse hook asks for confirmation' };
  if (hook?.decision === 'allow') return { behavior: 'allow', reason: hook.reason ?? 'allowed by a PreToolUse hook' };
  return { behavior: rule.behavior === 'deny' ? 'ask' : rule.behavior, reason: rule.reason };
}

function suggestionFor(tool: HostTool, input: Record<string, unknown>): Array<Record<string, unknown>> {
  const content = tool.name === 'Bash' && typeof input.command === 'string' ? input.command : undefined;
  return [
    {
      type: 'addRules',
      rules: [{ toolName: tool.name, ...(content !== undefined ? { ruleContent: content } : {}) }],
      behavior: 'allow',
      destination: 'session',
    },
  ];
}

const defaultClassifier: AutoClassifier = async () => ({ allow: false, reason: 'Blocked by classifier' });

const signalOf = (ps: PipelineState, e: object) => ps.signals.get(e) ?? new AbortController().signal;

/** The permission gate and the plan-mode guard: listeners of beforeTool like the hooks engine. */
export function addGates(ps: PipelineState): void {
  ps.slots.beforeTool.add({
    name: 'permission-gate',
    fn(e) {
      const problem = isolationProblem(e.tool.name, e.input, ps.options.workspace, e.cwd, ps.roots());
      if (problem) return e.veto(problem, { kind: 'isolation' });
      e.rule = ps.permissions.evaluate(e.tool, e.input, e.cwd);
      if (e.rule.behavior === 'deny') return e.veto(e.rule.reason, { kind: 'rule' });
      // Approval is deferred until every listener (PreToolUse included) has answered.
      e.waitUntil(() => approve(ps, e));
    },
  });
  ps.slots.beforeTool.add({
    name: 'plan-mode-guard',
    after: ['permission-gate'],
    fn(e) {
      if (e.mode === 'plan' && e.tool.edits)
        e.veto(`plan mode: ${e.tool.name} edits files, which waits until the plan is approved`, { kind: 'plan' });
    },
  });
}

/** The deferred approval of one call: merge, then PermissionRequest and the user when still `ask`. */
async function approve(ps: PipelineState, e: SlotEvent<BeforeToolEvent>): Promise<void> {
  const merged = mergeDecisions(e.rule!, e.hook);
  if (merged.behavior === 'allow') return;
  await ps.approvals(async () => {
    const actor = { ...(e.agentId ? { agentId: e.agentId } : {}), ...(e.agentType ? { agentType: e.agentType } : {}) };
    const common = { tool: e.tool, toolUseId: e.toolUseId, mode: e.mode, cwd: e.cwd, ...actor };
    const resolved = async (decision: 'allow' | 'deny', reason?: string) => {
      await ps.slots.permissionResult.fire({ ...common, input: e.input, decision, ...(reason !== undefined ? { reason } : {}) });
    };
    const pr = (await ps.slots.permissionRequest.fire({ ...common, input: e.input, suggestions: suggestionFor(e.tool, e.input) })).event;
    if (pr.decision?.behavior === 'deny') {
      const reason = pr.decision.message ?? 'denied by a PermissionRequest hook';
      e.veto(reason, { kind: 'permission-request', ...(pr.decision.interrupt ? { interrupt: true } : {}) });
      return resolved('deny', reason);
    }
    if (pr.decision?.behavior === 'allow') {
      applyPermissionUpdates(ps, pr.decision.updatedPermissions ?? []);
      // The modified input is rebuilt and re-evaluated against the rules like any rewrite.
      if (pr.decision.updatedInput && !e.rewriteInput(pr.decision.updatedInput, 'PermissionRequest hook'))
        return resolved('deny', e.vetoed?.reason);
      return resolved('allow', 'allowed by a PermissionRequest hook');
    }
    const reason = e.rule?.behavior === 'ask' && e.rule.source === 'rule' ? e.rule.reason : merged.reason;
    if (e.mode === 'auto') {
      const verdict = await (ps.options.autoClassifier ?? defaultClassifier)({ toolName: e.tool.name, input: e.input });
      if (verdict.allow) return resolved('allow', verdict.reason ?? 'allowed by the auto-mode classifier');
      const why = verdict.reason ?? 'Blocked by classifier';
      const denied = (await ps.slots.permissionDenied.fire({ ...common, input: e.input, reason: why, retry: false })).event;
      e.autoDenied = { reason: why, retry: denied.retry };
      e.veto(why, { kind: 'auto' });
      return resolved('deny', why);
    }
    await ps.slots.notification.fire({
      mode: e.mode,
      cwd: e.cwd,
      ...actor,
      message: `${e.tool.name} needs your permission: ${reason}`,
      title: 'Permission needed',
      notificationType: 'permission_prompt',
    });
    const ask = ps.options.prompter?.confirmTool;
    const answer = ask
      ? await ask({ toolName: e.tool.name, input: e.input, toolUseId: e.toolUseId, reason }, signalOf(ps, e))
      : { behavior: 'deny' as const, message: 'no one to ask (headless): denied' };
    if (answer.behavior === 'allow') return resolved('allow', 'allowed by the user');
    const why = answer.message ?? 'the user denied it';
    e.veto(why, { kind: 'user' });
    return resolved('deny', why);
  });
}

function applyPermissionUpdates(ps: PipelineState, updates: Array<Record<string, unknown>>) {
  for (const u of updates) {
    // Applied to this session in memory; nothing is written to settings files.
    if (u.type === 'setMode' && typeof u.mode === 'string') {
      const mode = u.mode === 'manual' ? 'default' : u.mode;
      if (isPermissionMode(mode)) ps.permissions.mode = mode;
    } else if (
      u.type === 'addRules' &&
      Array.isArray(u.rules) &&
      (u.behavior === 'allow' || u.behavior === 'deny' || u.behavior === 'ask')
    ) {
      const texts = u.rules
        .filter(
          (r): r is { toolName: string; ruleContent?: string } =>
            typeof r === 'object' && r !== null && typeof (r as { toolName?: unknown }).toolName === 'string',
        )
        .map((r) => (r.ruleContent ? `${r.toolName}(${r.ruleContent})` : r.toolName));
      try {
        ps.permissions.addRules(u.behavior, texts);
      } catch (err) {
        ps.warn(`PermissionRequest updatedPermissions ignored: ${(err as Error).message}`);
      }
    }
  }
}
