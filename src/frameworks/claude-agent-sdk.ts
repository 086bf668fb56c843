/**
 * agent-hooks/claude-agent-sdk: the engine as the Claude Agent SDK's `options.hooks`. The SDK's
 * hook inputs are Claude Code's own payloads, the engine's canonical form, so nothing is mapped:
 * each callback hands its input to `engine.run()` and answers the Decision in Claude Code's output
 * convention (the same encoder `agent-hooks dispatch --agent claude` uses). `ask` is the CLI's own:
 * it asks the app's `canUseTool`. Each matcher sets `onFailure: 'block'`, so a callback that
 * failed blocks what its event guards instead of letting it go ahead.
 * Keep the app's `settingSources` free of the files the engine loads, or their hooks run twice.
 */
import '../entry/zod-schemas.js'; // the schema slot, as every package entry fills it (src/util/zod-slot.ts)
import type { HookEngine } from '../api.js';
import { claudeOutput } from '../agents/shared/wire.js';
import { EVENT_NAMES } from '../events/facts.js';
import { engineBridge, type FrameworkHookOptions, loadFramework } from './shared.js';

type Sdk = typeof import('@anthropic-ai/claude-agent-sdk');
const sdk = await loadFramework('claude-agent-sdk', ['@anthropic-ai/claude-agent-sdk'], () => import('@anthropic-ai/claude-agent-sdk'));

type Options = NonNullable<Parameters<Sdk['query']>[0]['options']>;
export type ClaudeAgentSdkHooks = NonNullable<Options['hooks']>;
type HookEvent = keyof ClaudeAgentSdkHooks;

export interface ClaudeAgentSdkHookOptions extends Pick<FrameworkHookOptions, 'sessionId'> {
  /** The events to register; default every event the SDK and the engine both know. */
  events?: readonly HookEvent[];
}

/** `query({ prompt, options: { hooks: claudeAgentHooks(engine), … } })` */
export function claudeAgentHooks(engine: HookEngine, opts: ClaudeAgentSdkHookOptions = {}): ClaudeAgentSdkHooks {
  // The SDK's payloads carry their own session_id and cwd, which win over the bridge's defaults.
  const bridge = engineBridge(engine, opts);
  const known = new Set<string>(EVENT_NAMES);
  const events = opts.events ?? sdk.HOOK_EVENTS.filter((e) => known.has(e));
  const hooks: ClaudeAgentSdkHooks = {};
  for (const event of events) {
    hooks[event] = [
      {
        onFailure: 'block',
        hooks: [
          async (input) => {
            const payload = input as unknown as Record<string, unknown>;
            const d = await bridge.run(event, payload);
            const toolName = typeof payload.tool_name === 'string' ? payload.tool_name : undefined;
            return claudeOutput(d, { toolName }) ?? {};
          },
        ],
      },
    ];
  }
  return hooks;
}
