/* The screening sheet (and its correction): as the hours since rain and the amount are
   typed, the wet-weather note and its tick box (#wet-confirm) show when the visit is fewer
   than data-dry-hours after a rain of more than data-dry-inches (or of an amount not
   typed), the rule the server applies. Without JavaScript the server shows them after a
   first save. */
(function () {
  "use strict";
  var hours = document.querySelector("input[data-dry-hours]");
  var box = document.getElementById("wet-confirm");
  if (!hours || !box) return;
  var inches = hours.form.elements.rain_inches;
  function update() {
    var h = hours.value.trim() === "" ? NaN : Number(hours.value);
    var r = inches.value.trim() === "" ? null : Number(inches.value);
    var wet = !isNaN(h) && h >= 0 && h < Number(hours.getAttribute("data-dry-hours")) &&
      (r === null || isNaN(r) || r > Number(hours.getAttribute("data-dry-inches")));
    box.hidden = !wet;
  }
  hours.addEventListener("input", update);
  inches.addEventListener("input", update);
  update();
})();
