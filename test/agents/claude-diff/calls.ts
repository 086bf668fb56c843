/**
 * Model calls shared by the differential suite (cases.ts) and the permission-rule suite
 * (permissions.agents.test.ts), so that an `if` guard and a deny rule are tried on the same
 * spellings.
 */

/** Commands that run `rm` (or look as if they might) without a plain `rm …` subcommand. */
export const HIDDEN_RM_COMMANDS: readonly string[] = [
  'echo "$(rm -f nf1)"',
  'cat <<EOF\n$(rm -f nf2)\nEOF',
  "bash <<< 'rm -f nf3'",
  "echo 'rm -f nf4' | sh",
  "echo 'rm -f nf5' | bash -s",
  '# rm -f nf7\ntrue',
  "cat <<'EOF'\nrm -f nf8\nEOF",
  "cat <<'EOF' | sh\nrm -f nf9\nEOF",
  "x='rm -f nf10'; $x",
  '$(echo rm) -f nf11',
  'r\\m -f nf12',
  '"rm" -f nf13',
  "r''m -f nf14",
  'rm${IFS}-f${IFS}nf17',
  'time -p rm -f nf18',
  'xargs -I{} rm -f {} <<< nf19',
  'git rm --cached nf22 || true',
  'true && (rm -f nf23)',
  'echo x; rm -f nf24 # trailing comment',
  'command -v rm',
  'rm -f nf25 2>/dev/null',
  '>nf26 rm -f nf26',
];

/** URLs on, under, beside and merely mentioning example.com, for `WebFetch(domain:…)` rules. */
export const EXAMPLE_COM_URLS: readonly string[] = [
  'https://example.com/a',
  'https://EXAMPLE.com/b',
  'https://sub.example.com/c',
  'https://example.com.evil.test/d',
  'http://example.com:8080/e',
  'https://user@example.com/f',
  'https://evil.test/?u=https://example.com/g',
  'https://example.com./h',
  'https://xexample.com/i',
];
