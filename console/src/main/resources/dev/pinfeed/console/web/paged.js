// A list paged by cursor: loads as its end scrolls into view, with a "Load more" button as the keyboard path.

import { isAbort } from './api.js';
import { h, problemText, toastError } from './ui.js';

/**
 * opts: list (the element items go into), fetchPage(cursor) → {items, cursor}, render(item) → Node|null,
 * key(item) → string (items seen before are skipped), empty (Node shown when there is nothing), endText,
 * ids: {more, end} for the button and the end marker, signal (stops it when the view goes).
 * Returns {footer, reload}. Call reload() to (re)start from the first page.
 */
export function pager(opts) {
  const { list, fetchPage, render, key = null, signal } = opts;
  const ids = opts.ids || {};
  const seen = new Set();
  let cursor = null;
  let done = false;
  let loading = false;
  let count = 0;
  let generation = 0;

  const status = h('p', { class: 'pager-status', role: 'status' });
  const more = h('button', { type: 'button', class: 'btn load-more', id: ids.more, text: opts.moreText || 'Load more' });
  const end = h('p', { class: 'list-end', id: ids.end, hidden: true, text: opts.endText || "You're all caught up" });
  const emptyBox = h('div', { class: 'empty-box', hidden: true }, opts.empty || null);
  const sentinel = h('div', { class: 'sentinel', 'aria-hidden': 'true' });
  const footer = h('div', { class: 'pager-footer' }, emptyBox, status, more, end, sentinel);
  more.addEventListener('click', () => load());

  let io = null;
  if ('IntersectionObserver' in window) {
    io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) load();
    }, { rootMargin: '0px 0px 600px 0px' });
  }
  signal?.addEventListener('abort', () => io?.disconnect());

  function update() {
    more.hidden = done;
    more.disabled = loading;
    end.hidden = !done;
    emptyBox.hidden = !(done && count === 0);
    status.textContent = loading ? 'Loading…' : '';
  }

  async function load() {
    if (loading || done || signal?.aborted) return;
    loading = true;
    update();
    const mine = generation;
    let added = 0;
    let received = 0;
    try {
      const page = await fetchPage(cursor);
      if (mine !== generation || signal?.aborted) return;
      received = (page.items || []).length;
      for (const item of page.items || []) {
        if (key) {
          const k = key(item);
          if (seen.has(k)) continue;
          seen.add(k);
        }
        const node = render(item);
        if (node) { list.append(node); count++; added++; }
      }
      cursor = page.cursor ?? null;
      done = cursor === null;
    } catch (e) {
      if (isAbort(e) || mine !== generation) return;
      toastError(e, 'Could not load more');
      loading = false;
      update();
      status.textContent = `Could not load: ${problemText(e)}`;
      return;
    }
    loading = false;
    update();
    // Re-observing makes the observer report again: the next page loads if the end is still in view.
    if (io && !done && received > 0) { io.unobserve(sentinel); io.observe(sentinel); }
  }

  function reload() {
    generation++;
    seen.clear();
    cursor = null;
    done = false;
    loading = false;
    count = 0;
    list.replaceChildren();
    update();
    if (io) { io.unobserve(sentinel); io.observe(sentinel); }
    return load();
  }

  update();
  return { footer, reload, load };
}
