// DOM helpers (markup is never parsed from strings: text always goes in as text), toasts and small widgets.

import { ApiError } from './api.js';

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'text') el.textContent = v;
    else if (k === 'class') el.setAttribute('class', v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** h('a', {href, class, text, on: {click}}, ...children) */
export const h = (tag, attrs, ...children) => build(document.createElement(tag), attrs, children);

const SVG_NS = 'http://www.w3.org/2000/svg';
export const s = (tag, attrs, ...children) => build(document.createElementNS(SVG_NS, tag), attrs, children);

/** A problem document as one line: its detail, else title, else the status. */
export function problemText(err) {
  if (err instanceof ApiError) {
    const p = err.problem;
    return p.detail || p.title || `HTTP ${err.status}`;
  }
  return (err && err.message) || String(err);
}

let toastBox = null;
/** A dismissible message: role=alert for errors (kept until dismissed), role=status otherwise (6 s). */
export function toast(message, { kind = 'info', title = null } = {}) {
  toastBox = toastBox || document.getElementById('toasts');
  if (!toastBox) return;
  const close = h('button', { type: 'button', class: 'toast-close', 'aria-label': 'Dismiss', text: '×' });
  const t = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : 'status' },
    h('div', { class: 'toast-text' }, title ? h('strong', { text: title }) : null, title ? ' ' : null, message),
    close);
  const remove = () => t.remove();
  close.addEventListener('click', remove);
  toastBox.append(t);
  while (toastBox.children.length > 4) toastBox.firstElementChild.remove();
  if (kind !== 'error') setTimeout(remove, 6000);
  return t;
}

export function toastError(err, what) {
  if (err instanceof ApiError && err.status === 401) return; // sign-in takes over
  const title = what || (err instanceof ApiError && err.problem.title) || 'Something went wrong';
  toast(problemText(err), { kind: 'error', title });
}

export const loading = (text = 'Loading…') => h('p', { class: 'loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), text);

export const errorBox = (text) => h('p', { class: 'error-box', role: 'alert', text });

export function plural(n, one, many = `${one}s`) {
  const num = Number(n) || 0;
  return `${num.toLocaleString()} ${num === 1 ? one : many}`;
}

/** Coloured state pill with its text: up (green), not ready (amber), down or anything else (red). */
export function pill(state) {
  const st = state || 'unknown';
  const cls = st === 'up' ? 'up' : st === 'not ready' ? 'warn' : 'down';
  return h('span', { class: `pill pill-${cls}`, text: st });
}

/** A stable non-negative hash of a string (FNV-1a, then murmur3's final mix so near ids spread). */
export function hash(str) {
  let x = 0x811c9dc5;
  for (const ch of String(str)) {
    x ^= ch.codePointAt(0);
    x = Math.imul(x, 0x01000193);
  }
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Only http(s) links become hrefs. */
export function safeUrl(url) {
  try {
    const u = new URL(url, location.href);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch { return null; }
}

export const pad2 = (n) => String(n).padStart(2, '0');
export function clock(date) {
  return `${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
}
