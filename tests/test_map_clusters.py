"""The staff map's groups are never drawn in a status colour (the officer's walk: the
cases' clusters were markercluster's green, the legend's "Resolved"), and the legend says
what the groups look like."""

from __future__ import annotations

import re

from helpers import open_form, report_data, sign_in
from test_screening import INVENTORY, add_outfalls

# Every status colour of the legend (portal/core/statuses.py), written out.
STATUS_COLORS = {
    "#1f6fb4",
    "#c25400",
    "#7b3294",
    "#1a7f37",
    "#00838f",
    "#8c564b",
    "#6e6e6e",
    "#c2185b",
    "#9a7400",
    "#263238",
    "#1f2d3d",
}


def test_clusters_are_white_and_black_not_a_status_colour(app, client):
    client.post("/report/", data={**open_form(client), **report_data()})
    add_outfalls(app, *INVENTORY)
    sign_in(client, app)
    frame = client.get("/staff/map/frame")
    styles = " ".join(
        style
        for style in re.findall(r"<style>(.*?)</style>", frame.text, re.S)
        if "cluster" in style
    )
    assert ".marker-cluster-small div" in styles and ".structure-cluster" in styles
    assert "background-color: #ffffff; color: #000000; border: 2px solid #000000" in styles
    assert "background: #ffffff; color: #000000; border: 4px double #000000" in styles
    assert not set(re.findall(r"#[0-9a-f]{6}", styles)) & STATUS_COLORS
    # Each inline style is allowed by its hash, and only by it.
    (style_src,) = [
        part
        for part in frame.headers["Content-Security-Policy"].split("; ")
        if part.startswith("style-src")
    ]
    assert style_src.count("'sha256-") == len(re.findall(r"<style>", frame.text))
    page = client.get("/staff/map/").text
    assert "Groups of cases near each other: white circles ringed in black" in page
    assert "grouped in white squares with a double black border" in page
