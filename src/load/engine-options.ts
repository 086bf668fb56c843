/**
 * The one mapping from loaded settings to engine options: the `agentHooks` options and the
 * managed HTTP allowlists. Every caller that builds an engine from a config (the CLI's `run` and
 * `mcp-proxy`, dispatch, the policy server, the host's sessions) layers it the same way:
 * its own defaults, then this, then what its caller named explicitly (a CLI flag).
 */
import type { LoadedConfig } from '../config/index.js';
import { agentDefaultSandbox } from '../config/confinement.js';
import type { HookEngineOptions } from '../engine/engine.js';

export type ConfigEngineOptions = Pick<
  HookEngineOptions,
  | 'failureBehavior'
  | 'timeoutBehavior'
  | 'maxConcurrentHooks'
  | 'stopHookMaxConsecutiveBlocks'
  | 'stdinLimitBytes'
  | 'outputLimitBytes'
  | 'passEnv'
  | 'sandbox'
  | 'builtinHooks'
  | 'http'
>;

/** The engine options a config sets; keys it leaves unset are absent, so a spread never erases a default. */
export function engineOptionsFromConfig(
  config: Pick<LoadedConfig, 'options' | 'allowedHttpHookUrls' | 'httpHookAllowedEnvVars'>,
  /** The agent the run answers (dispatch's `--agent`): one that confines the model's commands turns the view on. */
  agent?: string,
): ConfigEngineOptions {
  const o = config.options;
  const out: ConfigEngineOptions = {};
  if (o.failureBehavior !== undefined) out.failureBehavior = o.failureBehavior;
  if (o.timeoutBehavior !== undefined) out.timeoutBehavior = o.timeoutBehavior;
  if (o.maxConcurrentHooks !== undefined) out.maxConcurrentHooks = o.maxConcurrentHooks;
  if (o.stopHookMaxConsecutiveBlocks !== undefined) out.stopHookMaxConsecutiveBlocks = o.stopHookMaxConsecutiveBlocks;
  if (o.stdinLimitBytes !== undefined) out.stdinLimitBytes = o.stdinLimitBytes;
  if (o.outputLimitBytes !== undefined) out.outputLimitBytes = o.outputLimitBytes;
  if (o.passEnv !== undefined) out.passEnv = o.passEnv;
  const sandbox = o.sandbox ?? agentDefaultSandbox(agent);
  if (sandbox !== undefined) out.sandbox = sandbox;
  if (o.builtinHooks !== undefined) out.builtinHooks = o.builtinHooks;
  if (config.allowedHttpHookUrls !== undefined || config.httpHookAllowedEnvVars !== undefined) {
    out.http = {
      ...(config.allowedHttpHookUrls !== undefined ? { allowedHttpHookUrls: config.allowedHttpHookUrls } : {}),
      ...(config.httpHookAllowedEnvVars !== undefined ? { httpHookAllowedEnvVars: config.httpHookAllowedEnvVars } : {}),
    };
  }
  return out;
}
