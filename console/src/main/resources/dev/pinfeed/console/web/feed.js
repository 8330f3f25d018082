// The home feed: pin cards paged by cursor, new pins first, each pin once.

import { read, seg, session, pageQuery } from './api.js';
import { forgetLikes } from './cache.js';
import { h } from './ui.js';
import { pinCard, pinGrid } from './cards.js';
import { pager } from './paged.js';
import { openCreatePin } from './createpin.js';

export function feedView(main, { config, signal }) {
  const me = session.me;
  const grid = pinGrid({ id: 'feed', 'aria-label': 'Pins in your feed', 'aria-busy': 'false' });
  const status = h('p', { id: 'feed-status', class: 'feed-status', role: 'status' });
  const suggestions = (config.suggestedUsers || []).filter((u) => u !== session.user.username).slice(0, 6);
  const empty = h('div', { class: 'empty-state' },
    h('p', { class: 'empty-title', text: 'Follow some people to fill your feed' }),
    suggestions.length ? h('p', null, 'Try ', suggestions.map((u, i) => [i ? ', ' : '', h('a', { href: `#/u/${encodeURIComponent(u)}`, text: u })]), '.') : null);

  const list = pager({
    list: grid,
    signal,
    fetchPage: (cursor) => read(`/v1/users/${seg(me)}/feed${pageQuery(25, cursor)}`, { signal }),
    key: (item) => String(item.pin && item.pin.id),
    render: (item) => (item.pin ? pinCard(item.pin, { source: item.source, score: item.score }) : null),
    ids: { more: 'load-more', end: 'feed-end' },
    endText: "You're all caught up",
    empty,
  });

  const refresh = h('button', { type: 'button', id: 'refresh-feed', class: 'btn', text: 'Refresh' });
  refresh.addEventListener('click', async () => {
    refresh.disabled = true;
    status.textContent = 'Refreshing…';
    forgetLikes();
    await list.reload();
    refresh.disabled = false;
    status.textContent = '';
  });
  const create = h('button', { type: 'button', id: 'create-pin', class: 'btn btn-primary', text: 'Create pin' });
  create.addEventListener('click', () => openCreatePin({
    onPublished: () => { status.textContent = 'Published — followers see it in a few seconds'; },
  }));

  main.append(h('section', { class: 'page' },
    h('div', { class: 'page-head' },
      h('h1', { tabindex: '-1', text: 'Home feed' }),
      h('div', { class: 'actions' }, refresh, create)),
    status,
    grid,
    list.footer));
  list.reload();
}
