"""The map tile source: content/site.yaml's `map_tiles`, unless PORTAL_MAP_TILE_URL overrides it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from content_model.site import MapTiles

# Leaflet's own default, for a tile server named only by PORTAL_MAP_TILE_URL.
DEFAULT_MAX_ZOOM = 19


@dataclass(frozen=True)
class TileSource:
    url: str
    attribution: str | None
    attribution_url: str | None
    max_zoom: int

    @property
    def attribution_html(self) -> Markup:
        """The credit as Leaflet shows it: plain text, linked when the provider asks for it."""
        text = escape(self.attribution or "")
        if self.attribution_url and text:
            return Markup('<a href="{}">{}</a>').format(self.attribution_url, text)
        return text


def tile_source(config: dict[str, Any], content_tiles: MapTiles | None) -> TileSource | None:
    """None: no map at all (none in content, or PORTAL_MAP_TILE_URL set empty)."""
    url = config["MAP_TILE_URL"]
    if url is None and content_tiles is not None:
        attribution = config["MAP_TILE_ATTRIBUTION"] or content_tiles.attribution
        # The credit's link belongs to that credit, not to one given in its place.
        link = content_tiles.attribution_url if not config["MAP_TILE_ATTRIBUTION"] else None
        return TileSource(content_tiles.url, attribution, link, content_tiles.max_zoom)
    if not url:
        return None
    return TileSource(url, config["MAP_TILE_ATTRIBUTION"], None, DEFAULT_MAX_ZOOM)
