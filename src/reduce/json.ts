/** The `run --json` object, shared by `run` and the fixture runner of `agent-hooks test`. */
import type { Decision } from './reduce.js';

/** Stable field names; absent fields omitted. */
export function toJson(d: Decision): Record<string, unknown> {
  const out: Record<string, unknown> = { event: d.event, blocked: d.blocked };
  if (d.decision) out.decision = d.decision;
  if (d.reason !== undefined) out.reason = d.reason;
  if (d.updatedInput) out.updatedInput = d.updatedInput;
  if (d.updatedOutput !== undefined) out.updatedOutput = d.updatedOutput;
  out.additionalContext = d.additionalContext;
  out.systemMessages = d.systemMessages;
  out.continue = d.continue;
  if (d.stopReason !== undefined) out.stopReason = d.stopReason;
  if (Object.keys(d.eventOutput).length > 0) out.eventOutput = d.eventOutput;
  out.hooks = d.hooks;
  if (d.warnings.length > 0) out.warnings = d.warnings;
  return out;
}
