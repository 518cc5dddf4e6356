/* Reports kept on this device, in IndexedDB; used by the report pages and the service
   worker alike (no DOM here). Three stores, each keyed by a string:
   - outbox: reports that could not be sent yet {key, fields: [[name, value]], photos: [{name, blob}], saved}
   - draft:  the report being typed ("current"), kept until sent or discarded
   - kept:   reports the person chose to keep {reference, url, received, status, checked} */
(function (g) {
  'use strict';

  const open = () => new Promise((ok, fail) => {
    const req = indexedDB.open('reports', 1);
    req.onupgradeneeded = () => ['outbox', 'draft', 'kept'].forEach((s) => req.result.createObjectStore(s));
    req.onsuccess = () => ok(req.result);
    req.onerror = () => fail(req.error);
  });

  const run = (store, mode, fn) => open().then((db) => new Promise((ok, fail) => {
    const t = db.transaction(store, mode), req = fn(t.objectStore(store));
    t.oncomplete = () => { db.close(); ok(req.result); };
    t.onerror = t.onabort = () => { db.close(); fail(t.error); };
  }));

  // One sender at a time across the page and the service worker, where locks exist;
  // without them a report sent twice is still stored once (its submission key).
  const locked = (fn) => (g.navigator.locks ? g.navigator.locks.request('report-outbox', fn) : fn());

  const Drafts = {
    put: (store, key, value) => run(store, 'readwrite', (s) => s.put(value, key)),
    get: (store, key) => run(store, 'readonly', (s) => s.get(key)),
    all: (store) => run(store, 'readonly', (s) => s.getAll()),
    remove: (store, key) => run(store, 'readwrite', (s) => s.delete(key)),
    clear: (store) => run(store, 'readwrite', (s) => s.clear()),

    /* Send one saved report: a fresh CSRF token first (the saved one may have expired),
       then the form as it was. Resolves {url, reference} when stored (or already stored),
       {problem: status} when the server wants the person to change something; rejects
       when the network or the server failed (try again later). */
    async send(item, formUrl) {
      const page = await fetch(formUrl, { credentials: 'same-origin', cache: 'no-store' });
      const token = /name="csrf_token" type="hidden" value="([^"]+)"/.exec(await page.text());
      const body = new FormData();
      for (const [name, value] of item.fields) body.append(name, value);
      if (token) body.set('csrf_token', token[1]);
      for (const photo of item.photos) body.append('photos', photo.blob, photo.name);
      const res = await fetch(formUrl, { method: 'POST', body, credentials: 'same-origin' });
      if (res.ok && /\/report\/sent\//.test(res.url)) {
        const ref = /class="reference">([^<]+)</.exec(await res.text());
        await Drafts.remove('outbox', item.key);
        return { url: res.url, reference: ref ? ref[1] : '' };
      }
      if (res.status >= 500 || res.status === 429 || res.status === 408) throw new Error(res.status);
      item.problem = res.status;
      await Drafts.put('outbox', item.key, item);
      return { problem: res.status };
    },

    /* Send every saved report that has no problem; resolves the results. */
    flush: (formUrl) => locked(async () => {
      const results = [];
      for (const item of await Drafts.all('outbox')) {
        if (!item.problem) results.push(await Drafts.send(item, formUrl));
      }
      return results;
    })
  };
  g.Drafts = Drafts;
})(self);
