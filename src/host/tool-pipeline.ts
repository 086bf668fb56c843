/**
 * The tool pipeline, in its fixed order (docs/host.md):
 *
 *   validate the model's input
 *   → beforeTool slot:  permission-gate (rules; a deny vetoes, so PreToolUse never runs)
 *                       → plan-mode-guard (plan mode refuses file edits)
 *                       → hooks (PreToolUse; a rewrite is rebuilt, re-validated against the
 *                         tool's schema, re-checked for workspace isolation and re-evaluated
 *                         against the rules — an invalid rewrite is a validation error)
 *                       → deferred (waitUntil) approval: merge rule and hook decisions; if
 *                         still `ask`: PermissionRequest hooks (serialized by a mutex), then the
 *                         user (Notification permission_prompt first; headless: deny), or the
 *                         auto-mode classifier (a denial fires PermissionDenied)
 *   → execute → afterTool slot (PostToolUse / PostToolUseFailure, duration_ms, tool_use_id)
 *   → afterToolBatch slot (PostToolBatch) once per batch.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { formatZodIssues } from '../parse/output.js';
import type { PermissionEngine, RuleVerdict } from './permissions.js';
import { isPermissionMode } from './permissions.js';
import type { Actor, BeforeToolEvent, RuntimeSlots } from './runtime-slots.js';
import type { SlotEvent } from './slots.js';
import { isolationProblem } from './tools/workspace.js';
import { ToolError, type AutoClassifier, type HostTool, type Prompter, type ToolCall, type ToolRegistry } from './types.js';

export interface ToolOutcome {
  toolUseId: string;
  toolName: string;
  /** The input the tool ran with (after rewrites), or the model's input when it never ran. */
  input: Record<string, unknown>;
  /** ok: ran and succeeded; error: ran and failed, or invalid input; denied: never ran. */
  status: 'ok' | 'error' | 'denied';
  /** What the model reads as the tool result (contexts and feedback included). */
  content: string;
  output?: unknown;
  /** Who denied: rule, hook, validation, isolation, plan, user, auto, permission-request. */
  deniedBy?: string;
  /** A hook asked to stop the agent (continue:false) or a PermissionRequest deny with interrupt. */
  stop?: string;
}

export interface PipelineOptions {
  tools: ToolRegistry;
  permissions: PermissionEngine;
  slots: RuntimeSlots;
  workspace: string;
  /** The session's working directory (read at every call: a Bash `cd` moves it). */
  cwd: string | (() => string);
  /** Directories added to the session: confinement roots next to the workspace. */
  roots?: () => readonly string[];
  /** Bash reports the shell's directory after a main-agent command; see ToolContext.onCwd. */
  onCwd?: (dir: string) => Promise<string | undefined>;
  sessionId: string;
  env: () => Readonly<Record<string, string>>;
  prompter?: Prompter;
  autoClassifier?: AutoClassifier;
  /** Run the calls of one batch concurrently (default) or one after another. */
  concurrency?: 'parallel' | 'serial';
  /** Each call's outcome as soon as it is known (before PostToolBatch). */
  onOutcome?: (outcome: ToolOutcome, actor: Actor) => void;
  onWarning?: (message: string) => void;
}

export interface ToolPipeline {
  /** `cwd` overrides the session cwd (a subagent in its worktree); then `cd` is not tracked. */
  run(call: ToolCall, opts?: RunOpts): Promise<ToolOutcome>;
  /** Run a batch, then PostToolBatch; `stop` is set when a hook stopped the loop. */
  runBatch(calls: readonly ToolCall[], opts?: RunOpts): Promise<{ outcomes: ToolOutcome[]; stop?: string; additionalContext: string[] }>;
}

type RunOpts = { signal?: AbortSignal; actor?: Actor; cwd?: string };

/** One prompt at a time: concurrent approvals (PermissionRequest hooks and the user) wait in line. */
function createMutex() {
  let tail: Promise<void> = Promise.resolve();
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    const prev = tail;
    let release!: () => void;
    tail = new Promise<void>((r) => (release = r));
    await prev;
    try {
      return await fn();
    } finally {
      release();
    }
  };
}

