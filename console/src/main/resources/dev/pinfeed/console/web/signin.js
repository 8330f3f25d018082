// The sign-in page: by user name (dev) or with a reader token.

import { api, session, isAbort } from './api.js';
import { h, problemText } from './ui.js';
import { go } from './router.js';

export function signInView(main, { config, signal }) {
  const dev = config.signIn === 'dev';
  const errorId = 'sign-in-error';
  const error = h('p', { class: 'field-error', id: errorId, role: 'alert' });
  let input;
  if (dev) {
    const users = config.suggestedUsers || [];
    input = h('input', {
      id: 'username', name: 'username', type: 'text', list: 'suggested-users', autocomplete: 'username',
      autocapitalize: 'none', spellcheck: 'false', required: true, value: users[0] || '', 'aria-describedby': errorId,
    });
  } else {
    input = h('textarea', { id: 'token', name: 'token', rows: 5, required: true, spellcheck: 'false', 'aria-describedby': errorId });
  }
  const button = h('button', { type: 'submit', id: 'sign-in', class: 'btn btn-primary', text: 'Sign in' });
  const form = h('form', { class: 'signin-form', novalidate: true },
    h('label', { for: input.id, text: dev ? 'Username' : 'Reader token' }),
    input,
    dev ? h('datalist', { id: 'suggested-users' }, (config.suggestedUsers || []).map((u) => h('option', { value: u }))) : null,
    error,
    button,
    h('p', { class: 'hint', text: dev
      ? 'Development sign-in: any existing user by name, no password.'
      : 'Paste a reader token issued for your user.' }));

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const value = input.value.trim();
    error.textContent = '';
    input.removeAttribute('aria-invalid');
    if (!value) {
      error.textContent = dev ? 'Enter a username.' : 'Paste a token.';
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    button.disabled = true;
    button.textContent = 'Signing in…';
    try {
      const answer = await api('POST', '/api/session', dev ? { username: value } : { token: value }, { signal, expect401: true });
      session.save(answer.token, answer.user);
      go('#/feed');
    } catch (e) {
      if (isAbort(e)) return;
      error.textContent = problemText(e);
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    } finally {
      button.disabled = false;
      button.textContent = 'Sign in';
    }
  });

  main.append(h('section', { class: 'signin' },
    h('div', { class: 'signin-card' },
      h('p', { class: 'signin-logo', 'aria-hidden': 'true', text: 'P' }),
      h('h1', { text: 'Sign in to pinfeed', tabindex: '-1' }),
      form)));
  if (dev) input.select();
}
