// The pipeline page: processes, servers, consumer lag, dead letters, HBase, shard maps; polled while visible.

import { api, isAbort } from './api.js';
import { h, pill, clock, problemText, safeUrl } from './ui.js';
import { lagChart } from './chart.js';

const STATES = new Set(['up', 'not ready', 'down']);
const stateOf = (x) => {
  if (x && STATES.has(x.state)) return x.state;
  if (x && x.live === true) return x.ready === false ? 'not ready' : 'up';
  return 'down';
};
const num = (v) => (v === null || v === undefined ? '—' : Number(v).toLocaleString());
const text = (v) => (v === null || v === undefined || v === '' ? '—' : String(v));
const errorOf = (part) => (part && !Array.isArray(part) && typeof part === 'object' && part.error ? String(part.error) : null);

function sectionError(id, message) {
  return h('p', { class: 'section-error', id, role: 'note', text: message });
}

/** A table; columns: [[heading, cell(row) → Node|string]]; rowAttrs(row) → attributes of its <tr>. */
function table(id, caption, columns, rows, rowAttrs = () => ({})) {
  if (!Array.isArray(rows)) return sectionError(id, errorOf(rows) || 'No data.');
  if (!rows.length) return h('p', { class: 'muted', id, text: 'None.' });
  return h('div', { class: 'table-wrap' }, h('table', { id, class: 'data' },
    h('caption', { class: 'visually-hidden', text: caption }),
    h('thead', null, h('tr', null, columns.map(([head]) => h('th', { scope: 'col', text: head })))),
    h('tbody', null, rows.map((r) => h('tr', rowAttrs(r), columns.map(([, cell], i) => {
      const v = cell(r);
      return i === 0 ? h('th', { scope: 'row' }, v) : h('td', { 'data-label': columns[i][0] }, v);
    }))))));
}

const stateRow = (r) => ({ 'data-name': text(r.name), 'data-state': stateOf(r), class: `state-${stateOf(r).replace(' ', '-')}` });

function checks(c) {
  if (!c || typeof c !== 'object') return null;
  const entries = Object.entries(c);
  if (!entries.length) return null;
  return h('ul', { class: 'checks' }, entries.map(([k, v]) => h('li', { class: String(v).startsWith('up') ? 'ok' : 'bad' }, h('strong', { text: k }), `: ${v}`)));
}

function processes(data) {
  return table('processes', 'Processes', [
    ['Name', (r) => {
      const url = r.url && safeUrl(r.url);
      return url ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer', text: r.name }) : text(r.name);
    }],
    ['Role', (r) => text(r.role)],
    ['State', (r) => pill(stateOf(r))],
    ['Detail', (r) => [r.detail || r.error ? h('span', { text: r.detail || r.error }) : (stateOf(r) === 'up' ? h('span', { class: 'muted', text: 'ready' }) : '—'), checks(r.checks)]],
  ], data.processes, stateRow);
}

function servers(data) {
  return table('servers', 'Servers', [
    ['Name', (r) => text(r.name)],
    ['Kind', (r) => text(r.kind)],
    ['Address', (r) => h('code', { text: text(r.address) })],
    ['State', (r) => pill(stateOf(r))],
    ['Detail', (r) => text(r.detail || r.error)],
  ], data.servers, stateRow);
}

function lag(data) {
  return table('lag', 'Consumer lag per group', [
    ['Group', (r) => text(r.group)],
    ['Lag', (r) => (r.error ? h('span', { class: 'section-error', text: r.error }) : h('span', { class: 'lag-now', text: num(r.lag) }))],
    ['Partitions', (r) => num(r.partitions)],
    ['Last minutes', (r) => lagChart(r.history, r.group)],
  ], data.lag, (r) => ({ 'data-name': text(r.group), 'data-lag': r.lag ?? '' }));
}

function deadLetters(data) {
  const d = data.deadLetters;
  if (!d || errorOf(d)) return sectionError('dead-letters', errorOf(d) || 'No data.');
  return h('div', { id: 'dead-letters', 'data-total': d.total ?? 0 },
    h('p', { class: 'big-number' }, h('strong', { text: num(d.total) }), ' dead letters'),
    Array.isArray(d.byReason) && d.byReason.length
      ? table('dead-letters-by-reason', 'Dead letters by reason and topic', [
        ['Reason', (r) => text(r.reason)],
        ['Topic', (r) => h('code', { text: text(r.topic) })],
        ['Count', (r) => num(r.count)],
      ], d.byReason)
      : null);
}