/** Merge the rule verdict and the PreToolUse verdict (deny/defer already vetoed). */
export function mergeDecisions(rule: RuleVerdict, hook: BeforeToolEvent['hook']): { behavior: 'allow' | 'ask'; reason: string } {
  // An explicit ask rule is still evaluated whatever a hook says: a hook `allow` cannot skip it.
  if (rule.behavior === 'ask' && rule.source === 'rule') return { behavior: 'ask', reason: rule.reason };
  if (hook?.decision === 'ask') return { behavior: 'ask', reason: hook.reason ?? 'a PreToolUse hook asks for confirmation' };
  if (hook?.decision === 'allow') return { behavior: 'allow', reason: hook.reason ?? 'allowed by a PreToolUse hook' };
  return { behavior: rule.behavior === 'deny' ? 'ask' : rule.behavior, reason: rule.reason };
}

function suggestionFor(tool: HostTool, input: Record<string, unknown>): Array<Record<string, unknown>> {
  const content = tool.name === 'Bash' && typeof input.command === 'string' ? input.command : undefined;
  return [{ type: 'addRules', rules: [{ toolName: tool.name, ...(content !== undefined ? { ruleContent: content } : {}) }], behavior: 'allow', destination: 'session' }];
}

export function createToolPipeline(options: PipelineOptions): ToolPipeline {
  const { tools, permissions, slots } = options;
  const approvals = createMutex();
  const warn = options.onWarning ?? (() => {});
  const sessionCwd = () => (typeof options.cwd === 'function' ? options.cwd() : options.cwd);
  const roots = () => options.roots?.() ?? [];

  // The permission gate and the plan-mode guard: listeners of beforeTool like the hooks engine.
  slots.beforeTool.add({
    name: 'permission-gate',
    fn(e) {
      const problem = isolationProblem(e.tool.name, e.input, options.workspace, e.cwd, roots());
      if (problem) return e.veto(problem, { kind: 'isolation' });
      e.rule = permissions.evaluate(e.tool, e.input, e.cwd);
      if (e.rule.behavior === 'deny') return e.veto(e.rule.reason, { kind: 'rule' });
      // Approval is deferred until every listener (PreToolUse included) has answered.
      e.waitUntil(() => approve(e));
    },
  });
  slots.beforeTool.add({
    name: 'plan-mode-guard',
    after: ['permission-gate'],
    fn(e) {
      if (e.mode === 'plan' && e.tool.edits) e.veto(`plan mode: ${e.tool.name} edits files, which waits until the plan is approved`, { kind: 'plan' });
    },
  });

  /** The deferred approval of one call: merge, then PermissionRequest and the user when still `ask`. */
  async function approve(e: SlotEvent<BeforeToolEvent>): Promise<void> {
    const merged = mergeDecisions(e.rule!, e.hook);
    if (merged.behavior === 'allow') return;
    await approvals(async () => {
      const actor = { ...(e.agentId ? { agentId: e.agentId } : {}), ...(e.agentType ? { agentType: e.agentType } : {}) };
      const common = { tool: e.tool, toolUseId: e.toolUseId, mode: e.mode, cwd: e.cwd, ...actor };
      const resolved = async (decision: 'allow' | 'deny', reason?: string) => {
        await slots.permissionResult.fire({ ...common, input: e.input, decision, ...(reason !== undefined ? { reason } : {}) });
      };
      const pr = (await slots.permissionRequest.fire({ ...common, input: e.input, suggestions: suggestionFor(e.tool, e.input) })).event;
      if (pr.decision?.behavior === 'deny') {
        const reason = pr.decision.message ?? 'denied by a PermissionRequest hook';
        e.veto(reason, { kind: 'permission-request', ...(pr.decision.interrupt ? { interrupt: true } : {}) });
        return resolved('deny', reason);
      }
      if (pr.decision?.behavior === 'allow') {
        applyPermissionUpdates(pr.decision.updatedPermissions ?? []);
        // The modified input is rebuilt and re-evaluated against the rules like any rewrite.
        if (pr.decision.updatedInput && !e.rewriteInput(pr.decision.updatedInput, 'PermissionRequest hook')) return resolved('deny', e.vetoed?.reason);
        return resolved('allow', 'allowed by a PermissionRequest hook');
      }
      const reason = e.rule?.behavior === 'ask' && e.rule.source === 'rule' ? e.rule.reason : merged.reason;
      if (e.mode === 'auto') {
        const verdict = await (options.autoClassifier ?? defaultClassifier)({ toolName: e.tool.name, input: e.input });
        if (verdict.allow) return resolved('allow', verdict.reason ?? 'allowed by the auto-mode classifier');
        const why = verdict.reason ?? 'Blocked by classifier';
        const denied = (await slots.permissionDenied.fire({ ...common, input: e.input, reason: why, retry: false })).event;
        e.autoDenied = { reason: why, retry: denied.retry };
        e.veto(why, { kind: 'auto' });
        return resolved('deny', why);
      }
      await slots.notification.fire({ mode: e.mode, cwd: e.cwd, ...actor, message: `${e.tool.name} needs your permission: ${reason}`, title: 'Permission needed', notificationType: 'permission_prompt' });
      const ask = options.prompter?.confirmTool;
      const answer = ask ? await ask({ toolName: e.tool.name, input: e.input, toolUseId: e.toolUseId, reason }, signalOf(e)) : { behavior: 'deny' as const, message: 'no one to ask (headless): denied' };
      if (answer.behavior === 'allow') return resolved('allow', 'allowed by the user');
      const why = answer.message ?? 'the user denied it';
      e.veto(why, { kind: 'user' });
      return resolved('deny', why);
    });
  }

  const signals = new WeakMap<object, AbortSignal>();
  const signalOf = (e: object) => signals.get(e) ?? new AbortController().signal;

  function applyPermissionUpdates(updates: Array<Record<string, unknown>>) {
    for (const u of updates) {
      // Applied to this session in memory; nothing is written to settings files.
      if (u.type === 'setMode' && typeof u.mode === 'string') {
        const mode = u.mode === 'manual' ? 'default' : u.mode;
        if (isPermissionMode(mode)) permissions.mode = mode;
      } else if (u.type === 'addRules' && Array.isArray(u.rules) && (u.behavior === 'allow' || u.behavior === 'deny' || u.behavior === 'ask')) {
        const texts = u.rules
          .filter((r): r is { toolName: string; ruleContent?: string } => typeof r === 'object' && r !== null && typeof (r as { toolName?: unknown }).toolName === 'string')
          .map((r) => (r.ruleContent ? `${r.toolName}(${r.ruleContent})` : r.toolName));
        try {
          permissions.addRules(u.behavior, texts);
        } catch (err) {
          warn(`PermissionRequest updatedPermissions ignored: ${(err as Error).message}`);
        }
      }
    }
  }

  async function run(call: ToolCall, opts: RunOpts = {}): Promise<ToolOutcome> {
    const outcome = await runOne(call, opts);
    options.onOutcome?.(outcome, opts.actor ?? {});
    return outcome;
  }

  async function runOne(call: ToolCall, opts: RunOpts): Promise<ToolOutcome> {
    const signal = opts.signal ?? new AbortController().signal;
    const actor = opts.actor ?? {};
    const toolUseId = call.id || `toolu_${randomUUID()}`;
    const base = { toolUseId, toolName: call.name, input: call.input };
    const tool = tools.get(call.name);
    if (!tool) return { ...base, status: 'error', content: `Error: no such tool ${JSON.stringify(call.name)}` };
    const parsed = tool.inputSchema.safeParse(call.input);
    if (!parsed.success) return { ...base, status: 'error', content: `InputValidationError: ${formatZodIssues(parsed.error)}` };

    const cwd = opts.cwd ?? sessionCwd();
    const mode = permissions.mode;
    const event: BeforeToolEvent = {
      tool,
      toolUseId,
      originalInput: parsed.data,
      input: parsed.data,
      cwd,
      mode,
      additionalContext: [],
      rewrites: [],
      ...actor,
      rewriteInput(next, by) {
        const e = event as SlotEvent<BeforeToolEvent>;
        const check = tool.inputSchema.safeParse(next);
        if (!check.success) {
          e.veto(`${by} rewrote the input of ${tool.name} invalidly: ${formatZodIssues(check.error)}`, { kind: 'validation' });
          return false;
        }
        const problem = isolationProblem(tool.name, check.data, options.workspace, cwd, roots());
        if (problem) {
          e.veto(`${by} rewrite rejected: ${problem}`, { kind: 'isolation' });
          return false;
        }
        const rule = permissions.evaluate(tool, check.data, cwd);
        if (rule.behavior === 'deny') {
          e.veto(`${rule.reason} (after the ${by} rewrote the input)`, { kind: 'rule' });
          return false;
        }
        e.rule = rule;
        e.input = check.data;
        e.rewrites.push(by);
        return true;
      },
    };
    signals.set(event, signal);
    const fired = await slots.beforeTool.fire(event);
    const ev = fired.event;
    const context = (extra: string[] = []) => [...ev.additionalContext, ...extra].map((c) => `\n<hook-context>${c}</hook-context>`).join('');

    if (fired.vetoed) {
      const kind = String(fired.vetoed.detail?.kind ?? fired.vetoed.by);
      const retry = ev.autoDenied?.retry ? '\nA hook says you may retry this tool call.' : '';
      const stop = fired.vetoed.detail?.interrupt ? fired.vetoed.reason : undefined;
      return {
        ...base,
        input: ev.input,
        status: 'denied',
        deniedBy: kind,
        content: `Permission to use ${tool.name} was denied: ${fired.vetoed.reason}${retry}${context()}`,
        ...(stop ? { stop } : {}),
      };
    }

    const started = performance.now();
    let ok = true;
    let output: unknown;
    let content: string;
    let error: string | undefined;
    let isInterrupt = false;
    try {
      const trackCwd = opts.cwd === undefined && !actor.agentId && options.onCwd;
      const result = await tool.run(ev.input, { workspace: options.workspace, cwd, roots: roots(), ...(trackCwd ? { onCwd: trackCwd } : {}), env: options.env(), signal, toolUseId, sessionId: options.sessionId, ...(actor.agentId ? { agentId: actor.agentId } : {}), ...(actor.agentType ? { agentType: actor.agentType } : {}) });
      output = result.output;
      content = result.content;
    } catch (err) {
      ok = false;
      error = (err as Error)?.message ?? String(err);
      if (!(err instanceof ToolError)) error = `${tool.name} failed: ${error}`;
      output = err instanceof ToolError ? err.output : undefined;
      content = error;
      isInterrupt = signal.aborted;
    }
    const durationMs = Math.round(performance.now() - started);
    const after = (
      await slots.afterTool.fire({
        tool,
        toolUseId,
        input: ev.input,
        mode,
        cwd,
        durationMs,
        ok,
        output,
        content,
        ...(error !== undefined ? { error } : {}),
        ...(isInterrupt ? { isInterrupt } : {}),
        additionalContext: [],
        feedback: [],
        ...actor,
      })
    ).event;
    const feedback = after.feedback.map((f) => `\n<hook-feedback>${f}</hook-feedback>`).join('');
    return {
      ...base,
      input: ev.input,
      status: ok ? 'ok' : 'error',
      output: after.output,
      content: `${ok ? after.content : `Error: ${after.content}`}${feedback}${context(after.additionalContext)}`,
      ...(after.stop ? { stop: after.stop } : {}),
    };
  }

  return {
    run,
    async runBatch(calls, opts = {}) {
      const outcomes =
        options.concurrency === 'serial'
          ? await calls.reduce<Promise<ToolOutcome[]>>(async (acc, c) => [...(await acc), await run(c, opts)], Promise.resolve([]))
          : await Promise.all(calls.map((c) => run(c, opts)));
      const actor = opts.actor ?? {};
      const batch = await slots.afterToolBatch.fire({
        mode: permissions.mode,
        cwd: opts.cwd ?? sessionCwd(),
        calls: outcomes.map((o) => ({ toolName: o.toolName, toolInput: o.input, toolUseId: o.toolUseId, toolResponse: o.content })),
        additionalContext: [],
        ...actor,
      });
      const stop = outcomes.find((o) => o.stop)?.stop ?? batch.vetoed?.reason;
      return { outcomes, additionalContext: batch.event.additionalContext, ...(stop ? { stop } : {}) };
    },
  };
}

const defaultClassifier: AutoClassifier = async () => ({ allow: false, reason: 'Blocked by classifier' });
