// Lists of users and boards (followers, following), resolved from ids to names, paged by cursor.

import { read, seg, pageQuery } from './api.js';
import { getUser, getBoard } from './cache.js';
import { h, hash } from './ui.js';
import { pager } from './paged.js';

export function avatar(user, size = 'small') {
  const name = (user && (user.displayName || user.username)) || '?';
  const el = h('span', { class: `avatar avatar-${size}`, 'aria-hidden': 'true', text: Array.from(name)[0].toUpperCase() });
  el.style.backgroundColor = `hsl(${hash(user ? user.id : name) % 360} 55% 40%)`;
  return el;
}

const since = (iso) => (iso ? h('span', { class: 'since', text: `since ${new Date(iso).toLocaleDateString()}` }) : null);

function userItem(item) {
  const li = h('li', { class: 'person', 'data-user-id': String(item.userId) });
  const name = h('span', { class: 'person-name', text: `user ${item.userId}` });
  li.append(name, since(item.since));
  getUser(item.userId).then((u) => {
    li.prepend(avatar(u));
    name.replaceWith(h('a', { class: 'person-name', href: `#/u/${encodeURIComponent(u.username)}` },
      h('strong', { text: u.displayName || u.username }), ' ', h('span', { class: 'muted', text: `@${u.username}` })));
  }).catch(() => {});
  return li;
}

function boardItem(item) {
  const li = h('li', { class: 'person', 'data-board-id': String(item.boardId) });
  const name = h('strong', { text: `board ${item.boardId}` });
  const owner = h('span', { class: 'muted' });
  li.append(h('span', { class: 'person-name' }, name, ' ', owner), since(item.since));
  getBoard(item.boardId).then((b) => {
    name.textContent = b.name;
    return getUser(b.ownerId).then((u) => {
      owner.replaceChildren('by ', h('a', { href: `#/u/${encodeURIComponent(u.username)}`, text: `@${u.username}` }));
    });
  }).catch(() => {});
  return li;
}

/** A paged list of {userId|boardId, since} edges read from `path` (under /api/read). */
export function edgeList(path, { kind = 'user', emptyText, signal, label }) {
  const list = h('ul', { class: 'people', 'aria-label': label });
  const p = pager({
    list,
    signal,
    fetchPage: (cursor) => read(`${path}${pageQuery(50, cursor)}`, { signal }),
    key: (item) => String(kind === 'user' ? item.userId : item.boardId),
    render: kind === 'user' ? userItem : boardItem,
    empty: h('p', { class: 'empty-title', text: emptyText }),
    endText: kind === 'user' ? 'That is everyone.' : 'That is every board.',
  });
  p.reload();
  return h('div', { class: 'edge-list' }, list, p.footer);
}

export const followersPath = (userId) => `/v1/users/${seg(userId)}/followers`;
