/** The key lists of src/config/keys.ts (read without zod) equal the zod schemas' shapes, in order. */
import { expect, test } from 'vitest';
import {
  AGENT_HOOKS_OPTION_KEYS,
  BUILTIN_HOOKS_KEYS,
  GROUP_KEYS,
  HANDLER_KEYS,
  PLUGIN_HOOKS_KEYS,
  SETTINGS_KEYS,
} from '../../src/config/keys.js';
import {
  agentHandlerSchema,
  agentHooksOptionsSchema,
  commandHandlerSchema,
  httpHandlerSchema,
  matcherGroupSchema,
  mcpToolHandlerSchema,
  pluginHooksFileSchema,
  promptHandlerSchema,
  settingsFileSchema,
} from '../../src/config/schema.js';
import { BUILTIN_HOOK_KEYS } from '../../src/engine/option-keys.js';

test('each key list is its schema shape’s keys, in the schema’s order', () => {
  expect(SETTINGS_KEYS).toEqual(Object.keys(settingsFileSchema().shape));
  expect(PLUGIN_HOOKS_KEYS).toEqual(Object.keys(pluginHooksFileSchema().shape));
  expect(GROUP_KEYS).toEqual(Object.keys(matcherGroupSchema.shape));
  expect(AGENT_HOOKS_OPTION_KEYS).toEqual(Object.keys(agentHooksOptionsSchema.shape));
  // The settings' builtinHooks are the engine option's (src/engine/option-keys.ts).
  expect(BUILTIN_HOOKS_KEYS).toEqual(Object.keys(agentHooksOptionsSchema.shape.builtinHooks.unwrap().shape));
  expect(BUILTIN_HOOKS_KEYS).toEqual(Object.keys(BUILTIN_HOOK_KEYS));
  expect(HANDLER_KEYS).toEqual({
    command: Object.keys(commandHandlerSchema.shape),
    http: Object.keys(httpHandlerSchema.shape),
    mcp_tool: Object.keys(mcpToolHandlerSchema.shape),
    prompt: Object.keys(promptHandlerSchema.shape),
    agent: Object.keys(agentHandlerSchema.shape),
  });
});
