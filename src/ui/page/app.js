// raidlab ui: the page's script.  Every action posts its fields to /api/job; the
// server runs raidlab's own command and streams its output back as server-sent
// events (cmd, out, err, progress lines on err, result, exit), read here from
// the response body so that aborting the request (Stop) ends the command.
'use strict';

const TOKEN = new URLSearchParams(location.search).get('token') || '';
const $ = (id) => document.getElementById(id);
const api = (path) => path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(TOKEN);

// Run one job; h.cmd/out/err/result/exit get each event's text.  Resolves when it ends.
async function runJob(fields, h, signal) {
  let res;
  try {
    res = await fetch(api('/api/job'), { method: 'POST', body: new URLSearchParams(fields), signal });
  } catch (e) {
    if (h.stopped && signal && signal.aborted) h.stopped(); else if (h.err) h.err(String(e));
    return;
  }
  if (!res.ok) {
    if (h.err) h.err(await res.text());
    if (h.exit) h.exit('refused');
    return;
  }
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (e) {
      if (h.stopped) h.stopped();
      return;
    }
    if (chunk.done) break;
    buf += dec.decode(chunk.value, { stream: true });
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      let ev = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) ev = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (h[ev]) h[ev](data.join('\n'));
    }
  }
}

// --- tabs ---
for (const b of document.querySelectorAll('#tabs button')) {
  b.addEventListener('click', () => {
    for (const o of document.querySelectorAll('#tabs button')) o.classList.toggle('on', o === b);
    for (const v of document.querySelectorAll('.view')) v.classList.toggle('on', v.id === 'view-' + b.dataset.view);
    if (b.dataset.view === 'compare') loadResults();
  });
}

const fmt = (v, digits) => (typeof v === 'number' && isFinite(v)) ? v.toFixed(digits) : '-';

// --- Measure ---
const CDM_ROWS = {
  cdm: ['SEQ1M Q8T1', 'SEQ1M Q1T1', 'RND4K Q32T1', 'RND4K Q1T1'],
  'cdm-nvme': ['SEQ1M Q8T1', 'SEQ128K Q32T1', 'RND4K Q32T16', 'RND4K Q1T1'],
};
let measureCtl = null;

function gridRow(name) {
  const body = $('m-grid').tBodies[0];
  for (const tr of body.rows) if (tr.dataset.test === name) return tr;
  const tr = body.insertRow();
  tr.dataset.test = name;
  tr.insertCell().textContent = name;
  for (const k of ['read-mb', 'write-mb', 'read-iops', 'write-iops']) {
    const td = tr.insertCell();
    td.className = 'val';
    td.dataset.k = k;
    td.textContent = '-';
  }
  return tr;
}

function setCell(tr, k, text, live) {
  const td = tr.querySelector('td[data-k="' + k + '"]');
  td.textContent = text;
  td.classList.toggle('live', !!live);
}

function resetGrid(suite) {
  $('m-grid').tBodies[0].replaceChildren();
  for (const n of CDM_ROWS[suite] || []) gridRow(n);
}

function fillGrid(doc) {
  for (const t of doc.tests || []) {
    const tr = gridRow(t.name);
    for (const dir of ['read', 'write']) {
      const d = t[dir];
      setCell(tr, dir + '-mb', d ? fmt(d.mb_s, 2) : '-');
      setCell(tr, dir + '-iops', d ? fmt(d.iops, 1) : '-');
    }
  }
}

// A progress line of `raidlab run --progress=json`: the running test's rate so far.
function liveCell(p) {
  $('m-status').textContent = 'running ' + p.test + ' ' + p.phase + ' (' + Math.round(100 * (p.done || 0)) + '% of the suite)';
  if (!p.test || !p.pass || !(p.mb_s > 0) || (p.phase !== 'read' && p.phase !== 'write')) return;
  const tr = gridRow(p.test);
  setCell(tr, p.phase + '-mb', fmt(p.mb_s, 2), true);
  setCell(tr, p.phase + '-iops', fmt(p.iops, 1), true);
}

function looksLikePath(t) {
  return t.startsWith('/') && !t.includes('(');
}
$('m-target').addEventListener('input', () => { $('m-confirm-row').hidden = !looksLikePath($('m-target').value); });