function fanouts(data) {
  const f = data.fanouts;
  if (!f || errorOf(f)) return sectionError('fanouts', errorOf(f) || 'No data.');
  return h('div', { id: 'fanouts' },
    h('p', { class: 'big-number' }, h('strong', { text: num(f.inFlight) }), ' in flight'),
    f.detail ? h('p', { class: 'muted', text: f.detail }) : null);
}

function hbaseCard(name, title, c) {
  if (!c) return h('div', { class: 'mini-card', 'data-name': name, 'data-state': 'down' }, h('h3', { text: title }), h('p', { class: 'muted', text: 'No data.' }));
  const st = c.error ? 'down' : stateOf(c);
  return h('div', { class: 'mini-card', 'data-name': name, 'data-state': st },
    h('h3', null, title, ' ', pill(st)),
    h('dl', { class: 'facts' },
      h('dt', { text: 'Address' }), h('dd', null, h('code', { text: text(c.address) })),
      h('dt', { text: 'Region servers' }), h('dd', { text: num(c.regionServers) }),
      h('dt', { text: 'Regions' }), h('dd', { text: num(c.regions) })),
    c.error || c.detail ? h('p', { class: c.error ? 'section-error' : 'muted', text: c.error || c.detail }) : null);
}

// One cluster's replication peer, shipping the stages that live on it to the other cluster.
function replicationCard(name, title, r) {
  if (!r || errorOf(r)) return h('p', { class: 'section-error', 'data-name': name, text: errorOf(r) || 'No replication data.' });
  const rs = r.state === 'enabled' || r.state === 'unused' ? 'up' : r.state === 'disabled' ? 'not ready' : 'down';
  return h('div', { class: 'mini-card', 'data-name': name, 'data-state': rs },
    h('h3', null, title, ' ', h('span', { class: `pill pill-${rs === 'up' ? 'up' : rs === 'not ready' ? 'warn' : 'down'}`, text: text(r.state) })),
    h('dl', { class: 'facts' },
      h('dt', { text: 'Peer' }), h('dd', { text: text(r.peer) }),
      h('dt', { text: 'Lag' }), h('dd', { text: r.lagMillis === null || r.lagMillis === undefined ? '—' : `${num(r.lagMillis)} ms` }),
      h('dt', { text: 'Queue' }), h('dd', { text: num(r.queueSize) })),
    r.detail ? h('p', { class: 'muted', text: r.detail }) : null);
}

function hbase(data) {
  const hb = data.hbase;
  if (!hb || errorOf(hb)) return sectionError('hbase', errorOf(hb) || 'No data.');
  const stages = hb.stages || {};
  const on = cluster => Object.keys(stages).filter(s => stages[s] === cluster).join(', ');
  const titled = (label, cluster) => on(cluster) ? `${label} (${on(cluster)})` : label;
  return h('div', { id: 'hbase', class: 'mini-cards' },
    hbaseCard('hbase-primary', titled('Primary', 'hbase-primary'), hb.primary),
    hbaseCard('hbase-standby', titled('Standby', 'hbase-standby'), hb.standby),
    replicationCard('replication', 'Replication primary → standby', hb.replication),
    replicationCard('replication-back', 'Replication standby → primary', hb.replicationBack));
}

function mysql(data) {
  return table('mysql-shards', 'MySQL shard map', [
    ['Host', (r) => text(r.host)],
    ['Range', (r) => text(r.range)],
    ['Shards', (r) => num(r.shards)],
    ['Master', (r) => h('code', { text: text(r.master) })],
    ['Replica', (r) => h('code', { text: text(r.replica) })],
  ], data.mysqlShards, (r) => ({ 'data-name': text(r.host) }));
}

function redis(data) {
  return table('redis-masters', 'Redis master map', [
    ['Instance', (r) => text(r.instance)],
    ['Master', (r) => h('code', { text: text(r.master) })],
    ['Replica', (r) => h('code', { text: text(r.replica) })],
    ['Virtual shards', (r) => text(r.virtualShards)],
  ], data.redisMasters, (r) => ({ 'data-name': text(r.instance) }));
}

