/**
 * Slash commands typed by the user: `/name args` expands from the workspace's
 * `.claude/commands/<name>.md` (`/a:b` → `commands/a/b.md`) or a skill's
 * `.claude/skills/<name>/SKILL.md`, before UserPromptExpansion and UserPromptSubmit.
 *
 * The body (frontmatter removed) gets `$ARGUMENTS` and `$1`…`$9` substituted; a body that
 * names no argument gets `ARGUMENTS: <args>` appended when args were given.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface SlashCommand {
  name: string;
  args: string;
  /** `project` (.claude/commands) or `skill` (.claude/skills). */
  source: 'project' | 'skill';
  file: string;
  /** The prompt the command expands into. */
  expanded: string;
}

const NAME = /^[A-Za-z0-9_-]+(?::[A-Za-z0-9_-]+)*$/;

function readIfFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function stripFrontmatter(text: string): string {
  const m = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(text);
  return (m ? text.slice(m[0].length) : text).trim();
}

function substitute(body: string, args: string): string {
  const positional = args.split(/\s+/).filter(Boolean);
  const named = /\$ARGUMENTS\b|\$[1-9]\b/.test(body);
  const out = body.replace(/\$ARGUMENTS\b/g, args).replace(/\$([1-9])\b/g, (_m, n: string) => positional[Number(n) - 1] ?? '');
  return !named && args ? `${out}\n\nARGUMENTS: ${args}` : out;
}

/** The command a prompt invokes, or undefined (not a slash command, or no such command: the prompt goes on as typed). */
export function resolveSlashCommand(workspace: string, prompt: string): SlashCommand | undefined {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  if (!m || !NAME.test(m[1]!)) return undefined;
  const name = m[1]!;
  const args = (m[2] ?? '').trim();
  const candidates: Array<[SlashCommand['source'], string]> = [
    ['project', `${path.join(workspace, '.claude', 'commands', ...name.split(':'))}.md`],
    ['skill', path.join(workspace, '.claude', 'skills', name, 'SKILL.md')],
  ];
  for (const [source, file] of candidates) {
    const text = readIfFile(file);
    if (text !== undefined) return { name, args, source, file, expanded: substitute(stripFrontmatter(text), args) };
  }
  return undefined;
}
