// Entry point: loads /api/config, draws the header and switches views on hash changes.

import { api, session } from './api.js';
import { h, s, errorBox, problemText } from './ui.js';
import { startRouter } from './router.js';
import { signInView } from './signin.js';
import { feedView } from './feed.js';
import { profileView } from './profile.js';
import { pipelineView } from './pipeline.js';

const VIEWS = { signin: signInView, feed: feedView, profile: profileView, pipeline: pipelineView, notfound: notFoundView };
const TITLES = { signin: 'Sign in', feed: 'Home feed', pipeline: 'Pipeline', notfound: 'Not found' };
const PUBLIC = new Set(['signin', 'pipeline', 'notfound']);

const main = document.getElementById('main');
const header = document.getElementById('site-header');
let config = null;
let active = null; // the current view: {controller, dispose}

function logo() {
  return h('a', { class: 'logo', href: session.token ? '#/feed' : '#/signin' },
    s('svg', { viewBox: '0 0 24 24', width: '28', height: '28', 'aria-hidden': 'true', focusable: 'false', class: 'logo-mark' },
      s('circle', { cx: '12', cy: '12', r: '12', fill: '#e60023' }),
      s('path', { d: 'M12.3 5C8.5 5 6.5 7.6 6.5 9.9c0 1.4.5 2.6 1.6 3 .2.1.4 0 .4-.2l.2-.7c.1-.2 0-.3-.1-.5-.3-.4-.5-.9-.5-1.6 0-2.1 1.6-3.9 4-3.9 2.2 0 3.4 1.3 3.4 3.1 0 2.4-1 4.4-2.6 4.4-.9 0-1.5-.7-1.3-1.6.2-1 .7-2.2.7-2.9 0-.7-.4-1.2-1.1-1.2-.9 0-1.6.9-1.6 2.2 0 .8.3 1.3.3 1.3l-1 4.4c-.3 1.3 0 2.9 0 3 0 .1.1.1.2 0 .1-.1 1-1.3 1.4-2.5l.5-2.1c.3.5 1.1 1 1.9 1 2.5 0 4.2-2.3 4.2-5.3C17.8 7.2 15.7 5 12.3 5z', fill: '#fff' })),
    h('span', { text: 'pinfeed' }));
}

function renderHeader(route) {
  const user = session.user;
  const current = (name) => (route.name === name ? 'page' : null);
  const links = [];
  if (user) {
    const mine = route.name === 'profile' && route.params[0] === user.username;
    links.push(h('li', null, h('a', { id: 'nav-feed', href: '#/feed', 'aria-current': current('feed'), text: 'Home feed' })));
    links.push(h('li', null, h('a', { id: 'nav-profile', href: `#/u/${encodeURIComponent(user.username)}`, 'aria-current': mine ? 'page' : null, text: 'My profile' })));
  }
  links.push(h('li', null, h('a', { id: 'nav-pipeline', href: '#/pipeline', 'aria-current': current('pipeline'), text: 'Pipeline' })));
  const docs = Object.entries((config && config.docs) || {});
  if (docs.length) {
    links.push(h('li', null, h('details', { class: 'docs-menu' },
      h('summary', { text: 'API docs' }),
      h('ul', { class: 'docs-list' }, docs.map(([name, url]) => h('li', null,
        h('a', { href: url, target: '_blank', rel: 'noopener noreferrer', text: `${name} ↗` })))))));
  }
  const userBox = user
    ? h('div', { class: 'user-box' },
      h('span', { class: 'user-name', title: user.displayName || user.username, text: `@${user.username}` }),
      h('button', { type: 'button', id: 'sign-out', class: 'btn btn-quiet', text: 'Sign out', on: { click: signOut } }))
    : (route.name !== 'signin' ? h('div', { class: 'user-box' }, h('a', { class: 'btn btn-primary', href: '#/signin', text: 'Sign in' })) : null);
  header.replaceChildren(h('div', { class: 'header-inner' },
    logo(),
    h('nav', { 'aria-label': 'Main' }, h('ul', { class: 'nav-links' }, links)),
    userBox));
}

function signOut() {
  session.clear();
  location.hash = '#/signin';
}

function notFoundView(root) {
  root.append(h('section', { class: 'page narrow' },
    h('h1', { tabindex: '-1', text: 'Page not found' }),
    h('p', null, 'Nothing lives at this address. ', h('a', { href: '#/feed', text: 'Back to the home feed' }))));
}

function show(route, navigated) {
  if (route.name === 'home' || (route.name === 'signin' && session.token)) {
    location.replace(session.token ? '#/feed' : '#/signin');
    return;
  }
  if (!session.token && !PUBLIC.has(route.name)) {
    location.replace('#/signin');
    return;
  }
  if (active) {
    active.controller.abort();
    if (typeof active.dispose === 'function') active.dispose();
  }
  const controller = new AbortController();
  active = { controller, dispose: null };
  renderHeader(route);
  main.replaceChildren();
  main.dataset.view = route.name;
  document.title = `${route.name === 'profile' ? `@${route.params[0]}` : TITLES[route.name]} · pinfeed`;
  active.dispose = VIEWS[route.name](main, { params: route.params, config, signal: controller.signal });
  if (navigated) {
    window.scrollTo(0, 0);
    // Screen readers start at the new page's heading, unless the view focused something itself.
    if (!main.contains(document.activeElement)) (main.querySelector('h1') || main).focus({ preventScroll: true });
  }
}

async function boot() {
  main.replaceChildren(h('p', { class: 'loading', role: 'status', text: 'Loading…' }));
  try {
    config = await api('GET', '/api/config', undefined, { expect401: true });
  } catch (e) {
    renderHeader({ name: 'notfound', params: [] });
    main.replaceChildren(h('section', { class: 'page narrow' },
      h('h1', { text: 'The console is not answering' }),
      errorBox(problemText(e)),
      h('button', { type: 'button', class: 'btn btn-primary', text: 'Try again', on: { click: boot } })));
    return;
  }
  config.refreshMillis = Number(config.refreshMillis) > 0 ? Number(config.refreshMillis) : 2000;
  startRouter(show);
}

// The API docs menu closes on Escape and on a click elsewhere.
document.addEventListener('click', (e) => {
  for (const d of document.querySelectorAll('details.docs-menu[open]')) if (!d.contains(e.target)) d.open = false;
});
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape') return;
  for (const d of document.querySelectorAll('details.docs-menu[open]')) {
    d.open = false;
    d.querySelector('summary').focus();
  }
});

document.querySelector('.skip-link')?.addEventListener('click', (e) => {
  e.preventDefault();
  main.focus();
  main.scrollIntoView();
});

boot();
