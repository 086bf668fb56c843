/** Diagnostic formatting for the CLI, in its own module so command definitions can use it without loading config. */
export function formatDiagnostic(d: { level: string; file?: string; path: string; message: string }): string {
  const where = [d.file, d.path].filter(Boolean).join(': ');
  return `${d.level === 'warning' ? 'warning: ' : ''}${where ? `${where}: ` : ''}${d.message}`;
}
