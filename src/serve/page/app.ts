/**
 * The panel's script (served as /assets/app.js). Plain browser JavaScript, no framework and no
 * build step. Every value from the server is put into the page with textContent or attributes,
 * never as HTML: hook commands come from repositories nobody has reviewed yet.
 *
 * Kept free of backticks and dollar-brace sequences so it can live in this String.raw template
 * (a test compiles it).
 */
export const APP_JS = String.raw`
(function () {
  'use strict';
  var meta = document.querySelector('meta[name="agent-hooks-token"]');
  var TOKEN = meta ? meta.getAttribute('content') : '';
  var main = document.getElementById('main');
  var flashes = {};

  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === undefined || v === null || v === false) return;
        if (k === 'class') node.className = v;
        else if (k === 'text') node.textContent = String(v);
        else if (k === 'onclick') node.addEventListener('click', v);
        else if (k === 'onchange') node.addEventListener('change', v);
        else if (k === 'style') Object.keys(v).forEach(function (p) { node.style[p] = v[p]; });
        else node.setAttribute(k, v === true ? '' : String(v));
      });
    }
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }
  function append(node, child) {
    if (child === undefined || child === null || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }

  async function api(path, body) {
    var opts = { credentials: 'same-origin', headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      opts.method = 'POST';
      opts.headers['Content-Type'] = 'application/json';
      opts.headers.Authorization = 'Bearer ' + TOKEN;
      opts.body = JSON.stringify(body);
    }
    var res = await fetch(path, opts);
    var data;
    try { data = await res.json(); } catch (e) { data = { error: 'HTTP ' + res.status }; }
    if (!res.ok) {
      var err = new Error(data.error || ('HTTP ' + res.status));
      err.status = res.status;
      err.data = data;
      throw err;
    }
    return data;
  }

  function badge(state, label) { return el('span', { class: 'badge ' + state, 'data-badge': state, text: label || state }); }
  function short(d) { return d && d.indexOf('sha256:') === 0 ? d.slice(0, 19) + '…' : String(d); }
  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function when(ts) {
    var d = new Date(ts);
    if (isNaN(d)) return String(ts);
    return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + ' ' + pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds());
  }
  function hookLabel(type, source) { return type + ' · ' + String(source.path).replace(/^hooks\./, ''); }
  function kv(k, v) { return el('span', { class: 'kv' }, k, el('b', { text: v })); }
  function fmt(v) { return typeof v === 'string' ? v : JSON.stringify(v); }

  function diffView(d, title, note) {
    var box = el('div', { class: 'diff' }, el('div', { class: 'title', text: title }));
    if (note) box.appendChild(el('div', { class: 'note', text: note }));
    if (d) {
      d.hunks.forEach(function (h) {
        box.appendChild(el('div', { class: 'hunk', text: h.header }));
        h.lines.forEach(function (l, i) {
          var mark = l.charAt(0);
          var c = mark === '+' ? 'line add' : mark === '-' ? 'line del' : 'line';
          var segs = h.words && h.words[i];
          // Word-level: the changed words of a paired line are highlighted, the rest stays plain.
          if (segs) box.appendChild(el('div', { class: c }, mark, segs.map(function (sg) { return sg.changed ? el('span', { class: mark === '+' ? 'w-add' : 'w-del', text: sg.text }) : sg.text; })));
          else box.appendChild(el('div', { class: c, text: l }));
        });
      });
      if (d.hunks.length === 0) box.appendChild(el('div', { class: 'note', text: 'no differences' }));
    }
    return box;
  }

  function runText(r) {
    return r.text + (r.args ? ' ' + JSON.stringify(r.args) : '');
  }

  function sourceText(s) {
    return [s.kind, s.pluginName && ('plugin ' + s.pluginName), s.skillName && ('skill ' + s.skillName), s.file, '› ' + s.path]
      .filter(Boolean).join('  ') + (s.managed ? '  (managed)' : '');
  }

  function hookView(h) {
    var changed = h.changes.length > 0;
    var node = el('div', { class: 'hook' + (changed ? ' changed' : ''), 'data-hook-id': h.id, 'data-state': h.state },
      el('div', { class: 'hook-head' },
        badge(h.state),
        h.needsTrust ? null : badge('neutral', 'needs no trust'),
        h.enabled === false ? badge('disabled', 'disabled') : null,
        el('span', { class: 'event', text: h.event }),
        kv('matcher', h.matcher === undefined ? '*' : h.matcher),
        kv('type', h.type),
        h.run.shell ? kv('shell', h.run.shell) : null),
      el('pre', { class: 'run', 'data-kind': h.run.kind, title: h.run.kind, text: runText(h.run) }),
      el('div', { class: 'source', text: 'from ' + sourceText(h.source) }));
    var keys = Object.keys(h.details);
    if (keys.length) node.appendChild(el('div', { class: 'details' }, keys.map(function (k) { return kv(k, fmt(h.details[k])); })));
    if (changed) node.appendChild(el('ul', { class: 'changes' }, h.changes.map(function (c) { return el('li', { text: c.description }); })));
    else if (h.needsTrust && h.state === 'modified') node.appendChild(el('div', { class: 'unchanged', text: 'unchanged — held back with the rest of the workspace until it is trusted again' }));
    if (h.diff) node.appendChild(diffView(h.diff, 'hook config: trusted → now'));
    if (h.errors.length) node.appendChild(el('ul', { class: 'problems' }, h.errors.map(function (e) { return el('li', { text: e }); })));
    if (h.unpinned && h.unpinned.length) node.appendChild(el('ul', { class: 'problems unpinned' }, h.unpinned.map(function (e) { return el('li', { text: 'UNPINNED: ' + e }); })));
    return node;
  }

  function scriptView(s) {
    var head = el('div', { class: 'hook-head' },
      s.changed ? badge('modified', s.trusted === undefined ? 'new' : 'changed') : badge('trusted', 'unchanged'),
      el('code', { text: s.path }),
      kv('now', short(s.current)),
      s.trusted !== undefined ? kv('trusted', short(s.trusted)) : null);
    var node = el('div', { class: 'hook script', 'data-script': s.path }, head);
    if (s.diff || s.note) node.appendChild(diffView(s.diff, s.path + ': trusted → now', s.note));
    return node;
  }

  function workspaceCard(w) {
    var gated = w.hooks.filter(function (h) { return h.needsTrust; }).length;
    var flash = flashes[w.dir];
    var actions = el('div', { class: 'actions' });
    if (w.digest && w.state !== 'trusted' && w.state !== 'error') {
      // Two steps: the first shows what will run; only the second trusts (that digest only).
      // Unpinned hooks can change what they run without changing the digest: trusting them is an explicit choice.
      var unpinned = (w.unpinned || []).length;
      actions.appendChild(el('button', { class: 'primary trust', 'data-digest': w.digest, title: 'review, then trust exactly ' + w.digest,
        text: 'Trust these hooks…', onclick: function (ev) {
          ev.target.disabled = true;
          var ack = unpinned ? el('input', { type: 'checkbox', class: 'allow-unpinned' }) : null;
          var gatedHooks = w.hooks.filter(function (h) { return h.needsTrust; });
          var box = el('div', { class: 'confirm', role: 'dialog', 'aria-label': 'confirm trust' },
            el('b', { text: 'These ' + gatedHooks.length + ' hook(s) will run in every session of this workspace:' }),
            el('ul', null, gatedHooks.map(function (h) { return el('li', { text: h.event + (h.matcher ? ' [' + h.matcher + ']' : '') + ': ' + runText(h.run) }); })),
            el('div', { class: 'meta', text: 'digest ' + w.digest }),
            ack ? el('label', { class: 'ack' }, ack, ' also trust the ' + unpinned + ' UNPINNED hook(s): what they execute cannot be determined') : null,
            el('div', { class: 'actions' },
              el('button', { class: 'primary confirm-trust', text: 'Trust exactly this', onclick: function (e2) { act(e2.target, '/api/trust', ack ? { dir: w.dir, digest: w.digest, allowUnpinned: ack.checked } : { dir: w.dir, digest: w.digest }, 'trusted'); } }),
              el('button', { class: 'cancel-trust', text: 'Cancel', onclick: function () { box.remove(); ev.target.disabled = false; } })));
          // Right under the header with the button, so the question is where the click was.
          var head = ev.target.closest('.card-head');
          if (head) head.after(box); else ev.target.closest('.card').appendChild(box);
        } }));
    }
    if (w.trustedDigest || w.workspaceTrusted) {
      actions.appendChild(el('button', { class: 'danger revoke', text: 'Revoke trust',
        onclick: function (ev) { act(ev.target, '/api/revoke', { dir: w.dir, digest: w.trustedDigest || null }, 'revoked'); } }));
    }
    var card = el('section', { class: 'card workspace', 'data-dir': w.dir, 'data-state': w.state },
      el('div', { class: 'card-head' },
        badge(w.state),
        el('div', { class: 'grow' },
          el('h2', { text: w.dir }),
          el('div', { class: 'meta' }, 'identity ', el('code', { text: w.identity })),
          el('div', { class: 'meta' }, 'digest now ', el('code', { class: 'digest', text: w.digest || '(none: ' + w.state + ')' })),
          el('div', { class: 'meta' }, w.trustedDigest ? ['trusted ', el('code', { text: short(w.trustedDigest) }), ' at ' + when(w.trustedAt)] : (w.workspaceTrusted ? 'workspace trusted, hooks never trusted' : 'never trusted')),
          el('p', { class: 'reason', text: w.reason })),
        actions),
      flash ? el('div', { class: 'flash ' + flash.kind, text: flash.text }) : null);
    var problems = w.errors.map(function (e) { return 'error: ' + e; }).concat(w.diagnostics.map(function (d) {
      return d.level + ': ' + [d.file, d.path].filter(Boolean).join(': ') + ': ' + d.message;
    }));
    if (problems.length) card.appendChild(el('ul', { class: 'problems' }, problems.map(function (p) { return el('li', { text: p }); })));

    card.appendChild(el('h3', { text: 'Hooks (' + w.hooks.length + ', ' + gated + ' need trust)' }));
    if (!w.hooks.length) card.appendChild(el('div', { class: 'empty', text: 'No hooks.' }));
    w.hooks.forEach(function (h) { card.appendChild(hookView(h)); });
    if (w.removed.length) {
      card.appendChild(el('h3', { text: 'Removed since trusted' }));
      w.removed.forEach(function (h) {
        card.appendChild(el('div', { class: 'hook changed' },
          el('div', { class: 'hook-head' }, badge('modified', 'removed'), el('span', { class: 'event', text: h.event }), kv('matcher', h.matcher === undefined ? '*' : h.matcher), kv('type', h.type)),
          el('pre', { class: 'run', text: runText(h.run) }),
          el('div', { class: 'source', text: 'was in ' + sourceText(h.source) })));
      });
    }
    if (w.settingsChanges.length) {
      card.appendChild(el('h3', { text: 'Settings changed since trusted' }));
      card.appendChild(el('ul', { class: 'changes' }, w.settingsChanges.map(function (c) { return el('li', { text: c.description }); })));
    }
    if (w.scripts.length) {
      card.appendChild(el('h3', { text: 'Referenced scripts' }));
      w.scripts.forEach(function (s) { card.appendChild(scriptView(s)); });
    }
    if (w.configDiff) {
      card.appendChild(el('details', null, el('summary', { text: 'Whole hook config: trusted → now' }), diffView(w.configDiff, 'canonical config (secrets hidden)')));
    }
    return card;
  }

  async function act(button, path, body, done) {
    button.disabled = true;
    try {
      await api(path, body);
      flashes[body.dir] = { kind: 'good', text: done === 'trusted' ? 'Trusted. These hooks run from now on.' : 'Trust revoked. Its hooks no longer run.' };
    } catch (e) {
      flashes[body.dir] = { kind: 'bad', text: e.message + (e.status === 409 ? ' — the view below is current again: review it before trusting.' : '') };
    }
    await render();
  }

  async function workspacesPage() {
    var data = await api('/api/workspaces');
    var nodes = [el('p', { class: 'intro', text: 'Hooks a workspace brings with it run only after you trust them, and stop when they or the scripts they run change. Review what each hook runs, then trust exactly the digest shown.' })];
    if (!data.workspaces.length) nodes.push(el('div', { class: 'empty', text: 'No workspaces. Start with --workspace DIR.' }));
    data.workspaces.forEach(function (w) { nodes.push(workspaceCard(w)); });
    return nodes;
  }

  async function sessionsPage() {
    var data = await api('/api/sessions');
    var nodes = [];
    nodes.push(el('p', { class: 'intro', text: data.mode === 'host'
      ? 'Sessions of the host process. A paused session runs no hooks until resumed.'
      : 'Sessions seen in the audit log' + (data.auditFile ? ' (' + data.auditFile + ')' : ' (no --audit file given)') + ', and paused ones. Pausing writes ' + data.pauseFile + ', which agent-hooks dispatch reads on every call: a paused session runs no hooks.' }));
    if (data.warning) nodes.push(el('div', { class: 'flash bad', text: data.warning }));
    var rows = data.sessions.map(function (s) {
      return el('tr', { 'data-session': s.id, 'data-paused': s.paused ? 'true' : 'false' },
        el('td', { class: 'mono', text: s.id }),
        el('td', { class: 'mono', text: s.projectDir ? s.projectDir + (s.worktreeDir ? ' (worktree ' + s.worktreeDir + ')' : '') : '—' }),
        el('td', { text: s.lastSeen ? when(s.lastSeen) + (s.lastEvent ? ' · ' + s.lastEvent : '') : '—' }),
        el('td', { text: s.runs === undefined ? '—' : String(s.runs) }),
        el('td', null, s.blocked ? badge('blocked', String(s.blocked)) : (s.runs === undefined ? '—' : '0')),
        el('td', null, s.paused ? badge('paused') : badge('active')),
        el('td', null, el('button', { class: 'pause-toggle' + (s.paused ? '' : ' danger'), 'aria-pressed': s.paused ? 'true' : 'false',
          text: s.paused ? 'Resume' : 'Pause', onclick: function (ev) { togglePause(ev.target, s.id, !s.paused); } })));
    });
    nodes.push(el('div', { class: 'card' },
      rows.length
        ? el('table', null, el('thead', null, el('tr', null, ['Session', 'Project', 'Last seen', 'Hook runs', 'Blocked', 'State', ''].map(function (t) { return el('th', { text: t }); }))), el('tbody', null, rows))
        : el('div', { class: 'empty', text: 'No sessions yet.' })));
    if (data.mode !== 'host') {
      var input = el('input', { type: 'text', id: 'pause-id', placeholder: 'session id', 'aria-label': 'session id to pause' });
      nodes.push(el('div', { class: 'card' }, el('div', { class: 'filters' },
        el('label', null, 'Pause a session by id', input),
        el('button', { class: 'danger', id: 'pause-by-id', text: 'Pause', onclick: function (ev) { if (input.value.trim()) togglePause(ev.target, input.value.trim(), true); } }))));
    }
    if (flashes.sessions) nodes.splice(1, 0, el('div', { class: 'flash ' + flashes.sessions.kind, text: flashes.sessions.text }));
    return nodes;
  }

  async function togglePause(button, id, paused) {
    button.disabled = true;
    try {
      await api('/api/sessions/pause', { id: id, paused: paused });
      flashes.sessions = { kind: 'good', text: (paused ? 'Paused ' : 'Resumed ') + id + '.' };
    } catch (e) {
      flashes.sessions = { kind: 'bad', text: e.message };
    }
    await render();
  }

  function auditQuery() {
    var q = new URLSearchParams(location.search);
    var out = {};
    ['session', 'event', 'outcome', 'limit'].forEach(function (k) { if (q.get(k)) out[k] = q.get(k); });
    return out;
  }

  function select(name, label, values, current) {
    var s = el('select', { name: name, id: 'filter-' + name, onchange: applyFilters },
      el('option', { value: '', text: 'all' }),
      values.map(function (v) { return el('option', { value: v, text: v, selected: v === current }); }));
    return el('label', null, label, s);
  }

  function applyFilters() {
    var q = new URLSearchParams();
    ['session', 'event', 'outcome'].forEach(function (k) {
      var v = document.getElementById('filter-' + k).value;
      if (v) q.set(k, v);
    });
    var s = q.toString();
    history.replaceState(null, '', '/audit' + (s ? '?' + s : ''));
    render();
  }

  function timeline(firings, session) {
    var byEvent = {};
    var order = [];
    // One session: a single timeline of its firings in time order (what happened, step by step);
    // otherwise one per event.
    var perSession = Boolean(session);
    var list0 = perSession ? firings.slice().sort(function (a, b) { return a.start < b.start ? -1 : a.start > b.start ? 1 : 0; }) : firings;
    list0.forEach(function (f) {
      var key = perSession ? session : f.event;
      if (!byEvent[key]) { byEvent[key] = []; order.push(key); }
      byEvent[key].push(f);
    });
    return order.map(function (ev) {
      var list = byEvent[ev];
      var scale = Math.max(1, Math.max.apply(null, list.map(function (f) { return f.durationMs; })));
      return el('div', perSession ? { class: 'card timeline-session', 'data-session': ev } : { class: 'card timeline-event', 'data-event': ev },
        el('h4', null, perSession ? 'Session ' + ev + ', in time order' : ev, el('span', { class: 'muted', text: '  ' + list.length + ' firing' + (list.length === 1 ? '' : 's') + ' · scale 0–' + Math.round(scale) + ' ms' })),
        list.map(function (f) {
          return el('div', { class: 'firing', 'data-blocked': f.blocked ? 'true' : 'false', 'data-event': f.event },
            el('div', { class: 'firing-head' },
              el('b', { text: when(f.start) }),
              perSession ? el('span', { class: 'firing-event', text: f.event }) : null,
              f.tool_name ? el('code', { text: f.tool_name }) : null,
              el('span', { text: 'session ' + f.session_id }),
              el('span', { text: f.order + ' · ' + Math.round(f.durationMs) + ' ms' }),
              f.blocked ? badge('blocked') : null),
            f.bars.map(function (b) {
              var left = (b.offsetMs / scale) * 100;
              var width = Math.max((b.durationMs / scale) * 100, 0.4);
              return el('div', { class: 'bar-row' },
                el('div', { class: 'what', title: b.hook, text: hookLabel(b.type, b.source) + '  (' + b.source.kind + ')' }),
                el('div', { class: 'track' }, el('div', { class: 'bar ' + (b.blocked ? 'blocked' : b.outcome), title: b.outcome + (b.decision ? ' (' + b.decision + ')' : ''),
                  style: { left: Math.min(left, 99.6) + '%', width: Math.min(width, 100 - Math.min(left, 99.6)) + '%' } })),
                el('div', { class: 'ms', text: Math.round(b.durationMs) + ' ms' }));
            }));
        }));
    });
  }

  async function auditPage() {
    var q = auditQuery();
    var data = await api('/api/audit?' + new URLSearchParams(q).toString());
    var nodes = [];
    nodes.push(el('p', { class: 'intro', text: data.file ? 'Audit log ' + data.file + ': one line per hook execution. ' + data.total + ' matching entries' + (data.malformed ? ', ' + data.malformed + ' unreadable lines skipped' : '') + '.' : 'No audit log: start with --audit FILE (the file your hosts or agent-hooks dispatch --audit write).' }));
    if (data.error) nodes.push(el('div', { class: 'flash bad', text: data.error }));
    nodes.push(el('div', { class: 'filters' },
      select('session', 'Session', data.facets.sessions, q.session),
      select('event', 'Event', data.facets.events, q.event),
      select('outcome', 'Outcome', ['blocked'].concat(data.facets.outcomes), q.outcome)));
    nodes.push(el('h3', { text: q.session ? 'Timeline of the session' : 'Timeline of hook durations, per event (pick a session for its timeline in time order)' }));
    if (!data.firings.length) nodes.push(el('div', { class: 'empty', text: 'Nothing recorded.' }));
    nodes = nodes.concat(timeline(data.firings, q.session));
    nodes.push(el('h3', { text: 'Entries (newest first)' }));
    // Paging: the newest "limit" entries of "total"; "show more" asks for 200 more (up to 2,000).
    var shown = data.entries.length;
    if (data.total > shown) {
      nodes.push(el('div', { class: 'paging' },
        el('span', { class: 'showing', text: 'showing ' + shown.toLocaleString('en-US') + ' of ' + data.total.toLocaleString('en-US') }),
        shown < 2000 ? el('button', { class: 'more', text: 'show ' + Math.min(200, data.total - shown) + ' more', onclick: function () {
          var qs = new URLSearchParams(location.search);
          qs.set('limit', String(Math.min(2000, shown + 200)));
          history.replaceState(null, '', '/audit?' + qs.toString());
          render();
        } }) : el('span', { text: '(narrow the filters to see older entries)' })));
    }
    var rows = data.entries.map(function (e) {
      return el('tr', { class: e.blocked ? 'blocked' : '', 'data-outcome': e.outcome, 'data-blocked': e.blocked ? 'true' : 'false' },
        el('td', { class: 'nowrap', text: when(e.ts) }),
        el('td', { class: 'mono nowrap', text: e.session_id }),
        el('td', { class: 'nowrap', text: e.event }),
        el('td', { class: 'mono', text: e.tool_name || '' }),
        el('td', { class: 'mono hook-cell', title: e.hook, text: hookLabel(e.type, e.source) }),
        el('td', null, badge(e.blocked ? 'blocked' : e.outcome === 'success' ? 'success' : /error|timeout/.test(e.outcome) ? 'warn' : 'neutral', e.outcome)),
        el('td', { text: e.decision || '' }),
        el('td', { text: String(Math.round(e.durationMs)) }),
        el('td', { class: 'reason', text: e.reason || e.error || '' }));
    });
    nodes.push(el('div', { class: 'card table' }, rows.length
      ? el('table', { class: 'entries' }, el('thead', null, el('tr', null, ['Time', 'Session', 'Event', 'Tool', 'Hook', 'Outcome', 'Decision', 'ms', 'Reason'].map(function (t) { return el('th', { text: t }); }))), el('tbody', null, rows))
      : el('div', { class: 'empty', text: 'No entries.' })));
    return nodes;
  }

  var pages = { '/': workspacesPage, '/sessions': sessionsPage, '/audit': auditPage };

  async function render() {
    var page = pages[location.pathname] || workspacesPage;
    document.querySelectorAll('header.top nav a').forEach(function (a) {
      a.classList.toggle('active', a.getAttribute('href') === location.pathname);
    });
    try {
      var nodes = await page();
      main.replaceChildren.apply(main, nodes);
    } catch (e) {
      main.replaceChildren(el('div', { class: 'flash bad', text: 'Could not load: ' + e.message }));
    }
    main.setAttribute('data-ready', String(Date.now()));
  }

  document.getElementById('refresh').addEventListener('click', function () { flashes = {}; render(); });
  render();
})();
`;
