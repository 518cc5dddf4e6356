/* Staff forms typed in the field keep what is typed (every form with data-draft="name"):
   - In this tab's sessionStorage, at each change, so a sign-in that ends while an officer
     types loses nothing: after signing in again, a fresh copy of the form (one the page
     marks data-draft-fresh) gets the text back and shows its .draft-note. A file input
     cannot be kept this way (the note says so). A page that carries data-recorded
     forgets the draft.
   - With data-keep-offline, the form is sent from the page: with no signal it stays as it
     is, photos included, says so, and is sent again when the phone is back online (or
     when Save is pressed again); its key makes a sheet sent twice one record. When the
     session has ended, the page opens the form again, which asks for the sign-in first.
   Without JavaScript the forms work as usual. */
(function () {
  "use strict";
  var store;
  try {
    store = window.sessionStorage;
  } catch (error) {
    store = null; // storage switched off: the forms work as before
  }
  var SKIP = ["csrf_token", "kept_photos", "remove_photo"];

  function named(form) {
    return Array.prototype.filter.call(form.elements, function (e) {
      return e.name && e.type !== "file" && SKIP.indexOf(e.name) < 0 && e.type !== "submit";
    });
  }

  function values(form) {
    var kept = {};
    named(form).forEach(function (e) {
      if (e.type === "radio" || e.type === "checkbox") {
        if (e.checked) kept[e.name] = (kept[e.name] || []).concat([e.value]);
      } else {
        kept[e.name] = e.value;
      }
    });
    return kept;
  }

  function fill(form, kept) {
    named(form).forEach(function (e) {
      var value = kept[e.name];
      if (value === undefined) return;
      if (e.type === "radio" || e.type === "checkbox") e.checked = value.indexOf(e.value) >= 0;
      else if (typeof value === "string") e.value = value;
    });
  }

  function keep(form) {
    var key = "draft:" + form.getAttribute("data-draft");
    if (!store) return null;
    if (form.hasAttribute("data-recorded")) {
      store.removeItem(key);
      return null;
    }
    var draft = null;
    try {
      draft = JSON.parse(store.getItem(key) || "null");
    } catch (error) {
      draft = null;
    }
    // Only into a fresh form: one shown again after a refused save holds what was sent.
    if (draft && form.hasAttribute("data-draft-fresh")) {
      fill(form, draft);
      var note = form.parentNode.querySelector(".draft-note");
      if (note) note.hidden = false;
    }
    function save() {
      try {
        store.setItem(key, JSON.stringify(values(form)));
      } catch (error) {
        // storage full: nothing more to do
      }
    }
    form.addEventListener("input", save);
    form.addEventListener("change", save);
    return key;
  }

  function sendFromPage(form, key) {
    var notice = document.getElementById(form.getAttribute("data-keep-offline"));
    var waiting = false;
    var sending = false;
    function say(text) {
      if (notice) {
        notice.textContent = text;
        notice.hidden = !text;
      }
    }
    function send() {
      if (sending) return;
      sending = true;
      var button = form.querySelector("[type=submit]");
      if (button) button.disabled = true;
      say("Saving…");
      fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" })
        .then(function (response) {
          if (response.status === 401) {
            // The session ended: the form's own page asks for the sign-in, then comes back
            // here, where the draft kept in this tab fills the form again.
            window.location.assign(window.location.pathname);
            return null;
          }
          if (response.status >= 500 || response.status === 429) throw new Error(response.status);
          waiting = false;
          var saved = response.redirected && response.ok;
          if (saved && store && key) store.removeItem(key);
          // The server's answer replaces the page, as without JavaScript: the saved page
          // (shown as fetched, so its one-time "saved" message is not lost to a second
          // request; its address replaces the form's, so Back does not bring the sent form
          // back), or the form again with what to fix.
          return response.text().then(function (html) {
            if (saved) window.history.replaceState(null, "", response.url);
            document.open();
            document.write(html);
            document.close();
          });
        })
        .catch(function () {
          waiting = true;
          // Only what comes back is promised: the photos live in this page alone, so a
          // sign-in that has ended by then brings back the typed text, not them.
          say("Not saved yet: there is no signal. Keep this page open: what you typed and the " +
            "photos are saved as soon as the phone is back online (or press Save again). If " +
            "you are asked to sign in again first, what you typed comes back, but the photos " +
            "must be chosen again.");
        })
        .then(function () {
          sending = false;
          if (button) button.disabled = false;
        });
    }
    form.addEventListener("submit", function (event) {
      if (!window.fetch || !window.FormData) return;
      event.preventDefault();
      send();
    });
    window.addEventListener("online", function () {
      if (waiting) send();
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("form[data-draft]"), function (form) {
    var key = keep(form);
    if (form.hasAttribute("data-keep-offline")) sendFromPage(form, key);
  });
})();
