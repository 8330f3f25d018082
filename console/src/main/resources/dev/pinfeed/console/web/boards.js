// A user's boards, each with a Follow board toggle; opening one shows its pins.

import { read, seg, session, pageQuery } from './api.js';
import { rememberBoard, limited } from './cache.js';
import { h } from './ui.js';
import { pager } from './paged.js';
import { pinCard, pinGrid } from './cards.js';
import { followToggle } from './follow.js';

/** The pins of one board (or of a user: any /v1/... path answering pages of pins), as a grid. */
export function pinList(path, { signal, emptyText = 'No pins yet.', label }) {
  const grid = pinGrid({ 'aria-label': label });
  const p = pager({
    list: grid,
    signal,
    fetchPage: (cursor) => read(`${path}${pageQuery(25, cursor)}`, { signal }),
    key: (pin) => String(pin.id),
    render: (pin) => pinCard(pin),
    empty: h('p', { class: 'empty-title', text: emptyText }),
    endText: 'That is every pin.',
  });
  p.reload();
  return h('div', { class: 'pin-list' }, grid, p.footer);
}

/** The Boards tab of a user's profile. */
export function boardsPanel(user, { signal }) {
  const me = session.me;
  const mine = String(user.id) === me;
  const panel = h('div', { class: 'boards-panel' });
  const listView = h('div');
  const list = h('ul', { class: 'board-list', 'aria-label': `Boards of @${user.username}` });
  let boardAbort = null;

  function openBoard(board, opener) {
    boardAbort = new AbortController();
    signal.addEventListener('abort', () => boardAbort.abort(), { once: true });
    const back = h('button', { type: 'button', class: 'btn btn-quiet back', text: '← All boards' });
    const title = h('h2', { tabindex: '-1', text: board.name });
    const view = h('div', { class: 'board-view' }, back, title,
      board.description ? h('p', { class: 'board-description', text: board.description }) : null,
      pinList(`/v1/boards/${seg(board.id)}/pins`, { signal: boardAbort.signal, emptyText: 'This board has no pins yet.', label: `Pins on ${board.name}` }));
    back.addEventListener('click', () => {
      boardAbort.abort();
      view.remove();
      listView.hidden = false;
      opener.focus();
    });
    listView.hidden = true;
    panel.append(view);
    title.focus();
  }

  function boardItem(board) {
    rememberBoard(board);
    const open = h('button', { type: 'button', class: 'board-open', text: board.name });
    open.addEventListener('click', () => openBoard(board, open));
    const follow = mine ? null : followToggle({
      className: 'follow-board',
      onText: 'Unfollow board',
      offText: 'Follow board',
      label: board.name,
      signal,
      path: `/v1/users/${seg(me)}/following/boards/${seg(board.id)}`,
      state: () => limited(() => read(`/v1/users/${seg(me)}/following/boards/${seg(board.id)}`, { signal })).then((a) => a.following === true),
    });
    return h('li', { class: 'board-item', 'data-board-id': String(board.id) },
      h('div', { class: 'board-text' },
        h('h3', { class: 'board-name' }, open),
        h('p', { class: 'board-description', text: board.description || 'No description.' })),
      follow);
  }

  const p = pager({
    list,
    signal,
    fetchPage: (cursor) => read(`/v1/users/${seg(user.id)}/boards${pageQuery(25, cursor)}`, { signal }),
    key: (b) => String(b.id),
    render: boardItem,
    empty: h('p', { class: 'empty-title', text: mine ? 'You have no boards yet: create a pin to make one.' : 'No boards yet.' }),
    endText: 'That is every board.',
  });
  listView.append(list, p.footer);
  panel.append(listView);
  p.reload();
  return panel;
}
