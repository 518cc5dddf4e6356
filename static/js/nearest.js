/* "List the outfalls nearest me": the phone's position into the place form, sent at once.
   Without JavaScript or a position, the id (or a typed place) finds the outfall. */
(function () {
  "use strict";
  var button = document.getElementById("use-location");
  var form = document.getElementById("near-form");
  var status = document.getElementById("location-status");
  if (!button || !form || !navigator.geolocation) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    status.textContent = "Finding where you are…";
    navigator.geolocation.getCurrentPosition(
      function (position) {
        form.elements.lat.value = position.coords.latitude.toFixed(6);
        form.elements.lon.value = position.coords.longitude.toFixed(6);
        status.textContent = "Found, to within " + Math.round(position.coords.accuracy) + " m.";
        form.submit();
      },
      function () {
        status.textContent = "The phone did not give its position. Type the outfall's id instead.";
      },
      { enableHighAccuracy: true, timeout: 20000, maximumAge: 30000 }
    );
  });
})();
