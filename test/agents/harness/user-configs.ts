/**
 * A workspace config each agent's user could already have when they run `agent-hooks install`:
 * their own hook (a no-op `: mine`) and settings, in the agent's own format and in formatting a
 * JSON writer would not reproduce (indentation, CRLF, no final newline, one line). Paths are
 * relative to the workspace. Where install writes its own file beside the user's (Copilot's
 * hooks folder, Cline's hook files, the plugin agents' plugin folders), the user's file is a
 * sibling that install must leave alone.
 */
import type { AgentName } from './cache.js';

/** A Claude-shaped settings text: `hooks[event]` holds the user's hook, `extra` the other settings. */
function claudeShaped(event: string, matcher: string, indent: string, eol: string, extra = '', final = eol): string {
  const i = (n: number) => indent.repeat(n);
  return [
    '{',
    ...(extra ? [`${i(1)}${extra},`] : []),
    `${i(1)}"hooks": {`,
    `${i(2)}"${event}": [ { "matcher": "${matcher}", "hooks": [ { "type": "command", "command": ": mine" } ] } ]`,
    `${i(1)}}`,
    '}',
  ]
    .join(eol)
    .concat(final);
}

const OPENCODE_PLUGIN = `// my plugin\nexport const Mine = async () => ({\n  'tool.execute.after': async () => {},\n});\n`;

export const USER_CONFIGS: Record<AgentName, Record<string, string>> = {
  claude: { '.claude/settings.json': claudeShaped('PostToolUse', 'Write', '    ', '\n', '"includeCoAuthoredBy": false', '') },
  codex: {
    '.codex/hooks.json': '{"hooks":{"PostToolUse":[{"matcher":"apply_patch","hooks":[{"type":"command","command":": mine"}]}]}}',
  },
  gemini: { '.gemini/settings.json': claudeShaped('AfterTool', 'write_file', '\t', '\n', '"general": { "vimMode": false }') },
  // "$version" as Qwen Code itself writes it on its first run (without it, Qwen adds it: the file is then Qwen's change).
  qwen: { '.qwen/settings.json': claudeShaped('PostToolUse', 'write_file', '  ', '\n', '"$version": 4') },
  copilot: {
    '.github/hooks/mine.json': '{\r\n  "version": 1,\r\n  "hooks": { "postToolUse": [ { "type": "command", "bash": ": mine" } ] }\r\n}\r\n',
  },
  droid: { '.factory/settings.json': claudeShaped('PostToolUse', 'Create', '    ', '\r\n') },
  letta: { '.letta/settings.json': claudeShaped('PostToolUse', 'Write', '\t', '\r\n', '', '') },
  auggie: { '.augment/settings.json': claudeShaped('PostToolUse', 'save-file', '   ', '\n') },
  cline: {
    '.clinerules/hooks/PostToolUse.sh': '#!/bin/sh\n: mine\n',
    '.clinerules/style.md': '# My rules\n\nKeep answers short.\n',
  },
  opencode: { '.opencode/plugin/mine.js': OPENCODE_PLUGIN },
  kilo: { '.kilo/plugins/mine.js': OPENCODE_PLUGIN },
  pi: { '.pi/extensions/mine.ts': `// my extension\nexport default function (pi: any) {\n  pi.on('agent_end', async () => {});\n}\n` },
};
