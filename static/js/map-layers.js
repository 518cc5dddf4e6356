/* The staff maps' layers: the cases (portal/staff/maps.py) and the outfall inventory
   (portal/outfalls/map_layer.py). Each page's map document gives its rows as one JSON array
   and names the layer it wants; the markers are made here, one function per kind, so the
   map's JavaScript lives in one file and not in Python strings. Popups are made with DOM
   calls, never from HTML, so a reference or an id is always plain text. Needs Leaflet, and
   leaflet.markercluster for a clustered layer (both vendored; the map document loads them). */
(function () {
  "use strict";

  // A popup: a link to the thing's page, with lines of plain text under it.
  function popup(url, text, lines) {
    return function () {
      var link = document.createElement("a");
      link.href = url;
      link.textContent = text;
      if (!lines.length) return link;
      var box = document.createElement("div");
      box.appendChild(link);
      lines.forEach(function (words) {
        var line = document.createElement("div");
        line.textContent = words;
        box.appendChild(line);
      });
      return box;
    };
  }

  // Data array in, one layer group out; `addLayers` is markercluster's bulk path.
  function group(markers, clustered, options) {
    if (!clustered) return L.featureGroup(markers);
    var layer = L.markerClusterGroup(options);
    layer.addLayers(markers);
    return layer;
  }

  // Cases: rows of [lat, lon, reference, status, label, url], filled in their status colour.
  // `focus` is the row a one-case map is about (larger, outlined); its neighbours are smaller.
  function cases(rows, settings) {
    function marker(row, focus) {
      var made = L.circleMarker([row[0], row[1]], {
        radius: focus ? 11 : (focus === false ? 6 : 8),
        color: focus ? "#000000" : "#ffffff",
        weight: focus ? 3 : 1.5,
        fillColor: settings.colors[row[3]] || "#000000",
        fillOpacity: 0.9
      });
      made.bindPopup(popup(row[5], row[2] + " \u00b7 " + row[4], []));
      return made;
    }
    var neighbour = settings.focus ? false : null;
    var markers = rows.map(function (row) { return marker(row, neighbour); });
    if (settings.focus) markers.push(marker(settings.focus, true));
    return group(markers, settings.clustered, settings.options);
  }

  // A structure's ring by its place in the rotation: [colour, weight, radius]. A hollow dark
  // ring, unlike the cases' filled colours; overdue thicker and dark red, due dark amber.
  var RINGS = {overdue: ["#a4161a", 5, 8], due: ["#7a4b00", 4, 7]};
  var RING = ["#1f2d3d", 3, 6];

  // Structures: rows of [lat, lon, code, kind, url, rotation state, rotation words], in
  // white squares with their count when clustered (square where the cases' are round).
  function structures(rows, settings) {
    var markers = rows.map(function (row) {
      var ring = RINGS[row[5]] || RING;
      var made = L.circleMarker([row[0], row[1]], {
        radius: ring[2], color: ring[0], weight: ring[1], fillColor: "#ffffff", fillOpacity: 1
      });
      made.bindPopup(popup(row[4], row[2] + " \u00b7 " + row[3], row[6] ? [row[6]] : []));
      return made;
    });
    return group(markers, settings.clustered, {
      chunkedLoading: true, maxClusterRadius: 60,
      iconCreateFunction: function (cluster) {
        return L.divIcon({html: String(cluster.getChildCount()),
          className: "structure-cluster", iconSize: L.point(34, 34)});
      }
    });
  }

  window.portalMapLayers = {cases: cases, structures: structures};
})();