$('m-start').addEventListener('click', async () => {
  const suite = $('m-suite').value;
  const fields = { kind: 'measure', suite, target: $('m-target').value };
  for (const k of ['label', 'size', 'passes', 'duration']) if ($('m-' + k).value) fields[k] = $('m-' + k).value;
  if (looksLikePath(fields.target) && $('m-confirm').value) fields.confirm = $('m-confirm').value;
  resetGrid(suite);
  $('m-log').textContent = '';
  $('m-status').textContent = 'starting';
  $('m-status').className = 'status';
  $('m-start').disabled = true;
  $('m-stop').disabled = false;
  measureCtl = new AbortController();
  let code = null;
  await runJob(fields, {
    cmd: (c) => { $('m-cmd').textContent = c; },
    err: (l) => {
      if (l.startsWith('{"progress"')) {
        try { liveCell(JSON.parse(l).progress); return; } catch (e) { /* shown below */ }
      }
      $('m-log').textContent += l + '\n';
    },
    out: () => {},
    result: (r) => { try { fillGrid(JSON.parse(r)); } catch (e) { $('m-log').textContent += 'unreadable result\n'; } },
    exit: (c) => { code = c; },
    stopped: () => { code = 'stopped'; },
  }, measureCtl.signal);
  measureCtl = null;
  $('m-start').disabled = false;
  $('m-stop').disabled = true;
  $('m-status').textContent = code === '0' ? 'done (saved: see Compare)' : code === 'stopped' ? 'stopped' : 'failed (exit ' + code + ')';
  if (code !== '0' && code !== 'stopped') $('m-status').className = 'status error';
});
$('m-stop').addEventListener('click', () => { if (measureCtl) measureCtl.abort(); });

// --- Ask ---
let askCtl = null;
async function loadProfiles() {
  const lines = [];
  await runJob({ kind: 'profiles' }, { out: (l) => lines.push(l) });
  let section = 'drives';
  for (const l of lines) {
    if (/^\s*controller \/ driver/.test(l)) { section = 'controllers'; continue; }
    const m = /^  ([a-z0-9][a-z0-9.\-]*)\s+(\S+)/.exec(l);
    if (!m || m[1] === 'profile') continue;
    const o = document.createElement('option');
    o.textContent = m[1];
    $(section === 'drives' ? 'a-drive' : 'a-controller').appendChild(o);
  }
}
loadProfiles();

$('a-start').addEventListener('click', async () => {
  const fields = { kind: 'advise', drive: $('a-drive').value, count: $('a-count').value,
    workload: $('a-workload').value, goal: $('a-goal').value };
  if ($('a-controller').value) fields.controller = $('a-controller').value;
  else if ($('a-platform').value) fields.platform = $('a-platform').value;
  if ($('a-size').value) fields.size = $('a-size').value;
  $('a-out').textContent = '';
  $('a-log').textContent = '';
  $('a-status').textContent = 'measuring';
  $('a-status').className = 'status';
  $('a-start').disabled = true;
  $('a-stop').disabled = false;
  askCtl = new AbortController();
  let code = null;
  await runJob(fields, {
    cmd: (c) => { $('a-cmd').textContent = c; },
    out: (l) => { $('a-out').textContent += l + '\n'; },
    err: (l) => { $('a-log').textContent += l + '\n'; },
    exit: (c) => { code = c; },
    stopped: () => { code = 'stopped'; },
  }, askCtl.signal);
  askCtl = null;
  $('a-start').disabled = false;
  $('a-stop').disabled = true;
  $('a-status').textContent = code === '0' ? 'answered' : code === 'stopped' ? 'stopped' : 'failed (exit ' + code + ')';
  if (code !== '0' && code !== 'stopped') $('a-status').className = 'status error';
});
$('a-stop').addEventListener('click', () => { if (askCtl) askCtl.abort(); });

// --- Compare ---
async function loadResults() {
  const res = await fetch(api('/api/results'));
  const names = res.ok ? await res.json() : [];
  const list = $('c-list');
  const checked = new Set([...list.querySelectorAll('input:checked')].map((i) => i.value));
  list.replaceChildren();
  for (const n of names) {
    const l = document.createElement('label');
    const i = document.createElement('input');
    i.type = 'checkbox';
    i.value = n;
    i.checked = checked.has(n);
    l.append(i, ' ' + n);
    list.appendChild(l);
  }
  if (!names.length) list.textContent = 'no results yet: run a suite in Measure';
}
$('c-refresh').addEventListener('click', loadResults);

