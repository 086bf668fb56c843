/**
 * `agent-hooks completion bash|zsh|fish`: a completion script for commands, their flags and
 * event names, generated from the program's own definitions (so it never lags behind them).
 * zsh loads the bash function through bashcompinit, which zsh ships for this purpose.
 */
import type { Command } from 'commander';
import { EVENT_NAMES } from '../events/catalog.js';
import { DIALECT_NAMES } from '../agents/types.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

interface Spec {
  name: string;
  description: string;
  flags: { long: string; description: string; takesValue: boolean }[];
  /** Positional arguments complete to event names (run). */
  events: boolean;
}

/** Flags whose value is a file or directory. */
const PATH_FLAGS = ['--settings', '--plugin', '--cwd', '--payload', '--audit', '--managed-settings', '--mcp-config', '--output'];

function specs(program: Command): Spec[] {
  return program.commands.map((c) => ({
    name: c.name(),
    description: c.description(),
    flags: [
      ...c.options
        .map((o) => ({ long: o.long ?? '', description: o.description, takesValue: o.required || o.optional }))
        .filter((f) => f.long),
      { long: '--help', description: 'show help', takesValue: false },
    ],
    events: c.name() === 'run',
  }));
}

const q = (s: string) => s.replace(/'/g, "'\\''");

export function bashScript(program: Command): string {
  const all = specs(program);
  const cases = all
    .map((s) => `    ${s.name}) flags='${s.flags.map((f) => f.long).join(' ')}'${s.events ? '; words="$events"' : ''} ;;`)
    .join('\n');
  return `# agent-hooks completion for bash: source <(agent-hooks completion bash)
_agent_hooks() {
  local cur prev cmd flags words i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local commands='${all.map((s) => s.name).join(' ')} help'
  local events='${EVENT_NAMES.join(' ')}'
  cmd=''
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) cmd="\${COMP_WORDS[i]}"; break ;; esac
  done
  if [ -z "$cmd" ]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return 0
  fi
  case "$prev" in
    --event) COMPREPLY=($(compgen -W "$events" -- "$cur")); return 0 ;;
    --dialect|--from|--to|--agent) COMPREPLY=($(compgen -W '${DIALECT_NAMES.join(' ')}' -- "$cur")); return 0 ;;
    --discover-dialects) COMPREPLY=($(compgen -W 'all ${DIALECT_NAMES.join(' ')}' -- "$cur")); return 0 ;;
    --failure-behavior|--timeout-behavior) COMPREPLY=($(compgen -W 'ignore ask deny' -- "$cur")); return 0 ;;
    ${PATH_FLAGS.join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
  esac
  flags=''
  words=''
  case "$cmd" in
${cases}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [ -n "$words" ]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
  return 0
}
complete -o default -F _agent_hooks agent-hooks
`;
}

export function zshScript(program: Command): string {
  return `#compdef agent-hooks
# agent-hooks completion for zsh: the bash completion, loaded through zsh's bashcompinit.
autoload -U +X bashcompinit && bashcompinit
${bashScript(program)}`;
}

export function fishScript(program: Command): string {
  const lines = [
    '# agent-hooks completion for fish: agent-hooks completion fish > ~/.config/fish/completions/agent-hooks.fish',
    'complete -c agent-hooks -f',
  ];
  const all = specs(program);
  for (const s of all)
    lines.push(`complete -c agent-hooks -n '__fish_use_subcommand' -a '${s.name}' -d '${q(s.description.slice(0, 80))}'`);
  for (const s of all) {
    for (const f of s.flags) {
      const r = f.takesValue ? (PATH_FLAGS.includes(f.long) ? ' -r -F' : ' -r') : '';
      const values = f.long === '--event' ? ` -a '${EVENT_NAMES.join(' ')}'` : '';
      lines.push(
        `complete -c agent-hooks -n '__fish_seen_subcommand_from ${s.name}' -l ${f.long.slice(2)}${r}${values} -d '${q(f.description.slice(0, 80))}'`,
      );
    }
    if (s.events) lines.push(`complete -c agent-hooks -n '__fish_seen_subcommand_from ${s.name}' -a '${EVENT_NAMES.join(' ')}'`);
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: string, program: Command): string | undefined {
  if (shell === 'bash') return bashScript(program);
  if (shell === 'zsh') return zshScript(program);
  if (shell === 'fish') return fishScript(program);
  return undefined;
}
