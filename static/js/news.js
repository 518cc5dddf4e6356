/* On the portal's pages other than the form and "My reports" (offline.js says it there):
   a report saved on this phone and sent since, by the service worker while no page was
   open, is said once at the top of the page, with its status link.
   Only a phone whose outbox was used (a flag offline.js sets) opens its storage, loading
   drafts.js (data-drafts) for it; every other visitor's browser is left alone.
   Markup: <script src="news.js" data-drafts="…/drafts.js" data-mine-url="/report/mine/" defer> */
(() => {
  'use strict';
  const me = document.currentScript;
  let used = false;
  try { used = localStorage.getItem('reports-outbox') === '1'; } catch (e) { /* private mode */ }
  if (!used || !me || !window.indexedDB || document.querySelector('[data-form-url]')) return;

  const el = (tag, props, ...kids) => { const e = Object.assign(document.createElement(tag), props); e.append(...kids); return e; };
  // On a page not in English, this tag's data-words (offline.js says the same); else these.
  const w = Object.assign({
    sentAs: 'Your report saved on this phone has been sent as {reference}', what: ' ({what})', whatWhere: ' ({what}, at {where})',
    seeIt: 'See it and keep its status link', listed: '. It is listed under ', mine: 'My reports',
  }, JSON.parse(me.dataset.words || '{}'));
  const fillIn = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => values[k]);
  const drafts = window.Drafts ? Promise.resolve() : new Promise((ok, fail) => {
    document.head.append(Object.assign(document.createElement('script'), { src: me.dataset.drafts, onload: ok, onerror: fail }));
  });

  drafts.then(async () => {
    const D = window.Drafts;
    const sent = await D.news();
    if (!(await D.all('outbox')).length) localStorage.removeItem('reports-outbox');
    if (!sent.length) return;
    const main = document.querySelector('main');
    // The live region goes in empty first, so its words are read out when they arrive.
    const box = el('div', { className: 'offline-notice', role: 'status' });
    main.prepend(box);
    setTimeout(() => box.append(...sent.map((r) => el('p', {},
      fillIn(w.sentAs, r) + (r.what ? fillIn(r.where ? w.whatWhere : w.what, r) : '') + '. ',
      el('a', { href: r.url, textContent: w.seeIt }), w.listed,
      el('a', { href: me.dataset.mineUrl, textContent: w.mine }), '.'))), 100);
  }).catch(() => { /* nothing kept here, or no storage: nothing to say */ });
})();
