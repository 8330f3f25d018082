// In-memory caches of users, boards and my likes; lookups run at most 6 at a time.

import { read, seg, session, onSessionClear, pageQuery } from './api.js';

function limiter(max) {
  let active = 0;
  const queue = [];
  const next = () => {
    if (active >= max || queue.length === 0) return;
    active++;
    const { fn, resolve, reject } = queue.shift();
    fn().then(resolve, reject).finally(() => { active--; next(); });
  };
  return (fn) => new Promise((resolve, reject) => { queue.push({ fn, resolve, reject }); next(); });
}

/** Shared by every small lookup the cards and lists make. */
export const limited = limiter(6);

const users = new Map();
const boards = new Map();

function cached(map, key, load) {
  let p = map.get(key);
  if (!p) {
    p = limited(load);
    map.set(key, p);
    p.catch(() => map.delete(key)); // a failure is not remembered
  }
  return p;
}

export const getUser = (id) => cached(users, String(id), () => read(`/v1/users/${seg(id)}`));
export const getBoard = (id) => cached(boards, String(id), () => read(`/v1/boards/${seg(id)}`));

export function rememberUser(user) {
  if (user && user.id != null) users.set(String(user.id), Promise.resolve(user));
}
export function rememberBoard(board) {
  if (board && board.id != null) boards.set(String(board.id), Promise.resolve(board));
}

// The pins I like: the first 250 (newest) of /likes, then kept up to date by my own toggles.
let likes = null;
export function myLikes() {
  if (!likes) {
    const me = session.me;
    likes = read(`/v1/users/${seg(me)}/likes${pageQuery(250)}`)
      .then((page) => new Set((page.items || []).map((i) => String(typeof i === 'object' ? i.pinId ?? i.id : i))))
      .catch(() => new Set());
  }
  return likes;
}
export function forgetLikes() { likes = null; }

onSessionClear(() => { users.clear(); boards.clear(); likes = null; });
