/* A "Print this receipt" button, shown only where the browser can print. */
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var button = document.getElementById("print-receipt");
  if (!button || typeof window.print !== "function") return;
  button.hidden = false;
  button.addEventListener("click", function () { window.print(); });
});
