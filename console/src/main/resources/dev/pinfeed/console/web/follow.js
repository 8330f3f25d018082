// A Follow/Unfollow toggle: optimistic, then re-read once the asynchronous write has had a moment.

import { write, isAbort } from './api.js';
import { h, toastError } from './ui.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * opts: id?, className, onText ('Unfollow'), offText ('Follow'), label (accessible context, e.g. the board name),
 * state() → Promise<boolean>, path (the /api/write path to PUT or DELETE), signal, after() (called after re-reading).
 */
export function followToggle(opts) {
  const { onText = 'Unfollow', offText = 'Follow', state, path, signal, after } = opts;
  const btn = h('button', { type: 'button', id: opts.id, class: `btn follow ${opts.className || ''}`, 'aria-pressed': 'false', disabled: true, text: offText });
  if (opts.label) btn.title = `${offText} ${opts.label}`;
  let busy = false;
  let version = 0;

  const show = (on) => {
    btn.setAttribute('aria-pressed', String(on));
    btn.textContent = on ? onText : offText;
    btn.classList.toggle('btn-primary', !on);
    if (opts.label) btn.title = `${on ? onText : offText} ${opts.label}`;
  };
  show(false);

  state().then((on) => { show(on); btn.disabled = false; }).catch((e) => {
    if (isAbort(e)) return;
    btn.disabled = false;
    btn.title = 'Could not read whether you follow: you may try anyway';
  });

  async function recheck(want, mine) {
    for (const delay of [1000, 2000]) {
      await sleep(delay);
      if (mine !== version || signal?.aborted) return;
      try {
        const on = await state();
        if (mine !== version) return;
        if (on === want || delay === 2000) { show(on); break; }
      } catch { break; }
    }
    if (after && !signal?.aborted) after();
  }

  btn.addEventListener('click', async () => {
    if (busy) return;
    busy = true;
    const want = btn.getAttribute('aria-pressed') !== 'true';
    const mine = ++version;
    show(want); // optimistic
    try {
      await write(want ? 'PUT' : 'DELETE', path);
    } catch (e) {
      show(!want);
      toastError(e, want ? 'Could not follow' : 'Could not unfollow');
      return;
    } finally {
      busy = false;
    }
    recheck(want, mine);
  });
  return btn;
}
