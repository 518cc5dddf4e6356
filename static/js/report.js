/* Enhancements to the report form (and the photos of the business form and the screening
   sheet); the forms work fully without them.
   - A gentle hint when the description sounds like a discharge the law allows, and how
     many characters are left.
   - The optional groups (<details>) say in their summary whether something in them is
     filled in.
   - Photos made smaller in the phone before sending: to the size the server keeps
     (data-max-side), as JPEG at a quality lowered until the photo is about
     data-target-bytes and never over data-limit-bytes; turned the right way up, camera
     details dropped; each with a thumbnail, its size and a Remove button, behind an
     "Add a photo" button. A photo still too large, or a file that is no photo the server
     reads, is refused as it is chosen, never listed.
   - Loads, once the page is ready, drafts.js, offline.js (the report kept on the phone)
     and send.js (sending with a progress bar). */
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const el = (tag, props, ...kids) => { const e = Object.assign(document.createElement(tag), props); e.append(...kids); return e; };
  // On a page not in English, its words (data-words on this script's tag); else these.
  const me = document.currentScript;
  const say = Object.assign({
    good: 'Good to know:', see: 'See what may go down a storm drain', still: '. You can still send your report.',
    allowed: ' some discharges are allowed, such as {names}. If that is what you saw, you may not need to report it. ',
    left1: '{n} character left', left: '{n} characters left', over1: '{n} character too many', over: '{n} characters too many',
    remove: 'Remove', removeName: 'Remove {name}', add: 'Add a photo', another: 'Add another photo', list: 'Photos to send',
    tooMany: 'Photos over the limit, not added: {k}.', tooBig: '{name} is {size}, over the {limit} limit. Choose a smaller photo.',
    notPhoto: 'This file is not a photo we can read. Attach a JPEG, PNG, WebP or GIF image.',
  }, JSON.parse((me && me.dataset.words) || '{}'));
  const fillIn = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => values[k]);
  const lang = document.documentElement.lang || 'en';

  function exemptHint() {
    const text = document.querySelector('[data-exempt-keywords]');
    if (!text) return;
    const target = $(text.dataset.hintTarget);
    const entries = JSON.parse(text.dataset.exemptKeywords);
    const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // As the server reads it: any case, accents or none ("tuberia" is "tubería").
    const plain = (s) => s.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    let shown = '', timer;
    const word = (w) => new RegExp('\\b' + escape(plain(w)) + '\\b', 'g');
    const has = (ws, s) => ws.some((w) => word(w).test(s));
    function update() {
      const said = plain(text.value);
      const names = entries.filter(([, k, u = []]) => has(k, said) && !has(u, said))
        .map((e) => e[0]).join(', ');
      if (names === shown) return; // unchanged: do not make screen readers repeat it
      shown = names;
      target.textContent = '';
      if (!names) return;
      const link = el('a', { href: text.dataset.exemptUrl, textContent: say.see });
      target.append(el('p', {}, el('strong', { textContent: say.good }), fillIn(say.allowed, { names }), link, say.still));
    }
    text.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(update, 400); });
  }

  /* "120 characters left" near the limit, "35 characters too many" past it: the text is
     never cut off (the server says the same next to the field if it is sent too long). */
  function counter() {
    const text = document.querySelector('textarea[data-limit]');
    if (!text) return;
    const limit = Number(text.dataset.limit);
    const line = el('p', { className: 'char-count', id: text.id + '-count' });
    line.setAttribute('aria-live', 'polite');
    text.after(line);
    text.setAttribute('aria-describedby', [text.getAttribute('aria-describedby'), line.id].filter(Boolean).join(' '));
    let timer;
    function update() {
      const left = limit - text.value.length;
      line.classList.toggle('char-count-over', left < 0);
      const n = Math.abs(left).toLocaleString(lang);
      line.textContent = left < 0 ? fillIn(left === -1 ? say.over1 : say.over, { n })
        : left <= limit / 10 ? fillIn(left === 1 ? say.left1 : say.left, { n }) : '';
    }
    // Read out once typing pauses, not at every key.
    text.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(update, 600); });
    update();
  }

  /* Each optional group's summary says "filled in" once something in it is answered
     (a field that comes filled in, such as "now", counts once it is changed). */
  function groups(form) {
    const all = [...form.querySelectorAll('details[data-group]')];
    if (!all.length) return () => {};
    const answered = (e) => (e.type === 'checkbox' || e.type === 'radio' ? e.checked
      : e.dataset.prefilled !== undefined ? e.value !== e.defaultValue : !!e.value.trim());
    const update = () => all.forEach((group) => {
      const state = group.querySelector('.group-state');
      if (group.classList.contains('has-error')) return; // "has an error" until it is sent again
      state.textContent = [...group.querySelectorAll('input, select, textarea')].some(answered) ? state.dataset.filled : '';
    });
    form.querySelectorAll('details[data-group] input[type=datetime-local]').forEach((e) => { e.dataset.prefilled = ''; });
    form.addEventListener('input', update);
    form.addEventListener('change', update);
    return update;
  }

  const kb = (n) => (n < 1048576 ? Math.max(1, Math.round(n / 1024)) + ' KB'
    : (n / 1048576).toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) + ' MB');
  const QUALITIES = [0.8, 0.7, 0.6, 0.5, 0.4, 0.3];

  /* A photo as a JPEG at most `side` px long: drawing it on a canvas applies its
     orientation and leaves its metadata (location, camera) behind. The quality goes down
     until it is about `target` bytes (not below 0.6 for that), then, for a photo that
     stays heavy, until it is at most `limit`; then the size goes down too. */
  async function resize(file, side, target, limit) {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    const canvas = document.createElement('canvas');
    try {
      for (let scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height)); ; scale *= 0.75) {
        canvas.width = Math.max(1, Math.round(bitmap.width * scale));
        canvas.height = Math.max(1, Math.round(bitmap.height * scale));
        canvas.getContext('2d').drawImage(bitmap, 0, 0, canvas.width, canvas.height);
        for (const quality of QUALITIES) {
          const blob = await new Promise((ok) => canvas.toBlob(ok, 'image/jpeg', quality));
          if (!blob) throw new Error('not encoded');
          if (blob.size <= target || (quality <= 0.6 && blob.size <= limit)) return blob;
          if (canvas.width < 64) return blob;
        }
      }
    } finally {
      bitmap.close();
    }
  }

  const photos = []; // {name, blob, url}
  let form, input, list, problems, add;

  function showPhotos() {
    list.textContent = '';
    photos.forEach((photo, i) => {
      const img = el('img', { src: photo.url, alt: '', width: 64, height: 64 });
      const name = el('span', { className: 'photo-name', textContent: photo.name });
      const size = el('span', { className: 'photo-size', textContent: ' (' + kb(photo.blob.size) + ')' });
      const remove = el('button', { type: 'button', className: 'button-secondary', textContent: say.remove });
      remove.setAttribute('aria-label', fillIn(say.removeName, { name: photo.name }));
      remove.addEventListener('click', () => {
        URL.revokeObjectURL(photo.url);
        photos.splice(i, 1);
        showPhotos();
        (add || input).focus();
        changed();
      });
      list.append(el('li', {}, img, el('span', { className: 'photo-label' }, name, size), remove));
    });
    list.hidden = !photos.length;
    // The input holds the smaller photos: a form sent the usual way, or from the page with
    // FormData (the screening sheet's form-draft.js), carries them, not the originals.
    if (window.DataTransfer) {
      const dt = new DataTransfer();
      photos.forEach((p) => dt.items.add(new File([p.blob], p.name, { type: p.blob.type })));
      input.files = dt.files;
    }
    if (add) {
      const room = photos.length < Number(input.dataset.maxFiles);
      add.hidden = !room;
      add.textContent = photos.length ? say.another : say.add;
    }
  }

  const changed = () => input && input.form.dispatchEvent(new Event('input'));

  function addPhoto(blob, name) {
    photos.push({ name, blob, url: URL.createObjectURL(blob) });
  }

  // What the server reads, by a file's first bytes (whatever its name): JPEG, PNG, GIF, WebP,
  // and HEIC, which it answers with what to do instead.
  const READABLE = /^(\xff\xd8\xff|\x89PNG|GIF8|RIFF[^]{4}WEBP|[^]{4}ftyp(he[iv]|m[is]f1))/;

  async function photosChosen() {
    const d = input.dataset, maxFiles = Number(d.maxFiles), maxBytes = Number(d.maxBytes);
    const said = [];
    let over = 0;
    for (const file of input.files) {
      if (photos.length >= maxFiles) { over += 1; continue; }
      let blob = file;
      try {
        blob = await resize(file, Number(d.maxSide) || 1600, Number(d.targetBytes) || 409600, Number(d.limitBytes) || 1048576);
      } catch (e) {
        // Not a picture this browser reads, so sent as it is: refused at once if the server
        // would refuse it too (a PDF, a text file named .jpg); else the server decides.
        try {
          if (!READABLE.test(String.fromCharCode(...new Uint8Array(await file.slice(0, 12).arrayBuffer())))) {
            said.push(file.name + ': ' + say.notPhoto);
            continue;
          }
        } catch (e) { /* an older browser */ }
      }
      if (blob.size > maxBytes) said.push(fillIn(say.tooBig, { name: file.name, size: kb(file.size), limit: kb(maxBytes) }));
      else addPhoto(blob, blob === file ? file.name : file.name.replace(/\.\w+$/, '') + '.jpg');
    }
    if (over) said.push(fillIn(say.tooMany, { k: over }));
    input.value = '';
    problems.textContent = said.join(' ');
    problems.hidden = !said.length;
    showPhotos();
    changed();
  }

  function photoList() {
    if (!input) return;
    const hint = $(input.id + '-hint');
    if (hint && input.dataset.hintWithJs) hint.textContent = input.dataset.hintWithJs;
    list = el('ul', { className: 'photo-list', hidden: true });
    list.setAttribute('aria-label', say.list);
    problems = el('p', { className: 'error-message', id: input.id + '-problems', hidden: true });
    problems.setAttribute('role', 'alert');
    // The input itself says "No file chosen" once its photos have moved to the list: a
    // button opens it instead, and the list shows what will be sent.
    add = el('button', { type: 'button', className: 'button-secondary add-photo', textContent: say.add });
    add.setAttribute('aria-describedby', [hint && hint.id, problems.id].filter(Boolean).join(' '));
    add.addEventListener('click', () => input.click());
    input.classList.add('visually-hidden');
    input.tabIndex = -1;
    input.before(problems);
    input.after(add, list);
    input.addEventListener('change', photosChosen);
    showPhotos();
  }

  /* What the form holds, as offline.js keeps it: [[name, value]] and the photos. */
  function fields() {
    return [...new FormData(form)].filter(([n, v]) => typeof v === 'string' && n !== 'csrf_token');
  }

  function start() {
    form = document.querySelector('form[data-offline-js]');
    input = document.querySelector('input[type=file][data-max-bytes]');
    exemptHint();
    counter();
    photoList();
    if (!form) return;
    const update = groups(form);
    // Sent the usual way too (before send.js loads, it keeps the same record when it does):
    // Back then gets this key, and the thanks page drops the draft of these words.
    form.addEventListener('submit', () => {
      try {
        sessionStorage.setItem('report-last-sent', JSON.stringify({ key: form.elements.submission_key.value, description: form.elements.description.value }));
      } catch (e) { /* private mode */ }
    });
    // Back to the form just sent, fetched anew with what was typed put back (by the time
    // of pageshow): it takes the sent report's key (send.js keeps it), so Send again makes
    // no second one. Another form gone back to says something else, and keeps its own.
    addEventListener('pageshow', () => {
      update();
      try {
        const last = JSON.parse(sessionStorage.getItem('report-last-sent'));
        if (last && last.description === form.elements.description.value &&
            performance.getEntriesByType('navigation')[0].type === 'back_forward') form.elements.submission_key.value = last.key;
      } catch (e) { /* no storage: a new report is made, as without JavaScript */ }
    });
    window.reportForm = { photos, addPhoto, showPhotos, fields, changed, groups: update };
    // Sending with progress, and the offline code, load once the page is ready, outside the
    // form's weight budget; until then the form is sent the usual way, photos made smaller.
    const load = () => ['draftsJs', 'offlineJs', 'sendJs'].reduce((p, key) => p.then(() => new Promise((ok, fail) => {
      document.head.append(el('script', { src: form.dataset[key], onload: ok, onerror: fail }));
    })), Promise.resolve()).catch(() => {});
    if (document.readyState === 'complete') load();
    else addEventListener('load', load);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();

  /* After a failed send, take the person to the list of what to fix (it is role=alert too). */
  const focusSummary = () => { const s = $('error-summary'); if (s) s.focus(); };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', focusSummary);
  else focusSummary();
})();
