/* Reports kept on this device (IndexedDB), for the pages and the service worker (no DOM).
   outbox: {key, fields: [[name, value]], photos: [{name, blob}], saved, notBefore, problem}
   draft: the report being typed ("current")
   kept ("My reports"): {reference, url, received, status, checked, what, where, announced} */
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

  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
    'September', 'October', 'November', 'December'];

  const Drafts = {
    put: (store, key, value) => run(store, 'readwrite', (s) => s.put(value, key)),
    get: (store, key) => run(store, 'readonly', (s) => s.get(key)),
    all: (store) => run(store, 'readonly', (s) => s.getAll()),
    remove: (store, key) => run(store, 'readwrite', (s) => s.delete(key)),
    clear: (store) => run(store, 'readwrite', (s) => s.clear()),

    /* A moment as the site writes it, in the municipality's time zone `tz`:
       "November 30, 2026 at 1:16 p.m." (`clockOnly`: "1:16 p.m."); in Spanish, dates.es.js. */
    when(moment, tz, clockOnly) {
      if (self.localWhen) return self.localWhen(moment, tz, clockOnly);
      const parts = {};
      new Intl.DateTimeFormat('en-US', { timeZone: tz || undefined, year: 'numeric', month: 'numeric',
        day: 'numeric', hour: 'numeric', minute: '2-digit', hourCycle: 'h23' })
        .formatToParts(new Date(moment)).forEach((p) => { parts[p.type] = p.value; });
      const hour = Number(parts.hour) % 24;
      const time = `${hour % 12 || 12}:${parts.minute} ${hour < 12 ? 'a.m.' : 'p.m.'}`;
      return clockOnly ? time : `${MONTHS[parts.month - 1]} ${Number(parts.day)}, ${parts.year} at ${time}`;
    },

    /* A report the server has: listed under "My reports", to be announced once. */
    keep: (answer, announced) => Drafts.put('kept', answer.reference, {
      reference: answer.reference, url: answer.status_url, received: answer.received,
      status: answer.status, checked: null, what: answer.what, where: answer.where, announced
    }),

    // Reports sent from the outbox that no page has mentioned yet; now they count as said.
    news: () => run('kept', 'readwrite', (s) => {
      const req = s.getAll();
      req.onsuccess = () => req.result.filter((r) => r.announced === false)
        .forEach((r) => s.put({ ...r, announced: true }, r.reference));
      return req;
    }).then((all) => all.filter((r) => r.announced === false)),

    /* Send one saved report (with a fresh CSRF token), asking for JSON. Resolves {sent}
       when stored, now or before (then kept for "My reports"), {waiting: ms} after a 429,
       {problem: status} when the person must change it; rejects when the network or the
       server failed. */
    async send(item, formUrl) {
      const page = await fetch(formUrl, { credentials: 'same-origin', cache: 'no-store' });
      const token = /name="csrf_token" type="hidden" value="([^"]+)"/.exec(await page.text());
      const body = new FormData();
      for (const [name, value] of item.fields) body.append(name, value);
      if (token) body.set('csrf_token', token[1]);
      for (const photo of item.photos) body.append('photos', photo.blob, photo.name);
      const res = await fetch(formUrl, { method: 'POST', body, credentials: 'same-origin',
        headers: { Accept: 'application/json' } });
      const json = (res.headers.get('Content-Type') || '').startsWith('application/json');
      if (json && (res.ok || res.status === 409)) {
        const answer = await res.json();
        await Drafts.keep(answer, false);
        await Drafts.remove('outbox', item.key);
        return { sent: answer };
      }
      if (res.status === 429) {
        item.notBefore = Date.now() + 1000 * Drafts.wait(res.headers.get('Retry-After'));
        await Drafts.put('outbox', item.key, item);
        return { waiting: item.notBefore };
      }
      if (res.status >= 500 || res.status === 408) throw new Error(res.status);
      item.problem = res.status;
      await Drafts.put('outbox', item.key, item);
      return { problem: res.status };
    },

    /* Seconds to wait, from a Retry-After header (a minute if it says nothing usable). */
    wait: (header) => Math.max(1, Number(header) || 60),

    /* Send every saved report that has no problem and is due; resolves the results. */
    flush: (formUrl) => locked(async () => {
      const results = [];
      for (const item of await Drafts.all('outbox')) {
        if (item.problem) continue;
        if (item.notBefore > Date.now()) results.push({ waiting: item.notBefore });
        else results.push(await Drafts.send(item, formUrl));
      }
      return results;
    })
  };
  g.Drafts = Drafts;
})(self);
