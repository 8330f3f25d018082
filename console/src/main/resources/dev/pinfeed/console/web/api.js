// Session storage and the one fetch wrapper every call goes through.

const TOKEN = 'pinfeed.token';
const USER = 'pinfeed.user';

export const session = {
  get token() { return sessionStorage.getItem(TOKEN); },
  get user() {
    try { return JSON.parse(sessionStorage.getItem(USER) || 'null'); } catch { return null; }
  },
  /** The signed-in user's id, a string. */
  get me() { const u = session.user; return u ? String(u.id) : null; },
  save(token, user) {
    sessionStorage.setItem(TOKEN, token);
    sessionStorage.setItem(USER, JSON.stringify(user));
  },
  clear() {
    sessionStorage.removeItem(TOKEN);
    sessionStorage.removeItem(USER);
    for (const fn of clearListeners) fn();
  },
};

const clearListeners = [];
/** Called whenever the session is cleared (sign out, 401): caches forget the old user. */
export function onSessionClear(fn) { clearListeners.push(fn); }

/** An API answer that was not 2xx: status and the problem document (RFC 9457) when there was one. */
export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem || {};
  }
}

export const isAbort = (e) => e && e.name === 'AbortError';

/** One path segment, encoded; ids stay strings. */
export const seg = (v) => encodeURIComponent(String(v));

/**
 * Calls the console's API. JSON in and out; a 401 clears the session and goes to sign-in
 * (unless expect401, for the sign-in form itself).
 */
export async function api(method, path, body, { signal, expect401 = false } = {}) {
  const headers = { Accept: 'application/json, application/problem+json' };
  const token = session.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, credentials: 'same-origin' });
  } catch (e) {
    if (isAbort(e)) throw e;
    throw new ApiError(0, { title: 'Network error', detail: `Could not reach the console (${e.message})` });
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { detail: text.slice(0, 300) }; }
  }
  if (res.ok) return data;
  if (res.status === 401 && !expect401 && session.token === token) {
    // (a late answer to a call made with an older token leaves a newer session alone)
    if (token) session.clear();
    if (location.hash !== '#/signin') location.hash = '#/signin';
  }
  throw new ApiError(res.status, data);
}

export const read = (path, opts) => api('GET', `/api/read${path}`, undefined, opts);
export const write = (method, path, body, opts) => api(method, `/api/write${path}`, body, opts);

/** A `?limit=..&cursor=..` query string. */
export function pageQuery(limit, cursor) {
  return `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
}
