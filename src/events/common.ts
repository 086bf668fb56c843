import { z } from 'zod';

/** Fields every hook input carries (Claude's common fields plus our execution id and timestamp). */
export const commonInputShape = {
  session_id: z.string(),
  transcript_path: z.string(),
  cwd: z.string(),
  permission_mode: z.string().optional(),
  hook_event_name: z.string(),
  /** Unique per hook execution; added by the engine. */
  hook_execution_id: z.string(),
  /** ISO-8601; added by the engine. */
  timestamp: z.string(),
  prompt_id: z.string().optional(),
  // Claude Code sends `{level}`; a bare level string passes too (unknown shapes must not reject an event).
  effort: z.union([z.string(), z.looseObject({ level: z.string() })]).optional(),
  agent_id: z.string().optional(),
  agent_type: z.string().optional(),
};

/** Tool-call fields shared by the tool events. */
export const toolCallShape = {
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
};
