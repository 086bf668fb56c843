/** The panel's stylesheet (served as /assets/style.css). Plain CSS, no framework. */
export const STYLE_CSS = `
:root {
  --fg: #1d232b; --muted: #5d6875; --line: #d9dee4; --bg: #f6f7f9; --card: #fff;
  --ok: #1a7f37; --ok-bg: #dafbe1; --warn: #9a6700; --warn-bg: #fff8c5;
  --mod: #bc4c00; --mod-bg: #fff1e5; --err: #cf222e; --err-bg: #ffebe9;
  --info-bg: #eef2f7; --accent: #0969da;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
header.top { display: flex; align-items: center; gap: 24px; padding: 10px 24px; background: #24292f; color: #fff; }
header.top h1 { font-size: 16px; margin: 0; font-weight: 600; }
header.top nav { display: flex; gap: 4px; }
header.top nav a { color: #d0d7de; text-decoration: none; padding: 5px 10px; border-radius: 6px; }
header.top nav a:hover { background: #32383f; color: #fff; }
header.top nav a.active { background: #fff; color: #24292f; font-weight: 600; }
header.top .spacer { flex: 1; }
header.top button { background: #32383f; color: #fff; border-color: #57606a; }
main { max-width: 1180px; margin: 0 auto; padding: 20px 24px 60px; }
h2 { font-size: 17px; margin: 0; word-break: break-all; }
h3 { font-size: 14px; margin: 18px 0 8px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.intro { color: var(--muted); margin: 0 0 16px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px; margin-bottom: 18px; }
.card-head { display: flex; align-items: flex-start; gap: 12px; flex-wrap: wrap; }
.card-head .grow { flex: 1; min-width: 260px; }
.meta { color: var(--muted); font-size: 12.5px; margin-top: 4px; word-break: break-all; }
.meta code, code { font-family: var(--mono); font-size: 12.5px; }
.reason { margin: 8px 0 0; }
.actions { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
button { font: inherit; padding: 5px 12px; border-radius: 6px; border: 1px solid var(--line); background: #f6f8fa; color: var(--fg); cursor: pointer; }
button:hover { background: #eef1f4; }
button:disabled { opacity: .55; cursor: default; }
button.primary { background: var(--ok); border-color: #116329; color: #fff; }
button.primary:hover { background: #116329; }
button.danger { color: var(--err); border-color: #f0b3b8; }
button.danger:hover { background: var(--err-bg); }
.badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; border: 1px solid transparent; white-space: nowrap; }
.badge.trusted, .badge.active, .badge.success { color: var(--ok); background: var(--ok-bg); border-color: #aceebb; }
.badge.untrusted, .badge.paused, .badge.warn { color: var(--warn); background: var(--warn-bg); border-color: #eed888; }
.badge.modified { color: var(--mod); background: var(--mod-bg); border-color: #ffc7a8; }
.badge.error, .badge.blocked { color: var(--err); background: var(--err-bg); border-color: #ffcecb; }
.badge.neutral, .badge.disabled { color: var(--muted); background: var(--info-bg); border-color: var(--line); }
.flash { margin-top: 10px; padding: 8px 12px; border-radius: 6px; }
.flash.bad { background: var(--err-bg); color: var(--err); }
.flash.good { background: var(--ok-bg); color: var(--ok); }
.problems { margin: 10px 0 0; padding: 8px 12px 8px 28px; background: var(--err-bg); border-radius: 6px; color: var(--err); }
.hook { border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; margin: 8px 0; }
.hook.changed { border-color: #ffc7a8; background: #fffaf5; }
.hook-head { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
.hook-head .event { font-weight: 600; }
.kv { display: inline-flex; gap: 4px; color: var(--muted); font-size: 12.5px; }
.kv b { color: var(--fg); font-weight: 500; font-family: var(--mono); }
pre { margin: 8px 0 0; padding: 8px 10px; background: #f6f8fa; border: 1px solid #eaeef2; border-radius: 6px; font: 12.5px/1.5 var(--mono); white-space: pre-wrap; word-break: break-all; }
pre.run { background: #0d1117; color: #e6edf3; border-color: #0d1117; }
.source { color: var(--muted); font-size: 12.5px; margin-top: 6px; word-break: break-all; }
.unchanged { color: var(--muted); font-size: 12.5px; margin-top: 4px; font-style: italic; }
.details { margin-top: 6px; display: flex; gap: 6px 14px; flex-wrap: wrap; }
ul.changes { margin: 8px 0 0; padding-left: 20px; color: var(--mod); }
.diff { margin-top: 8px; border: 1px solid var(--line); border-radius: 6px; overflow: hidden; font: 12.5px/1.5 var(--mono); }
.diff .title { padding: 4px 10px; background: var(--info-bg); color: var(--muted); font-family: inherit; border-bottom: 1px solid var(--line); word-break: break-all; }
.diff .hunk { padding: 2px 10px; background: #ddf4ff; color: #0550ae; }
.diff .line { padding: 0 10px; white-space: pre-wrap; word-break: break-all; }
.diff .line.add { background: #e6ffec; }
.diff .line.del { background: #ffebe9; }
.diff .note { padding: 6px 10px; color: var(--muted); }
.diff .w-add { background: #abf2bc; border-radius: 2px; }
.diff .w-del { background: #ffc0c0; border-radius: 2px; text-decoration: line-through; text-decoration-color: rgba(0,0,0,.35); }
details { margin-top: 10px; }
details summary { cursor: pointer; color: var(--accent); }
table { width: 100%; border-collapse: collapse; background: var(--card); }
td { overflow-wrap: break-word; }
td.reason { overflow-wrap: anywhere; min-width: 160px; }
td.mono.hook-cell { word-break: normal; }
.card.table { overflow-x: auto; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; color: var(--muted); font-weight: 600; text-transform: uppercase; letter-spacing: .03em; background: #fafbfc; }
td.nowrap { white-space: nowrap; word-break: normal; }
td.mono, td code { font-family: var(--mono); font-size: 12.5px; word-break: break-all; }
tr.blocked td { background: #fff5f5; }
td.mono.nowrap { word-break: normal; }
.filters { display: flex; gap: 10px; align-items: end; flex-wrap: wrap; margin-bottom: 14px; }
.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 3px; }
select, input[type=text], input[type=number] { font: inherit; padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; background: #fff; min-width: 140px; }
.timeline-event { margin-bottom: 16px; }
.timeline-event h4 { margin: 0 0 6px; font-size: 14px; }
.firing { padding: 8px 0; border-top: 1px solid #eef1f4; }
.firing-head { font-size: 12.5px; color: var(--muted); margin-bottom: 4px; display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
.firing-head b { color: var(--fg); }
.bar-row { display: grid; grid-template-columns: minmax(200px, 36%) 1fr 70px; gap: 10px; align-items: center; margin: 2px 0; }
.bar-row .what { font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-family: var(--mono); }
.bar-row .ms { font-size: 12px; text-align: right; color: var(--muted); font-variant-numeric: tabular-nums; }
.track { position: relative; height: 14px; background: #f0f3f6; border-radius: 3px; }
.bar { position: absolute; top: 0; bottom: 0; border-radius: 3px; background: #54aeff; min-width: 2px; }
.bar.blocked { background: var(--err); }
.bar.error, .bar.timeout, .bar.non_blocking_error { background: #d4a72c; }
.empty { color: var(--muted); padding: 14px 0; }
.muted { color: var(--muted); }
.confirm { margin-top: 10px; padding: 10px 12px; border: 1px solid var(--warn); border-radius: 6px; background: var(--warn-bg); }
.confirm ul { margin: 6px 0 8px; padding-left: 20px; font-family: var(--mono); font-size: 12.5px; word-break: break-all; }
.paging { display: flex; gap: 10px; align-items: center; margin: 0 0 12px; color: var(--muted); }
/* Narrow screens: the header wraps instead of clipping its tabs. */
header.top { flex-wrap: wrap; row-gap: 6px; }
header.top nav { flex-wrap: wrap; }
@media (max-width: 640px) {
  header.top { padding: 8px 12px; gap: 10px; }
  header.top .spacer { display: none; }
  main { padding: 14px 10px 40px; }
  .bar-row { grid-template-columns: minmax(120px, 40%) 1fr 56px; }
}
/* Dark mode follows the system setting. */
@media (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3; --muted: #9da7b3; --line: #30363d; --bg: #0d1117; --card: #161b22;
    --ok: #3fb950; --ok-bg: #12261e; --warn: #d29922; --warn-bg: #2b2111;
    --mod: #f0883e; --mod-bg: #2d1b0e; --err: #f85149; --err-bg: #2d1214;
    --info-bg: #1c2330; --accent: #58a6ff;
    color-scheme: dark;
  }
  button { background: #21262d; color: var(--fg); border-color: var(--line); }
  button:hover { background: #30363d; }
  pre { background: #0d1117; border-color: var(--line); }
  th { background: #1c2128; }
  select, input[type=text], input[type=number] { background: #0d1117; color: var(--fg); }
  .hook.changed { background: #1f1710; border-color: #5a3a1e; }
  .diff .line.add { background: #12261e; }
  .diff .line.del { background: #2d1214; }
  .diff .w-add { background: #1f6f3a; }
  .diff .w-del { background: #8e2a2f; }
  .diff .hunk { background: #121d2f; color: #79c0ff; }
  tr.blocked td { background: #2d1214; }
  .track { background: #21262d; }
  .firing { border-top-color: var(--line); }
}
`;
