// Hash routes: #/signin, #/feed, #/u/<username>, #/pipeline.

const ROUTES = [
  ['signin', /^#\/signin\/?$/],
  ['feed', /^#\/feed\/?$/],
  ['profile', /^#\/u\/([^/?#]+)\/?$/],
  ['pipeline', /^#\/pipeline\/?$/],
];

/** {name, params} for a location hash; '' and '#/' are 'home', anything else 'notfound'. */
export function parse(hash) {
  if (!hash || hash === '#' || hash === '#/') return { name: 'home', params: [] };
  for (const [name, re] of ROUTES) {
    const m = re.exec(hash);
    if (m) {
      try { return { name, params: m.slice(1).map(decodeURIComponent) }; } catch { break; }
    }
  }
  return { name: 'notfound', params: [] };
}

/** Calls onRoute(route, navigated) now and on every hash change. */
export function startRouter(onRoute) {
  window.addEventListener('hashchange', () => onRoute(parse(location.hash), true));
  onRoute(parse(location.hash), false);
}

export const go = (hash) => { if (location.hash !== hash) location.hash = hash; };
