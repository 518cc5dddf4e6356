// The site-visit form keeps what is typed in this tab's sessionStorage, so a sign-in that
// ends while an officer types on site loses nothing: after signing in again, the case page
// brings the text back (a file input cannot be kept this way: the note says so).
// The page after a recorded visit carries data-recorded, and the draft is forgotten.
(function () {
  "use strict";
  var form = document.getElementById("visit-form");
  var store;
  try {
    store = window.sessionStorage;
  } catch (error) {
    return; // storage switched off: the form works as before
  }
  if (!form || !store) {
    return;
  }
  var key = "draft:" + form.getAttribute("data-draft");
  var names = ["visited_at", "inspector", "findings", "sampled", "lab_reference"];
  if (form.hasAttribute("data-recorded")) {
    store.removeItem(key);
    return;
  }
  var draft = null;
  try {
    draft = JSON.parse(store.getItem(key) || "null");
  } catch (error) {
    draft = null;
  }
  var findings = form.elements.findings;
  // Only into a fresh form: one shown again after a refused save holds what was sent.
  if (draft && draft.findings && !findings.value) {
    names.forEach(function (name) {
      if (typeof draft[name] === "string" && form.elements[name]) {
        form.elements[name].value = draft[name];
      }
    });
    var note = form.parentNode.querySelector(".draft-note");
    if (note) {
      note.hidden = false;
    }
  }
  function save() {
    var values = {};
    names.forEach(function (name) {
      if (form.elements[name]) {
        values[name] = form.elements[name].value;
      }
    });
    try {
      store.setItem(key, JSON.stringify(values));
    } catch (error) {
      // storage full: nothing more to do
    }
  }
  form.addEventListener("input", save);
  form.addEventListener("change", save);
})();
