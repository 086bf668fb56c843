/**
 * One tool call through the pipeline (tool-pipeline.ts): validate, the beforeTool slot (a veto
 * denies; an accepted rewrite is rebuilt, re-validated, re-checked and re-evaluated), execute,
 * the afterTool slot; the model-facing outcome.
 */
import { randomUUID } from 'node:crypto';
import { nowMs } from '../util/clock.js';
import { formatZodIssues } from '../parse/output.js';
import type { HostPermissionMode } from './permissions.js';
import type { PipelineState } from './pipeline-state.js';
import type { Actor, BeforeToolEvent } from './runtime-slots.js';
import type { SlotEvent } from './slots.js';
import type { RunOpts, ToolOutcome } from './pipeline-types.js';
import { isolationProblem } from './tools/workspace.js';
import { ToolError, type HostTool, type ToolCall } from './types.js';

/** The beforeTool event of one call; its rewriteInput vetoes any rewrite that does not hold. */
function beforeEvent(
  ps: PipelineState,
  tool: HostTool,
  input: Record<string, unknown>,
  c: { toolUseId: string; cwd: string; mode: HostPermissionMode; actor: Actor },
): BeforeToolEvent {
  const event: BeforeToolEvent = {
    tool,
    toolUseId: c.toolUseId,
    originalInput: input,
    input,
    cwd: c.cwd,
    mode: c.mode,
    additionalContext: [],
    rewrites: [],
    ...c.actor,
    rewriteInput(next, by) {
      const e = event as SlotEvent<BeforeToolEvent>;
      const check = tool.inputSchema.safeParse(next);
      if (!check.success) {
        e.veto(`${by} rewrote the input of ${tool.name} invalidly: ${formatZodIssues(check.error)}`, { kind: 'validation' });
        return false;
      }
      const problem = isolationProblem(tool.name, check.data, ps.options.workspace, c.cwd, ps.roots());
      if (problem) {
        e.veto(`${by} rewrite rejected: ${problem}`, { kind: 'isolation' });
        return false;
      }
      const rule = ps.permissions.evaluate(tool, check.data, c.cwd);
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
  return event;
}

interface Execution {
  ok: boolean;
  output: unknown;
  content: string;
  error?: string;
  isInterrupt: boolean;
  durationMs: number;
}

/** Run the tool; a throw is a failed call (ToolError keeps its output), never a crash. */
async function execute(
  ps: PipelineState,
  tool: HostTool,
  ev: BeforeToolEvent,
  c: { cwd: string; toolUseId: string },
  opts: RunOpts,
  signal: AbortSignal,
): Promise<Execution> {
  const actor = opts.actor ?? {};
  const started = nowMs();
  let r: Omit<Execution, 'durationMs'>;
  try {
    const trackCwd = opts.cwd === undefined && !actor.agentId && ps.options.onCwd;
    const result = await tool.run(ev.input, {
      workspace: ps.options.workspace,
      cwd: c.cwd,
      roots: ps.roots(),
      ...(trackCwd ? { onCwd: trackCwd } : {}),
      env: ps.options.env(),
      signal,
      toolUseId: c.toolUseId,
      sessionId: ps.options.sessionId,
      ...(actor.agentId ? { agentId: actor.agentId } : {}),
      ...(actor.agentType ? { agentType: actor.agentType } : {}),
    });
    r = { ok: true, output: result.output, content: result.content, isInterrupt: false };
  } catch (err) {
    let error = (err as Error)?.message ?? String(err);
    if (!(err instanceof ToolError)) error = `${tool.name} failed: ${error}`;
    r = { ok: false, error, output: err instanceof ToolError ? err.output : undefined, content: error, isInterrupt: signal.aborted };
  }
  return { ...r, durationMs: Math.round(nowMs() - started) };
}

export async function runOne(ps: PipelineState, call: ToolCall, opts: RunOpts): Promise<ToolOutcome> {
  const signal = opts.signal ?? new AbortController().signal;
  const actor = opts.actor ?? {};
  const toolUseId = call.id || `toolu_${randomUUID()}`;
  const base = { toolUseId, toolName: call.name, input: call.input };
  const tool = ps.tools.get(call.name);
  if (!tool) return { ...base, status: 'error', content: `Error: no such tool ${JSON.stringify(call.name)}` };
  const parsed = tool.inputSchema.safeParse(call.input);
  if (!parsed.success) return { ...base, status: 'error', content: `InputValidationError: ${formatZodIssues(parsed.error)}` };

  const cwd = opts.cwd ?? ps.sessionCwd();
  const mode = ps.permissions.mode;
  const event = beforeEvent(ps, tool, parsed.data, { toolUseId, cwd, mode, actor });
  ps.signals.set(event, signal);
  const fired = await ps.slots.beforeTool.fire(event);
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

  const x = await execute(ps, tool, ev, { cwd, toolUseId }, opts, signal);
  const after = (
    await ps.slots.afterTool.fire({
      tool,
      toolUseId,
      input: ev.input,
      mode,
      cwd,
      durationMs: x.durationMs,
      ok: x.ok,
      output: x.output,
      content: x.content,
      ...(x.error !== undefined ? { error: x.error } : {}),
      ...(x.isInterrupt ? { isInterrupt: x.isInterrupt } : {}),
      additionalContext: [],
      feedback: [],
      ...actor,
    })
  ).event;
  const feedback = after.feedback.map((f) => `\n<hook-feedback>${f}</hook-feedback>`).join('');
  return {
    ...base,
    input: ev.input,
    status: x.ok ? 'ok' : 'error',
    output: after.output,
    content: `${x.ok ? after.content : `Error: ${after.content}`}${feedback}${context(after.additionalContext)}`,
    ...(after.stop ? { stop: after.stop } : {}),
  };
}
