// The "Create pin" dialog: pick one of my boards (or create the first), then publish.

import { read, write, seg, session, pageQuery, isAbort } from './api.js';
import { rememberBoard } from './cache.js';
import { h, problemText, toast } from './ui.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until a just-created board can be read (writes are asynchronous), up to ~15 s. */
async function boardReadable(id) {
  for (let i = 0; i < 30; i++) {
    try {
      const b = await read(`/v1/boards/${seg(id)}`);
      rememberBoard(b);
      return true;
    } catch (e) {
      if (e.status && e.status !== 404) throw e;
    }
    await sleep(500);
  }
  return false;
}

function field(label, control, hint) {
  return h('div', { class: 'field' }, h('label', { for: control.id, text: label }), control, hint ? h('p', { class: 'hint', text: hint }) : null);
}

export function openCreatePin({ onPublished } = {}) {
  const me = session.me;
  const status = h('p', { class: 'form-status', role: 'status' });
  const error = h('p', { class: 'field-error', role: 'alert' });
  const details = h('textarea', { id: 'pin-details', name: 'details', rows: 3, required: true, maxlength: 500 });
  const link = h('input', { id: 'pin-link', name: 'link', type: 'url', placeholder: 'https://…', inputmode: 'url' });
  const image = h('input', { id: 'pin-image', name: 'imageUrl', type: 'url', placeholder: 'https://…/image.jpg', inputmode: 'url' });
  const board = h('select', { id: 'pin-board', name: 'boardId', required: true, disabled: true }, h('option', { value: '', text: 'Loading your boards…' }));
  const boardName = h('input', { id: 'new-board-name', name: 'name', type: 'text', maxlength: 100 });
  const createBoard = h('button', { type: 'button', class: 'btn', id: 'create-board', text: 'Create board' });
  const newBoard = h('div', { class: 'new-board', hidden: true },
    h('p', { class: 'hint', text: 'You have no board yet: create one first.' }),
    field('New board name', boardName), createBoard);
  const publish = h('button', { type: 'submit', class: 'btn btn-primary', id: 'publish-pin', text: 'Publish' });
  const cancel = h('button', { type: 'button', class: 'btn btn-quiet', text: 'Cancel' });
  const form = h('form', { class: 'dialog-form', novalidate: true },
    h('h2', { id: 'create-pin-title', text: 'Create pin' }),
    field('Details', details),
    field('Board', board), newBoard,
    field('Image URL (optional)', image),
    field('Link (optional)', link),
    error, status,
    h('div', { class: 'dialog-actions' }, cancel, publish));
  const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': 'create-pin-title' }, form);
  const opener = document.activeElement;
  document.body.append(dialog);
  const done = () => { dialog.remove(); if (opener && opener.isConnected) opener.focus(); };
  const close = () => { if (typeof dialog.close === 'function' && dialog.open) dialog.close(); else done(); };
  dialog.addEventListener('close', done);
  cancel.addEventListener('click', close);
  if (typeof dialog.showModal === 'function') dialog.showModal(); else dialog.setAttribute('open', '');
  details.focus();

  const addBoard = (b, select = false) => {
    const opt = h('option', { value: String(b.id), text: b.name });
    board.append(opt);
    if (select) board.value = String(b.id);
  };

  read(`/v1/users/${seg(me)}/boards${pageQuery(250)}`).then((page) => {
    board.replaceChildren();
    const boards = page.items || [];
    boards.forEach((b) => { rememberBoard(b); addBoard(b); });
    board.disabled = boards.length === 0;
    newBoard.hidden = boards.length > 0;
    if (!boards.length) board.append(h('option', { value: '', text: 'No boards yet' }));
  }).catch((e) => {
    if (!isAbort(e)) error.textContent = `Could not read your boards: ${problemText(e)}`;
  });

  createBoard.addEventListener('click', async () => {
    const name = boardName.value.trim();
    error.textContent = '';
    if (!name) { error.textContent = 'Give the board a name.'; boardName.focus(); return; }
    createBoard.disabled = true;
    status.textContent = 'Creating the board…';
    try {
      const answer = await write('POST', '/v1/boards', { ownerId: me, name });
      const id = String(answer.id);
      status.textContent = 'Board created; waiting for it to appear…';
      if (!(await boardReadable(id))) throw new Error('the board is not readable yet: try again in a moment');
      board.replaceChildren();
      addBoard({ id, name }, true);
      board.disabled = false;
      newBoard.hidden = true;
      status.textContent = `Board “${name}” is ready.`;
    } catch (e) {
      error.textContent = problemText(e);
      status.textContent = '';
    } finally {
      createBoard.disabled = false;
    }
  });

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    const body = { boardId: board.value, authorId: me, details: details.value.trim() };
    if (!body.details) { error.textContent = 'Write some details.'; details.focus(); return; }
    if (!body.boardId) { error.textContent = 'Choose a board (or create one).'; (newBoard.hidden ? board : boardName).focus(); return; }
    if (link.value.trim()) body.link = link.value.trim();
    if (image.value.trim()) body.imageUrl = image.value.trim();
    publish.disabled = true;
    status.textContent = 'Publishing…';
    try {
      await write('POST', '/v1/pins', body);
      toast('Published — followers see it in a few seconds');
      if (onPublished) onPublished();
      close();
    } catch (e) {
      error.textContent = problemText(e);
      status.textContent = '';
      publish.disabled = false;
    }
  });
}
