/** The panel's HTML shell: one document for every page; /assets/app.js renders the page. */

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The token is given to the page's script (state-changing requests send it in the Authorization
 * header; the cookie alone is not enough). Only a request that already holds the token gets it.
 */
export function pageHtml(token: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="agent-hooks-token" content="${escapeAttr(token)}">
<title>agent-hooks · trust review</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/style.css">
</head>
<body>
<header class="top">
<h1>agent-hooks</h1>
<nav><a href="/">Workspaces</a><a href="/sessions">Sessions</a><a href="/audit">Audit log</a></nav>
<span class="spacer"></span>
<button type="button" id="refresh">Refresh</button>
</header>
<main id="main"><p class="empty">Loading…</p></main>
<script src="/assets/app.js"></script>
</body>
</html>
`;
}
