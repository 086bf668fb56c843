/** What the plugins share to apply an answer to the agent's own objects. */

/**
 * Makes `target` equal to `input`, keeping the object: OpenCode and Pi run the tool with the
 * very object they handed the hook (`output.args`, `event.input`), so a new object would be ignored.
 */
export function replaceInPlace(target: Record<string, unknown>, input: Record<string, unknown>): void {
  for (const k of Object.keys(target)) if (!Object.hasOwn(input, k)) delete target[k];
  Object.assign(target, input);
}

/** Content blocks with text blocks appended. */
export function appendText<T extends { type: string }>(
  content: readonly T[],
  texts: readonly string[],
): Array<T | { type: 'text'; text: string }> {
  return [...content, ...texts.map((text) => ({ type: 'text' as const, text }))];
}

/** The reason given when no hook could judge a call, so it does not proceed. */
export function notJudged(error: string, what: string): string {
  return `${error}; the hooks could not judge it, so ${what} (agent-hooks fails closed)`;
}
