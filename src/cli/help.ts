/**
 * Examples and exit codes shown after each command's --help (docs/cli.md has the same codes).
 * Plain data, so `--help` loads nothing else.
 */
export const COMMAND_HELP: Record<string, { examples: string[]; exit: string[] }> = {
  run: {
    examples: [
      'agent-hooks run PreToolUse --tool Bash --input \'{"command":"rm -rf build"}\'',
      'agent-hooks run Stop --stop-active --verbose',
      "agent-hooks run UserPromptSubmit --prompt 'fix the tests' --json",
      'agent-hooks run PostToolUse --tool Write --response \'{"success":true}\'',
      'agent-hooks run --example SessionStart --source resume   # the payload, nothing runs',
    ],
    exit: [
      '0  the action proceeds',
      '2  blocked, or a hook stopped the agent (continue: false)',
      '3  a hook asked (decision "ask": the agent would prompt the user)',
      '1  usage or config error',
    ],
  },
  check: {
    examples: ['agent-hooks check', 'agent-hooks check .claude/settings.json plugins/'],
    exit: ['0  no errors (warnings are printed)', '1  any error'],
  },
  doctor: {
    examples: ['agent-hooks doctor', 'agent-hooks doctor --settings hooks.json --json', 'agent-hooks doctor --discover-dialects all'],
    exit: [
      '0  no errors (warnings are printed)',
      '1  a hook cannot run as configured (missing script, not executable, interpreter or tool not on PATH, syntax sh rejects), or a config error',
    ],
  },
  list: {
    examples: ['agent-hooks list', 'agent-hooks list --event PreToolUse --json'],
    exit: ['0  listed', '1  config errors'],
  },
  test: {
    examples: ['agent-hooks test', 'agent-hooks test tests/ --filter deny', 'agent-hooks test --watch'],
    exit: ['0  every case passed', '1  a failure, an invalid fixture file, or nothing to run'],
  },
  completion: {
    examples: [
      'source <(agent-hooks completion bash)',
      'agent-hooks completion zsh > "${fpath[1]}/_agent-hooks"',
      'agent-hooks completion fish > ~/.config/fish/completions/agent-hooks.fish',
    ],
    exit: ['0  printed', '1  unknown shell'],
  },
  status: { examples: ['agent-hooks status', 'agent-hooks status --json'], exit: ['0  shown (any state)', '1  state error'] },
  trust: {
    examples: ['agent-hooks trust --digest sha256:…   # the digest `status` showed'],
    exit: ['0  trusted', '1  refused (the hooks changed since shown) or trust store problem'],
  },
  revoke: { examples: ['agent-hooks revoke'], exit: ['0  revoked', '1  refused or trust store problem'] },
  init: {
    examples: [
      'agent-hooks init guard-rm                    # bash (else python): the first language this machine runs',
      'agent-hooks init --lang python --event Stop check-work',
      'agent-hooks init --preset block-destructive  # a ready-made hook (docs/presets.md)',
    ],
    exit: ['0  created, updated or already there', '1  usage error, a refused language, event or preset, or the files exist'],
  },
  convert: {
    examples: ['agent-hooks convert --to gemini .claude/settings.json'],
    exit: ['0  converted', '3  something could not be expressed (reported)', '1  usage or config error'],
  },
  schema: { examples: ['agent-hooks schema > settings.schema.json'], exit: ['0  printed'] },
};

export function helpText(name: string): string | undefined {
  const h = COMMAND_HELP[name];
  if (!h) return undefined;
  return `\nExamples:\n${h.examples.map((e) => `  $ ${e}`).join('\n')}\n\nExit codes:\n${h.exit.map((e) => `  ${e}`).join('\n')}\n`;
}
