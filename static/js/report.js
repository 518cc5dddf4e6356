/* Enhancements to the report form; the form works fully without them.
   - A gentle hint when the description sounds like a discharge the law allows.
   - Photos made smaller in the phone before sending (longest side 2,048 px, JPEG, turned
     the right way up, camera details dropped), each with a thumbnail, its size and a
     Remove button; a photo still too large is refused before anything is sent.
   - Sending with a progress bar; a report that cannot be sent is kept on the phone by
     offline.js, loaded (with drafts.js) once the page is ready. */
(() => {
  'use strict';

  const MAX_SIDE = 2048;
  const $ = (id) => document.getElementById(id);

  function exemptHint() {
    const text = document.querySelector('[data-exempt-keywords]');
    if (!text) return;
    const target = $(text.dataset.hintTarget);
    const entries = JSON.parse(text.dataset.exemptKeywords);
    const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    let shown = '', timer;
    function update() {
      const said = text.value.toLowerCase();
      const names = entries.filter((e) => e[1].some((w) =>
        new RegExp('\\b' + escape(w.toLowerCase()) + '\\b').test(said))).map((e) => e[0]).join(', ');
      if (names === shown) return; // unchanged: do not make screen readers repeat it
      shown = names;
      target.textContent = '';
      if (!names) return;
      const p = document.createElement('p'), strong = document.createElement('strong');
      const link = Object.assign(document.createElement('a'),
        { href: text.dataset.exemptUrl, textContent: 'See what may go down a storm drain' });
      strong.textContent = 'Good to know:';
      p.append(strong, ' some discharges are allowed, such as ' + names +
        '. If that is what you saw, you may not need to report it. ', link, '. You can still send your report.');
      target.append(p);
    }
    text.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(update, 400); });
  }

  const kb = (n) => (n < 1048576 ? Math.max(1, Math.round(n / 1024)) + ' KB' : (n / 1048576).toFixed(1) + ' MB');

  /* A photo as a JPEG whose longest side is at most MAX_SIDE; drawing it on a canvas
     applies its orientation and leaves its metadata (location, camera) behind. */
  async function resize(file) {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d').drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise((ok) => canvas.toBlob(ok, 'image/jpeg', 0.85));
    if (!blob) throw new Error('not encoded');
    return blob;
  }

  const photos = []; // {name, blob, url}
  let form, input, list, problems;

  function showPhotos() {
    list.textContent = '';
    photos.forEach((photo, i) => {
      const li = document.createElement('li');
      const img = Object.assign(document.createElement('img'), { src: photo.url, alt: '', width: 64, height: 64 });
      const name = Object.assign(document.createElement('span'), { textContent: photo.name + ' (' + kb(photo.blob.size) + ')' });
      const remove = Object.assign(document.createElement('button'),
        { type: 'button', className: 'button-secondary', textContent: 'Remove' });
      remove.setAttribute('aria-label', 'Remove ' + photo.name);
      remove.addEventListener('click', () => {
        URL.revokeObjectURL(photo.url);
        photos.splice(i, 1);
        showPhotos();
        input.focus();
        changed();
      });
      li.append(img, name, remove);
      list.append(li);
    });
    list.hidden = !photos.length;
  }

  const changed = () => input.form.dispatchEvent(new Event('input'));

  function addPhoto(blob, name) {
    photos.push({ name, blob, url: URL.createObjectURL(blob) });
  }

  async function photosChosen() {
    const maxFiles = Number(input.dataset.maxFiles), maxBytes = Number(input.dataset.maxBytes);
    const said = [];
    for (const file of input.files) {
      if (photos.length >= maxFiles) { said.push(`${file.name}: you can attach up to ${maxFiles} photos.`); continue; }
      let blob = file;
      try { blob = await resize(file); } catch (e) { /* not a picture the browser reads: the server decides */ }
      if (blob.size > maxBytes) said.push(`${file.name} is ${kb(file.size)}, over the ${kb(maxBytes)} limit. Choose a smaller photo.`);
      else addPhoto(blob, blob === file ? file.name : file.name.replace(/\.\w+$/, '') + '.jpg');
    }
    input.value = '';
    problems.textContent = said.join(' ');
    problems.hidden = !said.length;
    showPhotos();
    changed();
  }

  function photoList() {
    if (!input) return;
    list = Object.assign(document.createElement('ul'), { className: 'photo-list', hidden: true });
    list.setAttribute('aria-label', 'Photos to send');
    problems = Object.assign(document.createElement('p'), { className: 'error-message', id: 'photos-problems', hidden: true });
    problems.setAttribute('role', 'alert');
    input.before(problems);
    input.after(list);
    input.addEventListener('change', photosChosen);
    // A form sent the usual way (not by send() below) carries the smaller photos too.
    input.form.addEventListener('submit', (e) => {
      if (e.defaultPrevented || !window.DataTransfer) return;
      const dt = new DataTransfer();
      photos.forEach((p) => dt.items.add(new File([p.blob], p.name, { type: p.blob.type })));
      input.files = dt.files;
    });
  }

  /* What the form holds, as offline.js keeps it: [[name, value]] and the photos. */
  function fields() {
    return [...new FormData(form)].filter(([n, v]) => typeof v === 'string' && n !== 'csrf_token');
  }

  function body() {
    const data = new FormData(form);
    data.delete('photos');
    photos.forEach((p) => data.append('photos', p.blob, p.name));
    return data;
  }

  function send(event) {
    const bar = $('send-progress'), say = $('send-status'), box = bar && bar.parentElement;
    if (!bar || !window.FormData) return;
    event.preventDefault();
    const button = form.querySelector('[type=submit]');
    let retried = false, stall, spoken = 0;
    const data = body();
    const done = () => { clearTimeout(stall); button.disabled = false; box.hidden = true; };
    const failed = () => {
      done();
      if (window.reportOffline) window.reportOffline.keep(fields(), photos);
      else say.textContent = 'Your report could not be sent. Check your connection and press Send again.';
    };
    function go() {
      const xhr = new XMLHttpRequest();
      const watch = () => { clearTimeout(stall); stall = setTimeout(() => xhr.abort(), 30000); };
      xhr.open('POST', form.action);
      xhr.upload.onprogress = (e) => {
        watch();
        if (!e.lengthComputable) return;
        const part = Math.round((100 * e.loaded) / e.total);
        bar.value = part;
        // Said at each quarter, not at every event.
        if (part >= spoken + 25 || part === 100) { spoken = part - (part % 25); say.textContent = `${part}% sent`; }
      };
      xhr.onload = () => {
        if (/\/report\/sent\//.test(xhr.responseURL)) {
          clearTimeout(stall);
          const gone = window.Drafts ? window.Drafts.remove('draft', 'current') : Promise.resolve();
          gone.finally(() => location.assign(xhr.responseURL));
          return;
        }
        const token = /name="csrf_token" type="hidden" value="([^"]+)"/.exec(xhr.responseText);
        if (xhr.status === 400 && token && !retried && xhr.responseText.includes('id="expired-notice"')) {
          // The token expired while the form was open: send again with a fresh one.
          retried = true;
          data.set('csrf_token', token[1]);
          go();
          return;
        }
        done();
        if (xhr.status >= 500 || xhr.status === 429) { failed(); return; }
        // The server's answer (what to fix) replaces the page, as without JavaScript.
        document.open();
        document.write(xhr.responseText);
        document.close();
      };
      xhr.onerror = xhr.onabort = xhr.ontimeout = failed;
      watch();
      xhr.send(data);
    }
    button.disabled = true;
    box.hidden = false;
    bar.value = 0;
    say.textContent = 'Sending your report';
    go();
  }

  function start() {
    form = document.querySelector('form[data-offline-js]');
    input = document.querySelector('input[type=file][data-max-bytes]');
    exemptHint();
    if (form) form.addEventListener('submit', send);
    photoList();
    if (!form) return;
    window.reportForm = { photos, addPhoto, showPhotos, fields };
    // The offline code loads once the page is ready, outside the form's weight budget.
    const load = () => ['draftsJs', 'offlineJs'].reduce((p, key) => p.then(() => new Promise((ok, fail) => {
      document.head.append(Object.assign(document.createElement('script'),
        { src: form.dataset[key], onload: ok, onerror: fail }));
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