/** The banner: everything up, or which are not. */
function banner(el, data) {
  const procs = Array.isArray(data.processes) ? data.processes : [];
  const servs = Array.isArray(data.servers) ? data.servers : [];
  const notUp = [...procs, ...servs].filter((x) => stateOf(x) !== 'up').map((x) => x.name);
  const unreadable = [['processes', data.processes], ['servers', data.servers]].filter(([, v]) => !Array.isArray(v)).map(([k]) => k);
  let cls = 'banner all-up';
  let line = `All ${procs.length} processes and ${servs.length} servers up`;
  if (notUp.length || unreadable.length) {
    cls = 'banner some-down';
    const parts = [];
    if (notUp.length) parts.push(`${notUp.length} not up: ${notUp.join(', ')}`);
    if (unreadable.length) parts.push(`${unreadable.join(' and ')} unreadable`);
    line = parts.join('; ');
  }
  setBanner(el, cls, line);
}

/** Touches the live region only when it changes, so screen readers hear changes, not every poll. */
function setBanner(el, cls, line) {
  if (el.className !== cls) el.className = cls;
  if (el.textContent !== line) el.textContent = line;
}

const SECTIONS = [
  ['processes', 'Processes', processes, 'wide'],
  ['servers', 'Servers', servers, 'wide'],
  ['lag', 'Consumer lag', lag, ''],
  ['dead-letters', 'Dead letters', deadLetters, ''],
  ['hbase', 'HBase', hbase, 'wide'],
  ['fanouts', 'Fan-outs in flight', fanouts, ''],
  ['mysql-shards', 'MySQL shard map', mysql, ''],
  ['redis-masters', 'Redis master map', redis, ''],
];

export function pipelineView(main, { config, signal }) {
  const status = h('div', { id: 'pipeline-status', class: 'banner', role: 'status', text: 'Reading the pipeline…' });
  const updated = h('p', { class: 'updated muted', id: 'pipeline-updated', text: 'last updated —' });
  const bodies = new Map();
  const grid = h('div', { class: 'pipeline-grid' }, SECTIONS.map(([key, title, , cls]) => {
    const body = h('div', { class: 'section-body' }, h('p', { class: 'muted', text: 'Loading…' }));
    bodies.set(key, body);
    return h('section', { class: `panel ${cls}`, 'aria-labelledby': `h-${key}` }, h('h2', { id: `h-${key}`, text: title }), body);
  }));
  main.append(h('section', { class: 'page' },
    h('div', { class: 'page-head' }, h('h1', { tabindex: '-1', text: 'Pipeline' }), updated),
    status, grid));

  let timer = null;
  let inFlight = false;
  let stopped = false;
  let lastGood = null;

  function render(data) {
    banner(status, data);
    const at = data.sampledAt ? new Date(data.sampledAt) : new Date();
    updated.textContent = `last updated ${clock(Number.isNaN(at.getTime()) ? new Date() : at)}`;
    for (const [key, , build] of SECTIONS) {
      let node;
      try { node = build(data); } catch (e) { node = sectionError(key, `Cannot show this part: ${e.message}`); }
      bodies.get(key).replaceChildren(node);
    }
  }

  async function tick() {
    timer = null;
    if (stopped || inFlight || document.hidden) return;
    inFlight = true;
    try {
      const data = await api('GET', '/api/pipeline', undefined, { signal });
      if (stopped) return;
      lastGood = Date.now();
      render(data || {});
    } catch (e) {
      if (isAbort(e) || stopped) return;
      setBanner(status, 'banner some-down', `Pipeline state unavailable: ${problemText(e)}${lastGood ? ` (showing ${clock(new Date(lastGood))})` : ''}`);
    } finally {
      inFlight = false;
      if (!stopped && !document.hidden && !timer) timer = setTimeout(tick, config.refreshMillis);
    }
  }

  const onVisibility = () => {
    if (document.hidden) { clearTimeout(timer); timer = null; } else if (!timer && !inFlight) tick();
  };
  document.addEventListener('visibilitychange', onVisibility);
  tick();

  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
