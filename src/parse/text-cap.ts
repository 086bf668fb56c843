import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';

/** Claude's cap on hook output strings (additionalContext, systemMessage, plain stdout). */
export const OUTPUT_STRING_CAP = 10_000;
const PREVIEW_CHARS = 2_000;

/**
 * Cap a hook output string. Nothing is lost: the full text is written to a file in
 * `spillDir` and the returned string is a preview plus that file's path.
 */
export function capOutputString(text: string, spillDir?: string): { text: string; spilledTo?: string } {
  if (text.length <= OUTPUT_STRING_CAP) return { text };
  const dir = spillDir ?? join(tmpdir(), 'agent-hooks', 'output');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${randomUUID()}.txt`);
    writeFileSync(file, text, { mode: 0o600 });
    const preview = text.slice(0, PREVIEW_CHARS);
    return {
      text: `${preview}\n…[output of ${text.length} characters exceeds ${OUTPUT_STRING_CAP}; full text saved to ${file}]`,
      spilledTo: file,
    };
  } catch {
    // Spilling failed (read-only tmp): keep the cap, say what was dropped.
    return {
      text: `${text.slice(0, OUTPUT_STRING_CAP)}\n…[${text.length - OUTPUT_STRING_CAP} characters dropped; could not save the full text]`,
    };
  }
}
