/* Location tools for the report form: "Use my location" and an optional map.
 *
 * Only an enhancement: without JavaScript the tools stay hidden and people type an
 * address or coordinates; nothing here is required. Fits the CSP (script-src and
 * style-src 'self'): no inline code or style attributes, and Leaflet is added with
 * DOM APIs from our own origin, only when the map is first opened.
 *
 * Markup: templates/portal/_location_tools.html (its comment says what each data-*
 * attribute holds), and text inputs #latitude and #longitude in the same form. A tap on
 * the map after "Use my location" asks before it replaces the location found.
 */
(() => {
  'use strict';

  // Its messages; on a page not in English, #location-tools' data-words replace them.
  const ENGLISH = {
    unavailable: 'The map is not available right now. Use your location or type an address or landmark below.',
    loading: 'Loading the map…',
    // With no pictures there is nothing to aim at: the map is taken away, never left as a
    // blank box that invites a tap.
    noTiles: 'The map pictures could not be loaded (the map server cannot be reached), ' +
      'so the map is not shown. Use your location, or type an address or landmark below.',
    pinned: 'Pin placed at {lat}, {lon}.',
    ask: 'Move the pin here? It replaces your location ({fix}).',
    move: 'Move the pin here', keep: 'Keep my location', kept: 'Your location is kept.',
    finding: 'Finding your location…',
    fix: 'found by your phone, accurate to about {m}',
    found: 'Location found (accurate to about {m}).',
    adjust: ' You can adjust it on the map.',
    denied: 'Location is turned off for this site. You can type an address or landmark instead.',
    slow: 'Finding your location took too long. Try again, or type an address or landmark instead.',
    failed: 'Your location could not be found. Type an address or landmark instead.',
    map: 'Map',
    keys: 'With a keyboard: move the map with the arrow keys, then press Enter to drop the pin in the middle.',
    loaded: 'Map loaded.',
  };
  const fillIn = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => values[k]);
  const PIN = '<svg xmlns="http://www.w3.org/2000/svg" width="25" height="41" viewBox="0 0 25 41">' +
    '<path d="M12.5 1C6 1 1 6 1 12.5 1 21 12.5 40 12.5 40S24 21 24 12.5C24 6 19 1 12.5 1z" ' +
    'fill="#0b4f6c" stroke="#fff" stroke-width="2"/><circle cx="12.5" cy="12.5" r="4.5" fill="#fff"/></svg>';

  function start() {
    const $ = (id) => document.getElementById(id);
    const tools = $('location-tools');
    const lat = $('latitude'), lon = $('longitude'), status = $('location-status');
    const locate = $('use-my-location'), toggle = $('open-map'), panel = $('map-panel');
    if (!tools || !lat || !lon || !status) return;
    const d = tools.dataset, words = Object.assign({}, ENGLISH, JSON.parse(d.words || '{}'));
    const UNAVAILABLE = words.unavailable, LOADING = words.loading, NO_TILES = words.noTiles;
    let map = null, marker = null, loading = false, filling = false, gone = '';
    // Where the coordinates came from: 'gps' (a fix, with its accuracy), 'map' or 'typed'.
    let source = '', fix = '';
    tools.hidden = false;
    const hint = $('location-hint');
    if (hint && hint.dataset.withTools) hint.textContent = hint.dataset.withTools;

    // `quiet`: announce, but don't show it twice when the same words are on screen.
    const say = (text, quiet) => {
      status.textContent = text;
      status.classList.toggle('location-status-quiet', !!quiet);
    };

    // Both numbers, in range, or null. Accepts a decimal comma (some phone keypads).
    function typedPoint() {
      const [a, b] = [lat, lon].map((f) => f.value.trim() && Number(f.value.trim().replace(',', '.')));
      const ok = typeof a === 'number' && typeof b === 'number' && isFinite(a) && isFinite(b);
      return ok && Math.abs(a) <= 90 && Math.abs(b) <= 180 ? [a, b] : null;
    }

    // Write the fields and fire the events that other scripts may listen to.
    function fill(a, b) {
      filling = true;
      for (const [field, value] of [[lat, a], [lon, b]]) {
        field.value = value.toFixed(6);
        field.dispatchEvent(new Event('input', { bubbles: true }));
        field.dispatchEvent(new Event('change', { bubbles: true }));
      }
      filling = false;
    }

    // One draggable pin, made on first use.
    function pin(a, b) {
      if (!map) return;
      if (marker) { marker.setLatLng([a, b]); return; }
      const L = window.L;
      marker = L.marker([a, b], { draggable: true, autoPan: true }).addTo(map);
      marker.on('dragend', () => placed(marker.getLatLng()));
      // If the pin image can't be fetched (a wrong asset URL), draw one instead, so
      // the pin never shows as a broken image. data: images are allowed by the CSP.
      marker.getElement().addEventListener('error', () => marker.setIcon(L.icon({
        iconUrl: 'data:image/svg+xml,' + encodeURIComponent(PIN), iconSize: [25, 41], iconAnchor: [12, 41]
      })), { once: true });
    }

    // A pin set by tap, Enter or drag: fill the fields and say so for screen readers.
    function placed(ll) {
      pin(ll.lat, ll.lng);
      fill(ll.lat, ll.lng);
      source = 'map';
      ask.hidden = true;
      say(fillIn(words.pinned, { lat: ll.lat.toFixed(5), lon: ll.lng.toFixed(5) }));
    }

    // A tap or Enter never replaces a location found by the phone without asking first
    // (dragging the pin is deliberate, and moves it).
    const ask = Object.assign(document.createElement('div'), { className: 'map-ask', hidden: true });
    let tapped = null;
    function chosen(ll) {
      if (source !== 'gps') { placed(ll); return; }
      tapped = ll;
      ask.replaceChildren(
        Object.assign(document.createElement('p'), { id: 'map-ask-text', textContent: fillIn(words.ask, { fix }) }),
        Object.assign(document.createElement('button'), { type: 'button', className: 'button-secondary',
          textContent: words.move, onclick: () => placed(tapped) }),
        Object.assign(document.createElement('button'), { type: 'button', className: 'button-secondary',
          textContent: words.keep, onclick: () => { ask.hidden = true; say(words.kept); } }));
      ask.setAttribute('role', 'group');
      ask.setAttribute('aria-labelledby', 'map-ask-text');
      ask.hidden = false;
      say(fillIn(words.ask, { fix }), true);
      ask.querySelector('button').focus({ preventScroll: true });
    }

    if (locate && !navigator.geolocation) locate.hidden = true;
    if (locate) locate.addEventListener('click', () => {
      say(words.finding);
      navigator.geolocation.getCurrentPosition((pos) => {
        const c = pos.coords, r = Math.round(c.accuracy);
        const m = r < 1000 ? r + ' m' : (r / 1000).toLocaleString(document.documentElement.lang || 'en',
          { minimumFractionDigits: 1, maximumFractionDigits: 1 }) + ' km';
        fill(c.latitude, c.longitude);
        source = 'gps';
        fix = fillIn(words.fix, { m });
        if (ask) ask.hidden = true;
        if (map) { pin(c.latitude, c.longitude); map.setView([c.latitude, c.longitude], 17); }
        say(fillIn(words.found, { m }) + (d.tileUrl && !gone ? words.adjust : ''));
      }, (err) => {
        say(err.code === err.PERMISSION_DENIED ? words.denied : err.code === err.TIMEOUT ? words.slow : words.failed);
      }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 });
    });

    // Typing valid coordinates moves the pin; our own fill() is skipped, so a tap
    // doesn't also pan the map under the person's finger.
    function typed() {
      if (!filling) source = 'typed';
      const p = !filling && map && typedPoint();
      if (p) { pin(p[0], p[1]); map.panTo(p); }
    }
    lat.addEventListener('input', typed);
    lon.addEventListener('input', typed);

    // No map after all: the panel closes and the status says why, shown and announced in
    // one place (not also in the panel: a screen reader would read it twice).
    function noMap(text) {
      loading = false;
      gone = text;
      panel.hidden = true;
      toggle.setAttribute('aria-expanded', 'false');
      say(text);
    }
    const unavailable = () => { map = null; noMap(UNAVAILABLE); };

    const load = (tag, attrs) => new Promise((ok, fail) => {
      const el = Object.assign(document.createElement(tag), attrs, { onload: ok, onerror: fail });
      document.head.appendChild(el);
    });

    function build() {
      const L = window.L, el = $('map');
      // Leaflet guesses its image folder from leaflet.css's URL, which can fail: be explicit.
      if (d.markerIcon) {
        L.Icon.Default.imagePath = '';
        L.Icon.Default.mergeOptions({ iconUrl: d.markerIcon,
          iconRetinaUrl: d.markerIconRetina || d.markerIcon, shadowUrl: d.markerShadow || '' });
      } else {
        L.Icon.Default.imagePath = d.leafletCss.replace(/[^/]*$/, '') + 'images/';
      }
      const p = typedPoint();
      map = L.map(el, { scrollWheelZoom: false }) // don't trap scrolling of the page
        .setView(p || [Number(d.centerLat) || 0, Number(d.centerLon) || 0],
          p ? 17 : Number(d.zoom) || 15);
      // Leaflet inserts attribution as HTML: escape it, it is meant as plain text.
      const escape = (t) => (t || '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
      const credit = d.tileAttributionUrl && d.tileAttribution
        ? `<a href="${escape(d.tileAttributionUrl)}">${escape(d.tileAttribution)}</a>`
        : escape(d.tileAttribution);
      const tiles = L.tileLayer(d.tileUrl, {
        attribution: credit,
        maxZoom: Number(d.maxZoom) || 19,
        // The page's Referrer-Policy is same-origin; tile servers want to see our origin.
        referrerPolicy: 'strict-origin'
      }).addTo(map);
      // No network or a blocked tile host: once every tile asked for has failed, the map
      // goes (a blank box would invite a blind tap) and the other ways to give a place stay.
      let shown = 0;
      tiles.on('tileload', () => { shown += 1; });
      tiles.on('load', () => {
        if (shown || gone) return;
        noMap(NO_TILES);
        // After Leaflet has finished with this event: removed inside it, it trips over itself.
        setTimeout(() => { map.remove(); map = marker = null; });
      });
      if (p) pin(p[0], p[1]);
      map.on('click', (e) => chosen(e.latlng));
      // Keyboard: Leaflet makes the map focusable and pans with the arrow keys;
      // Enter drops the pin in the middle, so a pin never needs a pointer.
      el.setAttribute('role', 'region');
      el.setAttribute('aria-label', words.map);
      el.setAttribute('aria-describedby', 'map-help map-keys');
      el.addEventListener('keydown', (e) => {
        if (e.target === el && e.key === 'Enter') { e.preventDefault(); chosen(map.getCenter()); }
      });
      // Said under the map, so the map isn't pushed further down a phone's screen.
      el.before(ask);
      el.insertAdjacentElement('afterend', Object.assign(document.createElement('p'), {
        id: 'map-keys', className: 'map-keys',
        textContent: words.keys
      }));
      loading = false;
      if (status.textContent === LOADING) say(words.loaded);
    }

    if (toggle && panel) toggle.addEventListener('click', () => {
      if (gone) { say(gone); return; }
      const open = panel.hidden;
      panel.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      if (!open || loading) return;
      if (map) { map.invalidateSize(); return; } // it may have been built while hidden
      // No tile server configured: don't even download Leaflet.
      if (!d.tileUrl || !d.leafletJs || !d.leafletCss) { unavailable(); return; }
      loading = true;
      say(LOADING);
      Promise.all([
        load('link', { rel: 'stylesheet', href: d.leafletCss }),
        load('script', { src: d.leafletJs })
      ]).then(() => {
        if (!window.L) throw new Error('Leaflet did not load');
        build();
      }).catch(unavailable);
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
