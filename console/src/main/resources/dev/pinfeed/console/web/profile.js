// A user's profile: counts, Follow/Unfollow, and tabs for pins, boards, followers and (mine) following.

import { read, seg, session, isAbort, ApiError } from './api.js';
import { rememberUser } from './cache.js';
import { h, loading, errorBox, problemText } from './ui.js';
import { followToggle } from './follow.js';
import { boardsPanel, pinList } from './boards.js';
import { edgeList, followersPath, avatar } from './people.js';

const COUNTS = [
  ['followers', 'follower', 'followers'],
  ['followingUsers', 'following', 'following'],
  ['followingBoards', 'board followed', 'boards followed'],
  ['boards', 'board', 'boards'],
  ['pins', 'pin', 'pins'],
  ['likes', 'like', 'likes'],
];

function countsList(counts) {
  return COUNTS.map(([key, one, many]) => {
    const n = Number(counts[key]) || 0;
    return h('li', { 'data-count': key }, h('strong', { text: n.toLocaleString() }), ' ', n === 1 ? one : many);
  });
}

/** Tabs that follow the ARIA tabs pattern; panels are built the first time they are shown. */
function tabs(defs, label) {
  const list = h('div', { class: 'tabs', role: 'tablist', 'aria-label': label });
  const panels = h('div', { class: 'tab-panels' });
  const entries = defs.map(([key, text, build]) => {
    const tab = h('button', { type: 'button', role: 'tab', id: `tab-${key}`, class: 'tab', 'aria-controls': `panel-${key}`, 'aria-selected': 'false', tabindex: '-1', text });
    const panel = h('div', { role: 'tabpanel', id: `panel-${key}`, class: 'tab-panel', 'aria-labelledby': `tab-${key}`, tabindex: '0', hidden: true });
    list.append(tab);
    panels.append(panel);
    return { tab, panel, build, built: false };
  });
  const select = (i, focus) => {
    entries.forEach((e, j) => {
      const on = i === j;
      e.tab.setAttribute('aria-selected', String(on));
      e.tab.tabIndex = on ? 0 : -1;
      e.panel.hidden = !on;
      if (on && !e.built) { e.built = true; e.panel.append(e.build()); }
    });
    if (focus) entries[i].tab.focus();
  };
  entries.forEach((e, i) => {
    e.tab.addEventListener('click', () => select(i, false));
    e.tab.addEventListener('keydown', (ev) => {
      const n = entries.length;
      const to = { ArrowRight: (i + 1) % n, ArrowLeft: (i - 1 + n) % n, Home: 0, End: n - 1 }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      select(to, true);
    });
  });
  select(0, false);
  return h('div', { class: 'tabs-box' }, list, panels);
}

export function profileView(main, { params, signal }) {
  const username = params[0];
  const me = session.me;
  const section = h('section', { class: 'page profile' }, h('h1', { tabindex: '-1', class: 'visually-hidden', text: `@${username}` }), loading('Loading profile…'));
  main.append(section);

  read(`/v1/users/by-username/${seg(username)}`, { signal }).then((user) => {
    rememberUser(user);
    render(user);
  }).catch((e) => {
    if (isAbort(e)) return;
    const notFound = e instanceof ApiError && e.status === 404;
    section.replaceChildren(h('h1', { tabindex: '-1', text: notFound ? 'No such user' : `@${username}` }),
      errorBox(notFound ? `There is no user named ${username}.` : problemText(e)),
      h('p', null, h('a', { href: '#/feed', text: 'Back to the home feed' })));
  });

  function render(user) {
    const id = String(user.id);
    const mine = id === me;
    const counts = h('ul', { class: 'counts', id: 'profile-counts', 'aria-label': 'Counts' });
    const loadCounts = () => read(`/v1/users/${seg(id)}/counts`, { signal })
      .then((c) => counts.replaceChildren(...countsList(c)))
      .catch((e) => { if (!isAbort(e)) counts.replaceChildren(h('li', { class: 'muted', text: `Counts unavailable: ${problemText(e)}` })); });
    loadCounts();

    const follow = mine ? null : followToggle({
      id: 'follow-user',
      signal,
      label: `@${user.username}`,
      path: `/v1/users/${seg(me)}/following/users/${seg(id)}`,
      state: () => read(`/v1/users/${seg(me)}/following/users/${seg(id)}`, { signal }).then((a) => a.following === true),
      after: loadCounts,
    });

    const defs = [
      ['pins', 'Pins', () => pinList(`/v1/users/${seg(id)}/pins`, { signal, label: `Pins by @${user.username}`, emptyText: mine ? 'You have not pinned anything yet.' : 'No pins yet.' })],
      ['boards', 'Boards', () => boardsPanel(user, { signal })],
      ['followers', 'Followers', () => edgeList(followersPath(id), { signal, label: 'Followers', emptyText: 'No followers yet.' })],
    ];
    if (mine) {
      defs.push(['following', 'Following', () => h('div', { class: 'following' },
        h('h2', { text: 'People' }),
        edgeList(`/v1/users/${seg(me)}/following/users`, { signal, label: 'People you follow', emptyText: 'You follow nobody yet.' }),
        h('h2', { text: 'Boards' }),
        edgeList(`/v1/users/${seg(me)}/following/boards`, { signal, kind: 'board', label: 'Boards you follow', emptyText: 'You follow no boards yet.' }))]);
    }

    const joined = user.createdAt ? `Joined ${new Date(user.createdAt).toLocaleDateString(undefined, { year: 'numeric', month: 'long' })}` : null;
    section.replaceChildren(
      h('header', { class: 'profile-head' },
        avatar(user, 'large'),
        h('h1', { tabindex: '-1', text: user.displayName || user.username }),
        h('p', { class: 'muted' }, `@${user.username}`, joined ? ` · ${joined}` : '', mine ? ' · you' : ''),
        counts,
        follow ? h('div', { class: 'profile-actions' }, follow) : null),
      tabs(defs, `@${user.username}`));
    if (document.activeElement === document.body || section.contains(document.activeElement) || document.activeElement === main) {
      section.querySelector('h1').focus({ preventScroll: true });
    }
  }
}
