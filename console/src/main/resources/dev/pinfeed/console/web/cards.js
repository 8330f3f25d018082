// Pin cards: image or generated placeholder, details, author and board, likes, and why the pin is there.

import { write, seg, session } from './api.js';
import { getUser, getBoard, myLikes } from './cache.js';
import { h, s, hash, plural, safeUrl, toastError } from './ui.js';

// Height / width of a card's image, picked from the pin id so a pin keeps its shape.
const RATIOS = [1, 1.25, 1.5, 0.75, 1.33, 1.75, 1.1, 1.4];
const ROW = 8; // grid-auto-rows of .pin-grid.masonry, px
const GAP = 16; // the vertical gap between cards, px

// Masonry: each card spans as many 8 px grid rows as it is tall.
const sizer = 'ResizeObserver' in window ? new ResizeObserver((entries) => {
  for (const e of entries) {
    const card = e.target;
    if (!card.isConnected) { sizer.unobserve(card); continue; }
    const height = card.getBoundingClientRect().height;
    card.style.gridRowEnd = `span ${Math.max(1, Math.ceil((height + GAP) / ROW))}`;
  }
}) : null;

/** The grid the cards go into. */
export function pinGrid(attrs = {}) {
  return h('div', { class: `pin-grid${sizer ? ' masonry' : ''}`, ...attrs });
}

const SOURCES = { followed_user: 'followed user', followed_board: 'followed board', materialized: 'materialized' };
export const sourceLabel = (src) => SOURCES[src] || String(src).replace(/_/g, ' ');

function initials(text) {
  const words = String(text || '').trim().split(/\s+/).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => Array.from(w)[0]).join('');
  return (letters || '?').toUpperCase();
}

let gradientCount = 0;
/** An inline SVG standing in for a missing image: a gradient from the pin id's hues and the details' first letters. */
export function placeholder(pin, ratio) {
  const id = String(pin.id);
  const x = hash(id);
  const hue1 = x % 360;
  const hue2 = (hue1 + 40 + ((x >>> 9) % 100)) % 360;
  const gid = `pg-${++gradientCount}`;
  const w = 100;
  const ht = Math.round(w * ratio);
  return s('svg', {
    class: 'pin-image placeholder', viewBox: `0 0 ${w} ${ht}`, role: 'img', 'aria-label': pin.details || 'Pin',
    preserveAspectRatio: 'xMidYMid slice', focusable: 'false',
  },
  s('defs', null, s('linearGradient', { id: gid, x1: '0', y1: '0', x2: '1', y2: '1' },
    s('stop', { offset: '0', 'stop-color': `hsl(${hue1} 70% 62%)` }),
    s('stop', { offset: '1', 'stop-color': `hsl(${hue2} 65% 42%)` }))),
  s('rect', { width: w, height: ht, fill: `url(#${gid})` }),
  s('text', {
    x: '50', y: String(ht / 2), 'text-anchor': 'middle', 'dominant-baseline': 'central',
    'font-size': '28', 'font-weight': '700', fill: 'rgba(255,255,255,0.92)', 'font-family': 'system-ui, sans-serif',
  }, initials(pin.details)));
}

function media(pin) {
  const ratio = RATIOS[hash(`r${pin.id}`) % RATIOS.length];
  const box = h('div', { class: 'pin-media' });
  box.style.aspectRatio = `1 / ${ratio}`;
  const url = pin.imageUrl && safeUrl(pin.imageUrl);
  if (url) {
    const img = h('img', { class: 'pin-image', src: url, alt: pin.details || '', loading: 'lazy', decoding: 'async' });
    img.addEventListener('error', () => img.replaceWith(placeholder(pin, ratio)), { once: true });
    box.append(img);
  } else {
    box.append(placeholder(pin, ratio));
  }
  return box;
}

function likeButton(pin, countEl) {
  const btn = h('button', { type: 'button', class: 'like', 'aria-pressed': 'false' },
    h('span', { class: 'heart', 'aria-hidden': 'true', text: '♥' }), h('span', { class: 'like-text', text: 'Like' }));
  let likes = Number(pin.likes) || 0;
  let busy = false;
  const show = (on) => {
    btn.setAttribute('aria-pressed', String(on));
    btn.querySelector('.like-text').textContent = on ? 'Unlike' : 'Like';
    countEl.textContent = plural(likes, 'like');
  };
  show(false);
  myLikes().then((set) => { if (!busy) show(set.has(String(pin.id))); });
  btn.addEventListener('click', async () => {
    if (busy) return;
    busy = true;
    const on = btn.getAttribute('aria-pressed') !== 'true';
    likes = Math.max(0, likes + (on ? 1 : -1));
    show(on); // optimistic
    try {
      await write(on ? 'PUT' : 'DELETE', `/v1/users/${seg(session.me)}/likes/${seg(pin.id)}`);
      const set = await myLikes();
      if (on) set.add(String(pin.id)); else set.delete(String(pin.id));
    } catch (e) {
      likes = Math.max(0, likes + (on ? -1 : 1));
      show(!on);
      toastError(e, on ? 'Could not like the pin' : 'Could not unlike the pin');
    } finally {
      busy = false;
    }
  });
  return btn;
}

/** One pin card; `why` is the feed item's {source, score} when the pin came from a feed. */
export function pinCard(pin, why = null) {
  const id = String(pin.id);
  const card = h('article', { class: 'pin-card', 'data-pin-id': id });
  let whyText = null;
  if (why && why.source != null) {
    const score = typeof why.score === 'number' ? why.score.toFixed(2) : null;
    card.dataset.source = why.source;
    if (score !== null) card.dataset.score = score;
    whyText = `${sourceLabel(why.source)}${score !== null ? ` · ${score}` : ''}`;
    card.title = `In your feed because: ${sourceLabel(why.source)}${score !== null ? ` (score ${score})` : ''}`;
  }
  const box = media(pin);
  if (whyText) box.append(h('span', { class: 'why-badge', text: whyText }));

  const author = h('a', { class: 'pin-author', text: '…' });
  const board = h('span', { class: 'pin-board' });
  getUser(pin.authorId).then((u) => {
    author.textContent = u.username;
    author.href = `#/u/${encodeURIComponent(u.username)}`;
  }).catch(() => { author.replaceWith(h('span', { class: 'pin-author', text: `user ${pin.authorId}` })); });
  getBoard(pin.boardId).then((b) => { board.textContent = `on ${b.name}`; }).catch(() => { board.textContent = ''; });

  const link = pin.link && safeUrl(pin.link);
  const count = h('span', { class: 'like-count' });
  card.append(box, h('div', { class: 'pin-body' },
    h('p', { class: 'pin-details', text: pin.details || '' }),
    link ? h('a', { class: 'pin-link', href: link, target: '_blank', rel: 'noopener noreferrer', text: `${new URL(link).hostname} ↗` }) : null,
    h('p', { class: 'pin-meta' }, author, ' ', board),
    h('div', { class: 'pin-actions' }, h('span', { class: 'pin-counts' }, count,
      Number(pin.comments) > 0 ? h('span', { class: 'comment-count', text: ` · ${plural(Number(pin.comments), 'comment')}` }) : null),
    likeButton(pin, count))));
  if (sizer) sizer.observe(card);
  return card;
}
