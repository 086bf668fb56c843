/**
 * `agent-hooks status | trust | revoke`: review and record hook trust for a workspace
 * (docs/security.md, "Hook trust"). The commands are defined here; what they do is in
 * ./trust-actions.ts, loaded when one runs.
 *
 * Exit codes: 0 done; 1 refused (digest changed since shown), trust store problem, unreadable
 * script, or usage error. `status` exits 0 whatever the state, except 1 for state `error`.
 */
import type { Command } from 'commander';
import type { TrustFlags } from './trust-actions.js';

/** The options all three commands share; `discover` for the two that compute a digest. */
function workspaceCommand(program: Command, name: string, description: string, discover: boolean): Command {
  const cmd = program.command(name).description(description).option('--cwd <dir>', 'project directory (default: current directory)');
  if (discover)
    cmd.option('--discover-dialects <list>', "also discover these agents' hook files, as given to `run` (comma-separated, or all)");
  return cmd.option('--json', 'print as JSON');
}

export function registerTrustCommand(program: Command): void {
  workspaceCommand(program, 'status', "show the trust state of a workspace's hooks: per hook state, source and what changed", true).action(
    async (flags: TrustFlags) => {
      process.exitCode = await (await import('./trust-actions.js')).statusCommand(flags);
    },
  );
  workspaceCommand(program, 'trust', 'trust a workspace and its current hooks (the digest shown by `status`)', true)
    .option('--digest <digest>', 'trust only if the hooks still have this digest (as shown by `status`)')
    .option('--workspace-only', 'trust the workspace but not (yet) its hooks')
    .option('--allow-unpinned', 'also trust hooks whose executed files cannot be determined (status lists them as UNPINNED)')
    .action(async (flags: TrustFlags) => {
      process.exitCode = await (await import('./trust-actions.js')).trustCommand(flags);
    });
  workspaceCommand(program, 'revoke', 'revoke trust for a workspace (workspace and hooks)', false)
    .option('--digest <digest>', 'revoke only if this is the digest currently trusted')
    .action(async (flags: TrustFlags) => {
      process.exitCode = await (await import('./trust-actions.js')).revokeCommand(flags);
    });
}
