/* The report form offline (after drafts.js): the draft, and reports kept on the phone,
   sent by Background Sync (then the page may close) or by this page; "My reports". */
(() => {
  'use strict';
  const D = window.Drafts, $ = (id) => document.getElementById(id);
  const host = document.querySelector('[data-form-url]');
  if (!D || !host || !window.indexedDB) return;
  const formUrl = host.dataset.formUrl, form = host.tagName === 'FORM' ? host : null;
  const mineUrl = host.dataset.mineUrl, tz = host.dataset.timezone;
  const notice = $('offline-notice');
  const el = (tag, props, ...kids) => { const e = Object.assign(document.createElement(tag), props); e.append(...kids); return e; };
  const when = (moment, clockOnly) => D.when(moment, tz, clockOnly);
  // On a page not in English, the host's data-words; else these.
  const w = Object.assign({
    sentAs: 'Your report saved on this phone has been sent as {reference}', what: ' ({what})', whatWhere: ' ({what}, at {where})',
    seeIt: 'See it and keep its status link', listed: '. It is listed under ', mine: 'My reports',
    tooMany: 'Too many reports have come from this connection in a short time, so yours is saved on this phone. ' +
      'We will try again {wait}, at {at}, while this page is open (or when you next open the form).',
    soon: 'in a few seconds', minute: 'in about a minute', minutes: 'in about {n} minutes',
    problem: 'A report saved on this phone could not be sent as it is. ', putBack: 'Put it back in the form',
    waiting1: 'One report is saved on this phone; sent when you are back online.',
    waiting: '{n} reports are saved on this phone; sent when you are back online.',
    discard: 'Discard it', gone: 'The draft is gone from this phone.',
    savedSync: 'Saved on this phone. It will be sent by itself when you are back online, even if you close this page.',
    savedPage: 'Saved on this phone. It will be sent when you are back online while this form is open, ' +
      'or the next time you open it: keep this page open if you can.',
    onceSent: ' Once sent, it is listed under ', withLink: ' with its status link.',
    back: 'Your saved report is back in the form. Check it and press Send report.',
    started: 'The report you started on {when} is filled in from this phone. ',
    at: ', at {where}', checked: ' (checked {when})', line: 'Sent {when} Status: {status}{checked}.',
    forget1: 'Forget the report kept on this device? Only this list goes: your reports stay with us, and their status links still work.',
    forget: 'Forget all {n} reports kept on this device? Only this list goes: your reports stay with us, and their status links still work.',
    yes1: 'Yes, forget it', yes: 'Yes, forget them', no1: 'No, keep it', no: 'No, keep them',
    forgotten: 'This phone no longer keeps any of your reports.',
  }, JSON.parse(host.dataset.words || '{}'));
  const fillIn = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => values[k]);
  const mine = () => el('a', { href: mineUrl, textContent: w.mine });
  // Set while the outbox may hold something: only then does news.js open storage.
  const FLAG = 'reports-outbox';
  const flag = (on) => { try { if (on) localStorage.setItem(FLAG, '1'); else localStorage.removeItem(FLAG); } catch (e) { /* private mode */ } };

  // Said in the notice at the top of the page: one paragraph of `parts`, or paragraphs.
  const say = (...parts) => notice && notice.replaceChildren(el('p', {}, ...parts));
  const sayAll = (paragraphs) => notice && notice.replaceChildren(...paragraphs);
  let listed = () => {}; // "My reports" shows its list again

  if ('serviceWorker' in navigator && host.dataset.sw) {
    navigator.serviceWorker.register(host.dataset.sw, { scope: formUrl }).catch(() => {});
    navigator.serviceWorker.addEventListener('message', (e) => e.data && e.data.sent && told(e.data.sent));
  }

  // True only where Background Sync will send a kept report with the page closed.
  function backgroundSync() {
    if (!('serviceWorker' in navigator) || !('SyncManager' in window)) return Promise.resolve(false);
    const registered = navigator.serviceWorker.ready
      .then((r) => r.sync.register('send-reports')).then(() => true, () => false);
    return Promise.race([registered, new Promise((ok) => setTimeout(() => ok(false), 2000))]);
  }

  function tooMany(at) {
    const minutes = Math.round((at - Date.now()) / 60000);
    const wait = at - Date.now() <= 30000 ? w.soon : minutes <= 1 ? w.minute : fillIn(w.minutes, { n: minutes });
    return fillIn(w.tooMany, { wait, at: when(at, true) });
  }

  let retry;
  function later(at) {
    clearTimeout(retry);
    retry = setTimeout(sendSaved, Math.max(0, at - Date.now()) + 500);
  }

  // What the outbox did: sent (now in "My reports"), needing changes, held back.
  async function told(results) {
    const said = [];
    for (const r of await D.news()) {
      said.push(el('p', {}, fillIn(w.sentAs, r) + (r.what ? fillIn(r.where ? w.whatWhere : w.what, r) : '') + '. ',
        el('a', { href: r.url, textContent: w.seeIt }), w.listed, mine(), '.'));
    }
    if (form && results.some((r) => r.problem)) {
      said.push(el('p', {}, w.problem,
        el('button', { type: 'button', className: 'button-secondary', textContent: w.putBack, onclick: reopen })));
    }
    const waiting = results.filter((r) => r.waiting).map((r) => r.waiting).sort()[0];
    if (waiting) { said.push(el('p', {}, tooMany(waiting))); later(waiting); }
    if (said.length) { sayAll(said); listed(); }
    if (!(await D.all('outbox')).length) flag(false);
  }

  let sending = false;
  async function sendSaved() {
    if (sending || !navigator.onLine) return;
    sending = true;
    try { await told(await D.flush(formUrl)); } catch (e) { /* still offline: next time */ } finally { sending = false; }
  }

  async function waiting() {
    const n = (await D.all('outbox')).filter((i) => !i.problem).length;
    if (n && !navigator.onLine) say(n === 1 ? w.waiting1 : fillIn(w.waiting, { n }));
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
      R.changed();
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
      R.changed();
    }

    let timer;
    // Not the time: it comes filled in.
    const something = (fields, list) => list.length || fields.some(([n, v]) => v.trim() && n !== 'observed_at');
    // A form being sent is no draft (a save due after Send would bring it back).
    form.addEventListener('submit', () => clearTimeout(timer));
    form.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => (something(typed(), R.photos) ? D.put('draft', 'current', { fields: typed(),
        photos: photos(), saved: new Date().toISOString() }) : D.remove('draft', 'current')), 500);
    });

    const discard = el('button', { type: 'button', className: 'button-secondary', textContent: w.discard });
    discard.addEventListener('click', async () => {
      clearTimeout(timer);
      await D.remove('draft', 'current');
      clear();
      say(w.gone);
    });

    // Kept when a send failed (send.js): offline, or not before `notBefore` (ms) after a 429.
    window.reportOffline = {
      async keep(fields, list, notBefore) {
        clearTimeout(timer);
        const key = keyField.value;
        await D.put('outbox', key, { key, fields, photos: list.map((p) => ({ name: p.name, blob: p.blob })),
          saved: new Date().toISOString(), notBefore: notBefore || 0 });
        flag(true);
        await D.remove('draft', 'current');
        clear();
        const bytes = crypto.getRandomValues(new Uint8Array(18));
        keyField.value = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_');
        if (notBefore) {
          say(tooMany(notBefore));
          later(notBefore);
        } else {
          say((await backgroundSync()) ? w.savedSync : w.savedPage, w.onceSent, mine(), w.withLink);
        }
        notice.focus();
        if (!notBefore) sendSaved();
      }
    };

    async function reopen() {
      const item = (await D.all('outbox')).find((i) => i.problem);
      if (!item) return;
      await D.remove('outbox', item.key);
      clear();
      fill(item);
      keyField.value = item.key;
      say(w.back);
    }

    // A fresh form (not the server's answer to a try) gets back the draft typed earlier.
    (async () => {
      const draft = $('error-summary') || $('expired-notice') ? null : await D.get('draft', 'current');
      if (draft && something(draft.fields, draft.photos)) {
        fill(draft);
        say(fillIn(w.started, { when: when(draft.saved) }), discard);
      }
      await waiting();
      // Sends what is due, and says what the worker sent while no page was open.
      await sendSaved();
    })();
  }

  const list = $('my-reports');
  if (list) {
    const items = $('my-reports-list'), empty = $('my-reports-empty');
    const forget = $('forget-all'), ask = $('forget-ask');
    function item(r) {
      const what = r.what ? [`: ${r.what}`, r.where ? fillIn(w.at, r) : '', '.'] : ['.'];
      const checked = r.checked ? fillIn(w.checked, { when: when(r.checked) }) : '';
      return el('li', {},
        el('a', { href: r.url, className: 'reference-inline', textContent: r.reference }), ...what,
        el('br'), fillIn(w.line, { when: when(r.received), status: r.status, checked })); // when() ends in "m."
    }
    async function show() {
      const kept = (await D.all('kept')).sort((a, b) => (a.received < b.received ? 1 : -1));
      items.replaceChildren(...kept.map(item));
      empty.hidden = kept.length > 0;
      forget.hidden = kept.length === 0;
      ask.hidden = true;
      list.hidden = false;
      for (const e of document.querySelectorAll('.js-needed')) e.hidden = true;
      return kept;
    }
    // Forgetting asks first: the list cannot be got back.
    forget.addEventListener('click', async () => {
      const n = (await D.all('kept')).length;
      $('forget-question').textContent = n === 1 ? w.forget1 : fillIn(w.forget, { n });
      $('forget-yes').textContent = n === 1 ? w.yes1 : w.yes;
      $('forget-no').textContent = n === 1 ? w.no1 : w.no;
      forget.hidden = true;
      ask.hidden = false;
      $('forget-yes').focus();
    });
    $('forget-no').addEventListener('click', () => { ask.hidden = true; forget.hidden = false; forget.focus(); });
    $('forget-yes').addEventListener('click', async () => {
      await D.clear('kept');
      await show();
      say(w.forgotten);
      empty.focus();
    });
    listed = show;
    show().then(async (kept) => {
      if (!navigator.onLine) return;
      for (const r of kept) {
        const res = await fetch(r.url + 'status.json', { cache: 'no-store' }).catch(() => null);
        const now = res && res.ok && (await D.get('kept', r.reference));
        if (now) await D.put('kept', r.reference, { ...now, status: (await res.json()).status, checked: new Date().toISOString() });
      }
      await show();
    });
    sendSaved();
  }
})();
