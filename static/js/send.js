/* Sending the report form with progress (until this loads, the form is sent the usual way).
   The answer is JSON, so the thanks page is fetched once. Offline or a failing server: kept
   on the phone; a 429 is never "offline" and waits its Retry-After; sent already: said. */
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const form = document.querySelector('form[data-offline-js]'), R = window.reportForm;
  const bar = $('send-progress'), say = $('send-status');
  if (!form || !R || !bar || !window.FormData) return;
  const el = (tag, props, ...kids) => { const e = Object.assign(document.createElement(tag), props); e.append(...kids); return e; };
  const button = form.querySelector('[type=submit]'), box = bar.parentElement, label = button.textContent;
  // On a page not in English, the form's data-words (with offline.js's); else these.
  const words = Object.assign({
    already: 'This report was already sent as {reference}. We have not made a second report from it. ',
    seeStatus: 'See its status link', startNew: 'Start a new report', forElse: ' for something else.',
    failed: 'Your report could not be sent. Check your connection and press Send again.',
    progress: '{part} sent', opening: 'Sent. Opening your reference…', sending: 'Sending…', sendingReport: 'Sending your report',
  }, JSON.parse(form.dataset.words || '{}'));
  const fillIn = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => values[k]);

  function body() {
    const data = new FormData(form);
    data.delete('photos');
    R.photos.forEach((p) => data.append('photos', p.blob, p.name));
    return data;
  }

  // Reports sent from this tab, by submission key: a form brought back after Back says so.
  const SENT = 'report-sent:';
  // (report.js keeps the key and the words of the form last sent, for Back.)
  const remember = (key, answer) => {
    try { sessionStorage.setItem(SENT + key, JSON.stringify(answer)); } catch (e) { /* private mode */ }
  };
  const recall = (key) => { try { return JSON.parse(sessionStorage.getItem(SENT + key)); } catch (e) { return null; } };

  /* "Already sent as IDR-…": said at the top of the form, with the status link. */
  function alreadySent(answer) {
    const notice = $('offline-notice');
    notice.replaceChildren(el('p', {}, fillIn(words.already, answer),
      el('a', { href: answer.status_url, textContent: words.seeStatus }), '. ',
      el('a', { href: form.dataset.formUrl, textContent: words.startNew }), words.forElse));
    notice.focus();
  }

  function idle() {
    button.disabled = false;
    button.textContent = label;
    box.hidden = true;
  }

  function send(event) {
    event.preventDefault();
    let retried = false, stall, spoken = 0;
    const data = body();
    const key = form.elements.submission_key.value;
    const done = () => { clearTimeout(stall); idle(); };
    const keep = (notBefore) => {
      done();
      if (window.reportOffline) window.reportOffline.keep(R.fields(), R.photos, notBefore);
      else say.textContent = words.failed;
    };
    function go() {
      const xhr = new XMLHttpRequest();
      const watch = () => { clearTimeout(stall); stall = setTimeout(() => xhr.abort(), 30000); };
      xhr.open('POST', form.action);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.onprogress = (e) => {
        watch();
        if (!e.lengthComputable) return;
        const part = Math.round((100 * e.loaded) / e.total);
        bar.value = part;
        // Said at each quarter, not at every event.
        if (part >= spoken + 25 || part === 100) { spoken = part - (part % 25); say.textContent = fillIn(words.progress, { part: part + '%' }); }
      };
      xhr.onload = () => {
        const json = /^application\/json/.test(xhr.getResponseHeader('Content-Type') || '');
        if (json && [200, 201, 409].includes(xhr.status)) {
          clearTimeout(stall);
          const answer = JSON.parse(xhr.responseText);
          remember(key, answer);
          if (answer.already) { done(); alreadySent(answer); return; }
          say.textContent = words.opening;
          const gone = window.Drafts ? window.Drafts.remove('draft', 'current') : Promise.resolve();
          gone.finally(() => location.assign(answer.thanks));
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
        if (xhr.status === 429) {
          keep(Date.now() + 1000 * Math.max(1, Number(xhr.getResponseHeader('Retry-After')) || 60));
          return;
        }
        done();
        if (xhr.status >= 500) { keep(); return; }
        // The server's answer (what to fix) replaces the page, as without JavaScript.
        document.open();
        document.write(xhr.responseText);
        document.close();
      };
      xhr.onerror = xhr.onabort = xhr.ontimeout = () => keep();
      watch();
      xhr.send(data);
    }
    button.disabled = true;
    button.textContent = words.sending;
    box.hidden = false;
    bar.value = 0;
    say.textContent = words.sendingReport;
    go();
  }

  form.addEventListener('submit', send);
  // The thanks page's scripts, fetched while the form is being filled in: on a weak
  // signal, the thanks page then shows that much sooner after Send.
  for (const href of (form.dataset.thanksJs || '').split(' ').filter(Boolean)) {
    document.head.append(el('link', { rel: 'prefetch', href }));
  }
  // A form already sent, brought back by Back, says so (and gets its button back).
  const back = () => {
    const answer = recall(form.elements.submission_key.value);
    if (answer) alreadySent(answer);
  };
  back();
  addEventListener('pageshow', (e) => {
    if (!e.persisted) return;
    idle();
    R.groups();
    back();
  });
})();