$('c-go').addEventListener('click', async () => {
  const picked = [...$('c-list').querySelectorAll('input:checked')].map((i) => i.value);
  const fields = { kind: 'compare', metric: $('c-metric').value };
  picked.slice(0, 8).forEach((n, i) => { fields['r' + (i + 1)] = n; });
  $('c-out').textContent = '';
  $('c-status').textContent = 'comparing';
  $('c-status').className = 'status';
  let code = null;
  const errs = [];
  await runJob(fields, {
    cmd: (c) => { $('c-cmd').textContent = c; },
    out: (l) => { $('c-out').textContent += l + '\n'; },
    err: (l) => errs.push(l),
    exit: (c) => { code = c; },
  });
  const html = [];
  if (code === '0') {
    await runJob(Object.assign({ html: '1' }, fields), { out: (l) => html.push(l) });
    $('c-report').srcdoc = html.join('\n');
    $('c-report').classList.add('on');
  }
  $('c-status').textContent = code === '0' ? 'compared ' + picked.length + ' results' : errs.join(' ') || 'failed';
  if (code !== '0') $('c-status').className = 'status error';
});

// --- Watch ---
let watching = null;
function parseStatus(text) {
  // "export 'x': raid1, N requests, E errors, degraded; members: 0 failed 1 in_sync; rebuild ..."
  const m = /members:((?: \d+ [a-z_]+)+)/.exec(text);
  const members = [];
  if (m) {
    const w = m[1].trim().split(/\s+/);
    for (let i = 0; i + 1 < w.length; i += 2) members.push({ k: w[i], state: w[i + 1] });
  }
  const st = /, ([a-z_]+); members:/.exec(text);
  return { members, state: st ? st[1] : '' };
}

function ctlFields(verb, extra) {
  const f = Object.assign({ kind: 'ctl', socket: $('w-socket').value, verb }, extra || {});
  if ($('w-export').value) f.export = $('w-export').value;
  return f;
}

async function ctl(verb, extra) {
  const out = [];
  const err = [];
  let code = null;
  await runJob(ctlFields(verb, extra), {
    cmd: (c) => { if (verb !== 'status') $('w-cmd').textContent = c; },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    exit: (c) => { code = c; },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

// Rows are kept while the members stay the same (only the states change), so a
// button is never replaced under the pointer by the next refresh.
function drawMembers(s) {
  const body = $('w-members').tBodies[0];
  if (body.rows.length === s.members.length &&
      s.members.every((m, i) => body.rows[i].dataset.member === m.k)) {
    s.members.forEach((m, i) => {
      const td = body.rows[i].cells[1];
      td.textContent = m.state;
      td.className = 'state-' + m.state;
    });
    return;
  }
  body.replaceChildren();
  for (const m of s.members) {
    const tr = body.insertRow();
    tr.dataset.member = m.k;
    tr.insertCell().textContent = 'member ' + m.k;
    const td = tr.insertCell();
    td.textContent = m.state;
    td.className = 'state-' + m.state;
    const act = tr.insertCell();
    for (const verb of ['fail', 'rebuild']) {
      const b = document.createElement('button');
      b.textContent = verb;
      b.dataset.verb = verb;
      b.addEventListener('click', async () => {
        const extra = { member: m.k };
        if (verb === 'fail' && $('w-force').checked) extra.force = '1';
        const r = await ctl(verb, extra);
        $('w-out').textContent = (r.out + '\n' + r.err).trim();
        $('w-out').className = 'answer' + (r.code === '0' ? '' : ' error');
        refresh();
      });
      act.appendChild(b);
    }
  }
}

async function refresh() {
  const r = await ctl('status');
  if (r.code !== '0') {
    $('w-status').textContent = r.err || 'no answer';
    $('w-status').className = 'status error';
    return;
  }
  const s = parseStatus(r.out);
  $('w-status').textContent = r.out;
  $('w-status').className = 'status';
  drawMembers(s);
}

$('w-watch').addEventListener('click', async () => {
  if (watching) clearInterval(watching);
  $('w-cmd').textContent = 'raidlab ctl ' + $('w-socket').value + ' status';
  await refresh();
  watching = setInterval(refresh, 1000);
  $('w-unwatch').disabled = false;
});
$('w-unwatch').addEventListener('click', () => {
  clearInterval(watching);
  watching = null;
  $('w-unwatch').disabled = true;
});
