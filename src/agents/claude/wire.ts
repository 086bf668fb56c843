/** Claude Code's wire format: the canonical one, so decoding only checks the event name. */
import type { EventName } from '../../events/catalog.js';
import { CANONICAL_EVENTS } from './facts.js';
import { claudeOutput, out } from '../shared/wire.js';
import type { WireAdapter } from '../types.js';

const CANONICAL = new Set<string>(CANONICAL_EVENTS);

export const claudeWire: WireAdapter = {
  name: 'claude',
  decodePayload(raw, nativeEvent) {
    const name = nativeEvent ?? (typeof raw.hook_event_name === 'string' ? raw.hook_event_name : undefined);
    if (!name) return { skip: 'payload has no hook_event_name (pass --event)' };
    if (!CANONICAL.has(name)) return { skip: `unknown event ${JSON.stringify(name)}`, nativeEvent: name };
    const event = name as EventName;
    return { event, nativeEvent: name, payload: { ...raw, hook_event_name: event }, raw };
  },
  encodeDecision(d, input) {
    const json = claudeOutput(d, { toolName: typeof input.payload.tool_name === 'string' ? input.payload.tool_name : undefined });
    return out(json);
  },
  noop: () => out(undefined),
};
