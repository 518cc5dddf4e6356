/* The thanks and status pages: "Copy link", "Share" (where the browser can share) and
   "Keep on this phone" (with drafts.js, on the thanks page). The buttons stay hidden
   without JavaScript; the link itself is on the page either way.
   Markup: <div class="share" data-url="…" data-title="…" hidden> with #copy-link,
   #share-link, optional #keep-report (data-reference, data-received, data-status,
   data-what, data-where, data-mine: the address of "My reports") and #share-status;
   data-words: its messages on a page in another language (_share.html). */
(() => {
  'use strict';
  function start() {
    const box = document.querySelector('.share[data-url]');
    if (!box) return;
    const $ = (id) => document.getElementById(id);
    const url = box.dataset.url, status = $('share-status');
    const copy = $('copy-link'), share = $('share-link'), keep = $('keep-report');
    const say = Object.assign({
      copied: 'Link copied.', failed: 'The link could not be copied. Select it above and copy it.',
      kept: 'Kept on this phone. Find it under ', mine: 'My reports',
    }, JSON.parse(box.dataset.words || '{}'));
    box.hidden = false;
    if (navigator.clipboard) {
      copy.addEventListener('click', () => navigator.clipboard.writeText(url).then(
        () => { status.textContent = say.copied; },
        () => { status.textContent = say.failed; }));
    } else copy.hidden = true;
    if (navigator.share) {
      share.addEventListener('click', () => navigator.share({ title: box.dataset.title, url }).catch(() => {}));
    } else share.hidden = true;
    if (keep && window.Drafts && window.indexedDB) {
      const d = keep.dataset;
      // The draft of the report just sent (sent before the form's own sender loaded, it
      // stayed) would come back on the next form as if never sent.
      let last = null;
      try { last = JSON.parse(sessionStorage.getItem('report-last-sent')); } catch (e) { /* none */ }
      if (last) window.Drafts.get('draft', 'current').then((draft) => {
        const words = draft && draft.fields.find(([n]) => n === 'description');
        if (words && words[1] === last.description) window.Drafts.remove('draft', 'current');
      });
      window.Drafts.get('kept', d.reference).then((known) => { if (known) keep.hidden = true; });
      keep.addEventListener('click', () => window.Drafts.put('kept', d.reference,
        { reference: d.reference, url, received: d.received, status: d.status, checked: null,
          what: d.what, where: d.where, announced: true }).then(() => {
        keep.hidden = true;
        const mine = Object.assign(document.createElement('a'), { href: d.mine, textContent: say.mine });
        status.replaceChildren(say.kept, mine, '.');
      }));
    } else if (keep) keep.hidden = true;
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
