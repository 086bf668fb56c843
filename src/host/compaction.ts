/**
 * Compaction service: replace the conversation with a summary. PreCompact hooks run first: an
 * explicit block (decision:"block", exit 2, or the engine's blockCompaction:true) raises
 * CompactionBlockedError; a failing hook fails open. PostCompact runs after, with the summary.
 */
import type { HostPermissionMode } from './permissions.js';
import type { Message } from './model.js';
import type { RuntimeSlots } from './runtime-slots.js';

export class CompactionBlockedError extends Error {
  constructor(
    readonly reason: string,
    readonly trigger: 'manual' | 'auto',
  ) {
    super(`compaction blocked: ${reason}`);
    this.name = 'CompactionBlockedError';
  }
}

export type Summarizer = (messages: readonly Message[], instructions: string) => Promise<string>;

export interface CompactionResult {
  trigger: 'manual' | 'auto';
  summary: string;
  /** Messages replaced by the summary. */
  removed: number;
}

export interface CompactionService {
  /** Compact `messages` in place; throws CompactionBlockedError when a PreCompact hook blocks. */
  compact(messages: Message[], opts: { trigger: 'manual' | 'auto'; instructions?: string }): Promise<CompactionResult>;
}

/** Without a summarizer: a plain, deterministic digest (no model call). */
export const digestSummarizer: Summarizer = async (messages, instructions) => {
  const users = messages.filter((m) => m.role === 'user').map((m) => m.content);
  const lastAssistant = [...messages].reverse().find((m) => m.role === 'assistant' && m.content)?.content ?? '';
  const tools = messages.filter((m) => m.role === 'tool').length;
  const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…` : s);
  return [
    `Summary of ${messages.length} messages (${users.length} from the user, ${tools} tool results).`,
    users.length ? `First request: ${clip(users[0]!)}` : '',
    users.length > 1 ? `Latest request: ${clip(users[users.length - 1]!)}` : '',
    lastAssistant ? `Last answer: ${clip(lastAssistant)}` : '',
    instructions ? `Instructions: ${clip(instructions)}` : '',
  ]
    .filter(Boolean)
    .join('\n');
};

export function createCompactionService(opts: {
  slots: RuntimeSlots;
  cwd: string;
  mode: () => HostPermissionMode;
  summarize?: Summarizer;
}): CompactionService {
  const summarize = opts.summarize ?? digestSummarizer;
  return {
    async compact(messages, { trigger, instructions = '' }) {
      const pre = await opts.slots.beforeCompact.fire({ trigger, customInstructions: instructions, mode: opts.mode(), cwd: opts.cwd });
      if (pre.vetoed) throw new CompactionBlockedError(pre.vetoed.reason, trigger);
      // System messages stay; everything else becomes one summary message.
      const keep = messages.filter((m) => m.role === 'system');
      const rest = messages.filter((m) => m.role !== 'system');
      const summary = await summarize(rest, instructions);
      messages.splice(0, messages.length, ...keep, { role: 'user', content: `<compact-summary>\n${summary}\n</compact-summary>` });
      await opts.slots.afterCompact.fire({ trigger, summary, mode: opts.mode(), cwd: opts.cwd });
      return { trigger, summary, removed: rest.length };
    },
  };
}
