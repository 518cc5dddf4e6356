"""Answers in the two formats GeoReport v2 speaks: JSON, and XML as the specification shows
it (a root element, one child element per item, one element per field)."""

from __future__ import annotations

import json
import re
from typing import Any
from xml.etree import ElementTree

from flask import Response

FORMATS = ("json", "xml")
CONTENT_TYPES = {"json": "application/json; charset=utf-8", "xml": "text/xml; charset=utf-8"}
# In XML, each list's items are elements named for one item (the specification's names).
ITEM_NAMES = {
    "services": "service",
    "attributes": "attribute",
    "values": "value",
    "service_requests": "request",
    "errors": "error",
    "endpoints": "endpoint",
    "formats": "format",
}


# What XML 1.0 cannot hold at all, even escaped (control characters such as the vertical
# tab Word writes for a line break): left out, so every answer parses whatever a note holds.
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else NOT_XML.sub("", str(value))


def _fill(element: ElementTree.Element, value: Any) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _fill(ElementTree.SubElement(element, key), item)
    elif isinstance(value, list):
        for item in value:
            _fill(ElementTree.SubElement(element, ITEM_NAMES[element.tag]), item)
    else:
        element.text = _text(value)


def to_xml(root: str, value: Any) -> bytes:
    element = ElementTree.Element(root)
    _fill(element, value)
    # The declaration as the specification writes it (ElementTree's uses single quotes).
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(element)


def answer(fmt: str, root: str, value: Any, status: int = 200) -> Response:
    """`value` as JSON (as it is) or as XML under `root` (a list's items named for it)."""
    body = to_xml(root, value) if fmt == "xml" else json.dumps(value, ensure_ascii=False).encode()
    return Response(body, status=status, content_type=CONTENT_TYPES[fmt])


def format_of(path: str) -> str:
    """The format a path asks for (JSON when it names none)."""
    return "xml" if path.endswith(".xml") else "json"


def errors(fmt: str, status: int, *descriptions: str) -> Response:
    """The specification's error answer: a list of {code, description}."""
    items = [{"code": status, "description": d} for d in descriptions]
    return answer(fmt, "errors", items, status)
