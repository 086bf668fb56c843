/**
 * Loading config through the trust gate. Kept out of gate.ts, which config/load.ts loads for its
 * default gate, so that trust and config never import each other in a circle.
 */
import path from 'node:path';
import { loadConfig, type LoadConfigOptions, type LoadedConfig } from '../config/load.js';
import { assessTrust, verifiedHooks } from './assess.js';
import { trustGate } from './gate.js';
import type { TrustOptions, TrustReport } from './types.js';
import type { NormalizedHook } from '../types.js';
import { checkKnownKeys, type KnownKeys } from '../util/option-keys.js';

/** The keys of TrustOptions; any other is refused (src/util/option-keys.ts). */
export const TRUST_OPTION_KEYS = {
  workspaceDir: true,
  storePath: true,
  workspaceTrusted: true,
  needsTrust: true,
  homeDir: true,
  command: true,
  hashCache: true,
  events: true,
} as const satisfies KnownKeys<TrustOptions>;
import { withTrustVerdict } from './verify.js';

/**
 * loadConfig with the trust gate. Skip warnings are dropped when policy removes non-managed
 * hooks anyway (managed disableAllHooks / allowManagedHooksOnly). Reviewed hooks are verified at
 * each execution, and those of a reviewed workspace that changed fail closed (verify.ts).
 * `frontmatter`: the project's skill and subagent frontmatter hooks the assessment reviewed, not
 * in the config (they run when invoked: `frontmatterVerdict`).
 */
export async function loadTrustedConfig(
  loadOptions: Omit<LoadConfigOptions, 'gate'>,
  trustOptions: Partial<TrustOptions> = {},
): Promise<{ config: LoadedConfig; trust: TrustReport; frontmatter: NormalizedHook[] }> {
  checkKnownKeys('loadTrustedConfig', trustOptions, TRUST_OPTION_KEYS, 'trustOptions.');
  const cwd = path.resolve(loadOptions.cwd);
  const workspaceDir = trustOptions.workspaceDir ?? path.resolve(cwd, loadOptions.projectDir ?? '.');
  const homeDir = trustOptions.homeDir ?? loadOptions.homeDir;
  const { gate, report } = trustGate({ ...trustOptions, workspaceDir, ...(homeDir !== undefined ? { homeDir } : {}) });
  let frontmatter: NormalizedHook[] = [];
  const config = await loadConfig({
    ...loadOptions,
    gate: (input) => {
      frontmatter = input.hooks.filter((h) => h.source.frontmatter !== undefined);
      return gate(input);
    },
  });
  let trust = report();
  if (!trust) {
    // loadConfig failed before the gate ran; assess what we have so callers always get a report.
    trust = await assessTrust({ hooks: [] }, { ...trustOptions, workspaceDir });
  }
  const nonManagedOff = config.disabled.nonManaged || config.managedOnly;
  if (nonManagedOff) trust = { ...trust, skipped: [], warnings: [] };
  if (trust.events) config.hooks = verifiedHooks(config.hooks, trust);
  config.hooks = withTrustVerdict(config.hooks, trust, {
    ...(homeDir !== undefined ? { homeDir } : {}),
    ...(trustOptions.command !== undefined ? { command: trustOptions.command } : {}),
    nonManagedOff,
  });
  return { config, trust, frontmatter };
}
