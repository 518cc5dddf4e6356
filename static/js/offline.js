/* The report form on a weak signal, loaded after the page is ready (by report.js on the
   form; directly on "My reports"). Needs drafts.js first.
   - Registers the service worker, so the form opens offline once visited.
   - Keeps what is typed as a draft on this phone until it is sent or discarded.
   - Keeps a report that could not be sent, and sends it when the network is back: by the
     service worker's Background Sync where the browser has it, and in any case here, when
     the page is opened or goes online (headless Chromium never fires Background Sync; the
     tests rely on this path). The submission key makes a report sent twice one case.
   - "My reports": the reports the person chose to keep on this phone. */
(() => {
  'use strict';
  const D = window.Drafts, $ = (id) => document.getElementById(id);
  const host = document.querySelector('[data-form-url]');
  if (!D || !host || !window.indexedDB) return;
  const formUrl = host.dataset.formUrl, form = host.tagName === 'FORM' ? host : null;
  const notice = $('offline-notice');
  const el = (tag, props, ...kids) => { const e = Object.assign(document.createElement(tag), props); e.append(...kids); return e; };
  const day = (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

  function say(...parts) {
    if (!notice) return;
    notice.textContent = '';
    notice.append(el('p', {}, ...parts));
  }

  if ('serviceWorker' in navigator && host.dataset.sw) {
    navigator.serviceWorker.register(host.dataset.sw, { scope: formUrl }).catch(() => {});
    navigator.serviceWorker.addEventListener('message', (e) => e.data && e.data.sent && told(e.data.sent));
  }

  function told(results) {
    const parts = [];
    for (const r of results) {
      if (r.url) parts.push('Your report saved on this phone has been sent' + (r.reference ? ` (${r.reference}). ` : '. '),
        el('a', { href: r.url, textContent: 'See it and keep its status link' }), '. ');
      else if (r.problem) parts.push('A report saved on this phone could not be sent as it is. ',
        el('button', { type: 'button', className: 'button-secondary', textContent: 'Put it back in the form', onclick: reopen }), ' ');
    }
    if (parts.length) say(...parts);
  }

  let sending = false;
  async function sendSaved() {
    if (sending || !navigator.onLine) return;
    sending = true;
    try { told(await D.flush(formUrl)); } catch (e) { /* still offline: next time */ } finally { sending = false; }
  }

  async function waiting() {
    const n = (await D.all('outbox')).filter((i) => !i.problem).length;
    if (n && !navigator.onLine) say(`${n === 1 ? 'One report is' : n + ' reports are'} saved on this phone; sent when you are back online.`);
  }

  addEventListener('online', sendSaved);

  if (form) {
    const R = window.reportForm;
    const SKIP = ['csrf_token', 'submission_key', 'kept_photos', 'nickname'];
    const typed = () => R.fields().filter(([n]) => !SKIP.includes(n));
    const photos = () => R.photos.map((p) => ({ name: p.name, blob: p.blob }));
    const keyField = form.elements.submission_key;

    function clear() {
      form.reset();
      R.photos.splice(0).forEach((p) => URL.revokeObjectURL(p.url));
      R.showPhotos();
    }

    function fill(saved) {
      for (const e of form.elements) if (e.type === 'checkbox' || e.type === 'radio') e.checked = false;
      for (const [name, value] of saved.fields) {
        for (const e of form.querySelectorAll(`[name="${name}"]`)) {
          if (e.type === 'checkbox' || e.type === 'radio') e.checked = e.checked || e.value === value;
          else e.value = value;
        }
      }
      saved.photos.forEach((p) => R.addPhoto(p.blob, p.name));
      R.showPhotos();
    }

    let timer;
    form.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => D.put('draft', 'current', { fields: typed(), photos: photos(), saved: new Date().toISOString() }), 500);
    });

    const discard = el('button', { type: 'button', className: 'button-secondary', textContent: 'Discard it' });
    discard.addEventListener('click', async () => {
      clearTimeout(timer);
      await D.remove('draft', 'current');
      clear();
      say('The draft is gone from this phone.');
    });

    // Kept when a send failed (report.js calls this); the form is cleared for another one.
    window.reportOffline = {
      async keep(fields, list) {
        clearTimeout(timer);
        const key = keyField.value;
        await D.put('outbox', key, { key, fields, photos: list.map((p) => ({ name: p.name, blob: p.blob })), saved: new Date().toISOString() });
        await D.remove('draft', 'current');
        clear();
        const bytes = crypto.getRandomValues(new Uint8Array(18));
        keyField.value = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_');
        say('Saved on this phone; it will be sent when you are back online. You can close this page.');
        notice.focus();
        navigator.serviceWorker && navigator.serviceWorker.ready
          .then((r) => r.sync && r.sync.register('send-reports')).catch(() => {});
        sendSaved();
      }
    };

    async function reopen() {
      const item = (await D.all('outbox')).find((i) => i.problem);
      if (!item) return;
      await D.remove('outbox', item.key);
      clear();
      fill(item);
      keyField.value = item.key;
      say('Your saved report is back in the form. Check it and press Send report.');
    }

    // A fresh form (not the server's answer to a try) gets back the draft typed earlier.
    (async () => {
      const draft = $('error-summary') || $('expired-notice') ? null : await D.get('draft', 'current');
      if (draft) {
        fill(draft);
        say(`The report you started on ${day(draft.saved)} is filled in from this phone. `, discard);
      }
      await waiting();
      await sendSaved();
    })();
  }

  const mine = $('my-reports');
  if (mine) {
    const list = $('my-reports-list'), forget = $('forget-all'), empty = $('my-reports-empty');
    async function show() {
      const kept = (await D.all('kept')).sort((a, b) => (a.received < b.received ? 1 : -1));
      list.textContent = '';
      for (const r of kept) {
        list.append(el('li', {}, el('a', { href: r.url, className: 'reference-inline', textContent: r.reference }),
          `, sent ${day(r.received)}. Status: ${r.status}` + (r.checked ? ` (checked ${day(r.checked)}).` : '.')));
      }
      empty.hidden = kept.length > 0;
      forget.hidden = kept.length === 0;
      mine.hidden = false;
      for (const e of document.querySelectorAll('.js-needed')) e.hidden = true;
      return kept;
    }
    forget.addEventListener('click', async () => {
      await D.clear('kept');
      await show();
      say('This phone no longer keeps any of your reports.');
      empty.focus();
    });
    show().then(async (kept) => {
      if (!navigator.onLine) return;
      for (const r of kept) {
        const res = await fetch(r.url + 'status.json', { cache: 'no-store' }).catch(() => null);
        if (res && res.ok) {
          const s = await res.json();
          await D.put('kept', r.reference, { ...r, status: s.status, checked: new Date().toISOString() });
        }
      }
      await show();
    });
    sendSaved();
  }
})();
