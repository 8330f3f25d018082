// A small line chart of a lag history, drawn as inline SVG with its max and time span labelled.

import { s } from './ui.js';

const W = 240;
const H = 64;
const LEFT = 36; // room for the value labels
const RIGHT = 4;
const TOP = 6;
const BOTTOM = 50; // the plot's baseline; the time labels go below it

/** 12345 → "12.3k". */
export function compact(n) {
  const v = Number(n) || 0;
  if (Math.abs(v) < 1000) return String(Math.round(v));
  if (Math.abs(v) < 1e6) return `${+(v / 1e3).toFixed(1)}k`;
  return `${+(v / 1e6).toFixed(1)}M`;
}

/** 605000 → "10m 5s". */
export function span(ms) {
  const sec = Math.max(0, Math.round(ms / 1000));
  if (sec < 60) return `${sec}s`;
  const m = Math.floor(sec / 60);
  const rest = sec % 60;
  return rest ? `${m}m ${rest}s` : `${m} min`;
}

/** history: [[isoTime, value], ...] oldest first. */
export function lagChart(history, name) {
  const points = (history || [])
    .map(([t, v]) => [Date.parse(t), Number(v)])
    .filter(([t, v]) => Number.isFinite(t) && Number.isFinite(v));
  const label = (() => {
    if (!points.length) return `${name}: no lag history yet`;
    const max = Math.max(...points.map((p) => p[1]));
    const now = points[points.length - 1][1];
    return `${name}: lag now ${now.toLocaleString()}, at most ${max.toLocaleString()} over the last ${span(points[points.length - 1][0] - points[0][0])}`;
  })();
  const svg = s('svg', { class: 'lag-chart', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': label, focusable: 'false' });
  svg.append(s('title', null, label));
  const plotW = W - LEFT - RIGHT;
  const plotH = BOTTOM - TOP;
  svg.append(s('line', { class: 'axis', x1: LEFT, y1: BOTTOM, x2: W - RIGHT, y2: BOTTOM }));
  if (!points.length) {
    svg.append(s('text', { class: 'chart-label', x: LEFT + plotW / 2, y: (TOP + BOTTOM) / 2, 'text-anchor': 'middle', text: 'no samples yet' }));
    return svg;
  }
  const t0 = points[0][0];
  const t1 = points[points.length - 1][0];
  const max = Math.max(1, ...points.map((p) => p[1]));
  const x = (t) => LEFT + (t1 > t0 ? ((t - t0) / (t1 - t0)) * plotW : plotW);
  const y = (v) => BOTTOM - (v / max) * plotH;
  const coords = points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`);
  svg.append(
    s('line', { class: 'grid', x1: LEFT, y1: TOP, x2: W - RIGHT, y2: TOP }),
    s('text', { class: 'chart-label', x: LEFT - 4, y: TOP + 3, 'text-anchor': 'end', text: compact(max) }),
    s('text', { class: 'chart-label', x: LEFT - 4, y: BOTTOM, 'text-anchor': 'end', text: '0' }),
    s('text', { class: 'chart-label', x: LEFT, y: H - 2, 'text-anchor': 'start', text: `−${span(t1 - t0)}` }),
    s('text', { class: 'chart-label', x: W - RIGHT, y: H - 2, 'text-anchor': 'end', text: 'now' }));
  if (points.length > 1) {
    svg.append(s('polygon', { class: 'area', points: `${x(t0).toFixed(1)},${BOTTOM} ${coords.join(' ')} ${x(t1).toFixed(1)},${BOTTOM}` }));
    svg.append(s('polyline', { class: 'line', points: coords.join(' ') }));
  }
  const [lx, ly] = coords[coords.length - 1].split(',');
  svg.append(s('circle', { class: 'dot', cx: lx, cy: ly, r: 2.5 }));
  return svg;
}
