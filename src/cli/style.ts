/**
 * Colour and styling of CLI output. On only for a terminal, and by the usual conventions:
 * NO_COLOR (non-empty) turns it off, FORCE_COLOR turns it on (FORCE_COLOR=0 or false: off),
 * TERM=dumb turns it off. Pipes and files get plain text, so scripts and tests read the same
 * words either way. picocolors does the escape sequences.
 */
import pc from 'picocolors';

export function colourEnabled(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

export type Styles = ReturnType<typeof pc.createColors>;

let out: Styles | undefined;
let err: Styles | undefined;

/** Styles for stdout. */
export function styles(): Styles {
  out ??= pc.createColors(colourEnabled(process.stdout));
  return out;
}

/** Styles for stderr (its own TTY check: `run 2>log` keeps colour on stdout). */
export function errStyles(): Styles {
  err ??= pc.createColors(colourEnabled(process.stderr));
  return err;
}

/** Colour of a verdict: deny/block red, ask yellow, allow green, the rest plain. */
export function verdictStyle(s: Styles, verdict: string | undefined): (text: string) => string {
  if (verdict === 'deny' || verdict === 'block') return s.red;
  if (verdict === 'ask') return s.yellow;
  if (verdict === 'allow') return s.green;
  return (t) => t;
}

/** Colour of a hook outcome. */
export function outcomeStyle(s: Styles, outcome: string): (text: string) => string {
  if (outcome === 'success') return s.green;
  if (outcome === 'blocking') return s.red;
  if (outcome === 'skipped' || outcome.startsWith('async')) return s.dim;
  return s.yellow;
}

/** Visible width of text that may hold escape sequences (for aligned columns). */
export function visibleWidth(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the ANSI colour sequences being stripped
  return text.replace(/\x1b\[[0-9;]*m/g, '').length;
}

/**
 * Rows as aligned columns: every column but the last padded to its widest cell, capped at
 * `maxWidth` (a longer cell is cut with …, so one long matcher does not push the rest away).
 */
export function table(rows: string[][], maxWidth = 40): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, Math.min(visibleWidth(cell), maxWidth));
    });
  return rows.map((row) =>
    row
      .map((cell, i) => {
        if (i === row.length - 1) return cell;
        const w = visibleWidth(cell);
        const fitted = w > maxWidth ? `${cell.slice(0, maxWidth - 1)}…` : cell;
        return fitted + ' '.repeat(Math.max(0, widths[i]! - Math.min(w, maxWidth)));
      })
      .join('  ')
      .trimEnd(),
  );
}
