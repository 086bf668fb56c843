/** A Diagnostic as one line of text, in its own module so command definitions can use it without loading config. */
import { oneLine } from './terminal-text.js';

export function formatDiagnostic(d: { level: string; file?: string; path: string; message: string }): string {
  const where = [d.file, d.path].filter(Boolean).join(': ');
  // Paths, values and messages quote config text: shown escaped, on one line (terminal-text.ts).
  return oneLine(`${d.level === 'warning' ? 'warning: ' : ''}${where ? `${where}: ` : ''}${d.message}`);
}
