/* The report form's service worker (served at /report/sw.js, scope /report/, after these
   lines the server puts CACHE_NAME, PRECACHE, FORM_URL and drafts.js in front).
   - Keeps the form, "My reports" and their assets, so the form opens without a network.
     Nothing else: status pages and staff pages are never cached.
   - Sends reports saved on the phone when Background Sync says the network is back.
     Where there is no Background Sync (or it does not fire), the page sends them the
     next time it is opened or goes online (static/js/offline.js): the submission key
     makes a report sent by both still one case. */
'use strict';

const cached = new Set(self.PRECACHE);

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(self.CACHE_NAME)
    .then((cache) => cache.addAll(self.PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== self.CACHE_NAME).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

// A cached form carries the key of the form it was cached from: give each opening its
// own, or two reports made offline would count as one.
async function freshKey(response) {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  const key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_');
  const html = (await response.text())
    .replace(/(name="submission_key" type="hidden" value=")[^"]*/, '$1' + key);
  return new Response(html, { headers: response.headers });
}

self.addEventListener('fetch', (event) => {
  const req = event.request, url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path.startsWith('/assets/') && cached.has(path)) {
    // Fingerprinted: a cached copy is always the right one.
    event.respondWith(caches.match(path).then((hit) => hit || fetch(req)));
  } else if (cached.has(path)) {
    // The network first (the form carries a fresh token), the cached copy without one.
    event.respondWith(fetch(req).then((res) => {
      if (res.ok && !res.redirected) {
        const copy = res.clone();
        event.waitUntil(caches.open(self.CACHE_NAME).then((c) => c.put(path, copy)));
      }
      return res;
    }).catch(() => caches.match(path).then((hit) => {
      if (!hit) throw new Error('not cached');
      return path === self.FORM_URL ? freshKey(hit) : hit;
    })));
  }
});

// Open pages are told at once (the next one opened says it otherwise). A report held back
// after a 429 fails the sync, so the browser tries again later.
async function sendSaved() {
  const results = await self.Drafts.flush(self.FORM_URL);
  for (const client of await self.clients.matchAll()) client.postMessage({ sent: results });
  if (results.some((r) => r.waiting)) throw new Error('a report waits for its time');
}

self.addEventListener('sync', (event) => {
  if (event.tag === 'send-reports') event.waitUntil(sendSaved());
});
