/**
 * Where the zod schemas are found without importing zod. zod is loaded only to decide what the
 * compiled validators (src/events/compiled.ts) do not accept and to word the issues: evaluating it
 * is the largest part of a `dispatch` or `run` with a hook to run (docs/performance.md). Each
 * schema module fills its part of the slot when it is evaluated; the library's entries import
 * them all (src/entry/zod-schemas.ts), so their synchronous functions have them from the start.
 * The lean paths (the CLI's dispatch and run) import the schema module a check needs (events'
 * or config's) before a synchronous stage that will need it, as the engine does for `if` rules
 * (src/matching/rule-slot.ts).
 */
import type { z } from 'zod';
import type { EventName } from '../events/facts.js';

// Typed structurally: importing the schema modules' types here would close an import cycle.
export interface EventZodSchemas {
  inputSchema(event: EventName): z.ZodType;
  outputSchema(event: EventName): z.ZodType;
}
export interface ConfigZodSchemas {
  /** The settings file's schema (its parsed type is config/schema.ts's SettingsFile). */
  settingsFileSchema(): z.ZodType;
}
type McpServerSchema = z.ZodType;

let events: EventZodSchemas | undefined;
let config: ConfigZodSchemas | undefined;
let mcpServer: McpServerSchema | undefined;

/** Called once by src/events/schemas.ts when it is evaluated. */
export function provideEventSchemas(s: EventZodSchemas): void {
  events = s;
}

/** Called once by src/config/schema.ts when it is evaluated. */
export function provideConfigSchemas(s: ConfigZodSchemas): void {
  config = s;
}

/** Called once by src/mcp/config.ts when it is evaluated. */
export function provideMcpServerSchema(s: McpServerSchema): void {
  mcpServer = s;
}

/** The event schemas, or undefined while src/events/schemas.ts has not been loaded. */
export function eventZodSchemas(): EventZodSchemas | undefined {
  return events;
}

/** The settings schemas, or undefined while src/config/schema.ts has not been loaded. */
export function configZodSchemas(): ConfigZodSchemas | undefined {
  return config;
}

/**
 * The event schemas for a synchronous stage. Missing only if a caller skipped loading them
 * on a lean path: a bug, reported as one rather than read as "valid".
 */
export function requireEventZodSchemas(): EventZodSchemas {
  if (!events) throw new Error('internal error: an event schema was needed before src/events/schemas.ts was loaded');
  return events;
}

/** The schema of one MCP server definition, for src/mcp/manager.ts, which checks definitions synchronously. */
export function requireMcpServerSchema(): McpServerSchema {
  if (!mcpServer) throw new Error('internal error: the MCP server schema was needed before src/mcp/config.ts was loaded');
  return mcpServer;
}
