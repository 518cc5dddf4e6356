/* Small enhancements to the report form; the form works fully without them.
   - A gentle hint when the description sounds like a discharge the law allows.
   - Photo checks before sending, so a too-large file does not cost a long upload. */
(function () {
  "use strict";

  function exemptHint() {
    var text = document.querySelector("[data-exempt-keywords]");
    if (!text) return;
    var target = document.getElementById(text.getAttribute("data-hint-target"));
    var entries = JSON.parse(text.getAttribute("data-exempt-keywords"));
    var url = text.getAttribute("data-exempt-url");
    var shown = "";
    function escapeRegExp(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
    function matches() {
      var said = text.value.toLowerCase();
      return entries.filter(function (entry) {
        return entry[1].some(function (word) {
          return new RegExp("\\b" + escapeRegExp(word.toLowerCase()) + "\\b").test(said);
        });
      }).map(function (entry) { return entry[0]; });
    }
    function update() {
      var names = matches().join(", ");
      if (names === shown) return;  // unchanged: do not make screen readers repeat it
      shown = names;
      target.textContent = "";
      if (!names) return;
      var p = document.createElement("p");
      var strong = document.createElement("strong");
      strong.textContent = "Good to know:";
      var link = document.createElement("a");
      link.href = url;
      link.textContent = "See what may go down a storm drain";
      p.append(strong, " some discharges are allowed, such as " + names +
        ". If that is what you saw, you may not need to report it. ", link,
        ". You can still send your report.");
      target.append(p);
    }
    var timer;
    text.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(update, 400);
    });
  }

  function photoChecks() {
    var input = document.querySelector("input[type=file][data-max-bytes]");
    if (!input) return;
    input.addEventListener("change", function () {
      var maxFiles = Number(input.getAttribute("data-max-files"));
      var maxBytes = Number(input.getAttribute("data-max-bytes"));
      var problems = [];
      if (input.files.length > maxFiles) {
        problems.push("You can attach " + maxFiles + " more photo" + (maxFiles === 1 ? "" : "s") + ".");
      }
      Array.prototype.forEach.call(input.files, function (file) {
        if (file.size > maxBytes) problems.push(file.name + " is over 10 MB. Choose a smaller photo.");
      });
      input.setCustomValidity(problems.join(" "));
      if (problems.length) input.reportValidity();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    exemptHint();
    photoChecks();
  });
})();

/* After a failed send, take the person to the list of what to fix (it is role=alert too). */
document.addEventListener("DOMContentLoaded", function () {
  var summary = document.getElementById("error-summary");
  if (summary) summary.focus();
});
